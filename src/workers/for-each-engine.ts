// Every task runs its case on each requested engine at once; this is that loop.
import { ENGINE_NOT_LAUNCHED, errorWireText } from '../protocol/errors.js';
import type { EngineName } from '../protocol/schema.js';
import type { EngineHost } from './host/engine-host.js';

/**
 * Run `each` on every requested engine at once; an engine that is not launched, or whose
 * attempt fails, gets its wire error text in `errors` instead.
 */
export async function forEachEngine(
  engines: readonly EngineName[],
  hosts: Map<EngineName, EngineHost>,
  errors: Partial<Record<EngineName, string>>,
  each: (engine: EngineName, host: EngineHost) => Promise<void>,
): Promise<void> {
  await Promise.all(
    engines.map(async (engine) => {
      const host = hosts.get(engine);
      if (!host) {
        errors[engine] = ENGINE_NOT_LAUNCHED;
        return;
      }
      try {
        await each(engine, host);
      } catch (error) {
        errors[engine] = errorWireText(error);
      }
    }),
  );
}
