// A reflect case on each engine: load the document, run the script, read every probe, and
// serialize the engine's state in the contract's key order.
import { OracleError } from '../protocol/errors.js';
import type { IdlValue } from '../protocol/reflect-schema.js';
import type { EngineName } from '../protocol/schema.js';
import type { EngineHost } from './engine-host.js';
import { forEachEngine } from './for-each-engine.js';
import { REFLECT_FUNCTION_SOURCE, type RawReflection } from '../page/reflect.js';
import type { ReflectResult, ReflectTask } from '../farm/tasks.js';
import { encodeJson } from '../protocol/wire.js';

export async function runReflect(task: ReflectTask, hosts: Map<EngineName, EngineHost>): Promise<ReflectResult> {
  const result: ReflectResult = { states: {}, errors: {} };
  await forEachEngine(task.engines, hosts, result.errors, async (engine, host) => {
    // No fast path: the case's script must run in a navigated document like any page script.
    const value = await host.run<RawReflection>({
      url: task.url,
      fn: REFLECT_FUNCTION_SOURCE,
      args: [task.script, task.probes],
      timeoutMs: task.timeoutMs,
    });
    if ('unresolved' in value) {
      const selector = JSON.stringify(value.unresolved);
      throw new OracleError(
        'selector_not_found',
        value.invalid ? `${selector} is not a selector ${engine} accepts` : `no element matches ${selector}`,
      );
    }
    const observations = task.probes.map(({ selector, attr, idl }, i) => {
      const [attrValue, idlValue] = value.values[i]!;
      return { selector, attr, attr_value: attrValue, idl, idl_value: inKeyOrder(idlValue) };
    });
    result.states[engine] = encodeJson({ engine, engine_version: host.version, observations });
  });
  return result;
}

/** The one two-key canonical form, rebuilt: WebKitWebDriver does not keep object key order. */
function inKeyOrder(value: IdlValue): IdlValue {
  return typeof value === 'object' && value !== null && '$error' in value ? { $error: true, name: value.name } : value;
}
