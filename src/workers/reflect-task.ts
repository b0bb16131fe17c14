// A reflect case on each engine: its own document, its script, every probe read by the trusted
// reflect program; the engine's state serialized in the contract's key order.
import type { IdlValue } from '../protocol/reflect-schema.js';
import { encodeJson } from '../protocol/wire.js';
import type { ReflectResult, ReflectTask } from '../farm/tasks.js';
import { forEachEngine } from './for-each-engine.js';
import type { WorkerContext } from './worker-context.js';

export async function runReflect(task: ReflectTask, ctx: WorkerContext): Promise<ReflectResult> {
  const result: ReflectResult = { states: {}, errors: {} };
  await forEachEngine(task.engines, ctx.hosts, result.errors, async (engine, host) => {
    const values = await host.submit<[string | null, IdlValue][]>({
      kind: 'reflect',
      document: { ...task.documents[engine]!, freshStorage: false },
      probes: task.probes,
      script: task.script,
      maxBytes: ctx.walk.maxBytes,
    });
    const observations = task.probes.map(({ selector, attr, idl }, i) => {
      const [attrValue, idlValue] = values[i]!;
      return { selector, attr, attr_value: attrValue, idl, idl_value: inKeyOrder(idlValue) };
    });
    result.states[engine] = encodeJson({ engine, engine_version: host.version, observations });
  });
  return result;
}

/** The one two-key canonical form, rebuilt in the contract's key order. */
function inKeyOrder(value: IdlValue): IdlValue {
  return typeof value === 'object' && value !== null && '$error' in value ? { $error: true, name: value.name } : value;
}
