// The `reflect` op: on each engine, the case's own document (its html the body of a standards-mode
// page), its script, then every probe read by the trusted reflect program; each engine's state in
// the contract's key order, and the reflection vote when asked.
import { OracleError } from '../../protocol/errors.js';
import { inAnswerOrder } from '../../protocol/ops.js';
import { decodeReflectionText } from '../../protocol/page-output.js';
import type { IdlValue } from '../../protocol/reflect-schema.js';
import type { ReflectState } from '../../protocol/reflect-schema.js';
import type { EngineName } from '../../protocol/schema.js';
import { encodeJson, plainJson } from '../../protocol/wire.js';
import { voteReflect } from '../../comparator/reflect-vote.js';
import type { CaseCheck } from '../../page/programs.js';
import type { ReflectProbe } from '../../page/reflect.js';
import type { EnginePage } from '../engine.js';
import { caseScript, detourError, tooLarge } from '../page-answers.js';
import { eachEngine, errorsField, perEngine, type Task } from './task.js';

export const reflect: Task<'reflect'> = async (task, ctx) => {
  const probes = task.request.probes.map(({ selector, attr, idl }) => ({ selector, attr, idl: idl ?? attr }));
  const script = task.request.script ?? null;
  const { results, errors } = await eachEngine(task, ctx, async (engine, host): Promise<ReflectState> => {
    const values = await host.submit({
      kind: 'document',
      document: { ...task.documents[engine]!, freshStorage: false },
      extraMs: 0,
      run: (page, check) => readProbes(engine, page, check, probes, script, ctx.walk.maxBytes),
    });
    const observations = probes.map(({ selector, attr, idl }, i) => {
      const [attrValue, idlValue] = values[i]!;
      return { selector, attr, attr_value: attrValue, idl, idl_value: inKeyOrder(idlValue) };
    });
    return { engine, engine_version: host.version, observations };
  });
  return inAnswerOrder('reflect', {
    states: perEngine(results, (state) => encodeJson(state)),
    vote: task.request.vote ? plainJson(voteReflect({ states: results, errors })) : undefined,
    errors: errorsField(errors),
  });
};

/** Every probe on the case's document, after its script; past `maxBytes` of values the case is dump_too_large. */
async function readProbes(
  engine: EngineName,
  page: EnginePage,
  check: CaseCheck,
  probes: readonly ReflectProbe[],
  script: string | null,
  maxBytes: number,
): Promise<[string | null, IdlValue][]> {
  const answer = decodeReflectionText(
    await page.run({ program: 'reflect', args: { check, fresh: true, probes, maxBytes }, script: caseScript(script) }),
    probes.length,
  );
  if ('elsewhere' in answer || 'scriptError' in answer) throw detourError(answer);
  if ('tooLarge' in answer) throw tooLarge(answer.tooLarge);
  if ('unresolved' in answer) {
    const selector = JSON.stringify(answer.unresolved);
    throw new OracleError(
      'selector_not_found',
      answer.invalid ? `${selector} is not a selector ${engine} accepts` : `no element matches ${selector}`,
    );
  }
  return answer.values;
}

/** The one two-key canonical form, rebuilt in the contract's key order. */
function inKeyOrder(value: IdlValue): IdlValue {
  return typeof value === 'object' && value !== null && '$error' in value ? { $error: true, name: value.name } : value;
}
