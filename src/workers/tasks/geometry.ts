// A geometry case (no op): each engine's walk, the fast path for a script-free case and the case's
// own document for any other (a case's `mutations` are the script the oracle writes for them), each walk checked and serialized in the contract's key order; with
// `relayout`, each engine's walk also held to its walk after a fresh layout (the relayout check).
import type { CaseTask } from '../../worker-contract/tasks.js';
import { columnarFromRaw } from '../../comparator/columnar.js';
import { checkRelayout } from '../../comparator/relayout.js';
import { dumpJson } from '../../protocol/dump.js';
import { OracleError } from '../../protocol/errors.js';
import { inAnswerOrder } from '../../protocol/ops.js';
import { decodeWalkText, type RawWalk } from '../../protocol/page-output.js';
import type { EngineName } from '../../protocol/schema.js';
import type { RelayoutResult } from '../../protocol/relayout-schema.js';
import { encodeJson, type JsonText } from '../../protocol/wire.js';
import type { CaseCheck } from '../../page/programs.js';
import type { WalkOptions } from '../../page/walk.js';
import { mutationScript } from '../../page/mutation-script.js';
import type { EnginePage } from '../engine.js';
import { geometryJob } from '../host/fast-path.js';
import type { CaseDocument, DocumentJob } from '../host/jobs.js';
import { caseScript, checkViewport, detourError, tooLarge } from '../page-answers.js';
import type { WorkerContext } from '../worker-context.js';
import { eachEngine, errorsField, perEngine, type Task } from './task.js';

/** One engine's walk of a case, with the build that made it and, when asked, its relayout check. */
interface Walked {
  walk: RawWalk;
  version: string;
  relayout?: JsonText<RelayoutResult>;
}

/** Walks a geometry or vote case on each engine. */
export function walkEach(task: CaseTask<'geometry' | 'vote'>, ctx: WorkerContext) {
  const { html } = task.request;
  const { mutations } = task.request;
  // Mutations run as the script the oracle writes for them; a request never has both (OPS' refusal).
  const script = task.request.script ?? (mutations ? mutationScript(mutations) : null);
  const relayout = task.request.relayout === true;
  return eachEngine(task, ctx, async (engine, host): Promise<Walked> => {
    const own = walkJob(engine, { ...task.documents[engine]!, freshStorage: false }, ctx.walk, script, relayout);
    const walk = await host.submit(geometryJob(html, script, task.blankUrl, ctx.walk, relayout, own));
    return { walk, version: host.version, ...(relayout ? { relayout: checkedRelayout(engine, walk) } : {}) };
  });
}

/**
 * A geometry case on its own document: the walk once its fonts settled, it was laid out from
 * scratch and its script ran, checked; `relayout`, walked again after a fresh layout.
 */
export function walkJob(
  engine: EngineName,
  document: CaseDocument,
  walk: WalkOptions,
  script: string | null,
  relayout: boolean,
): DocumentJob<RawWalk> {
  return {
    kind: 'document',
    document,
    extraMs: 0,
    run: async (page: EnginePage, check: CaseCheck) => {
      const answer = decodeWalkText(
        await page.run({ program: 'walk', args: { check, fresh: true, walk, relayout }, script: caseScript(script) }),
      );
      if ('tooLarge' in answer) throw tooLarge(answer.tooLarge);
      if (!('walk' in answer)) throw detourError(answer);
      checkViewport(engine, 'measured the case', answer.walk);
      return answer.walk;
    },
  };
}

/** Each engine's dump, in the contract's key order. */
export const dumpsOf = (walked: Partial<Record<EngineName, Walked>>) =>
  perEngine(walked, (w, engine) => dumpJson(engine, w.version, w.walk));

/** Each engine's in-page milliseconds (parse, style, layout, script, walk). */
export const timingOf = (walked: Partial<Record<EngineName, Walked>>) => perEngine(walked, (w) => w.walk.loadMs + w.walk.walkMs);

/** The engine held to itself: its walk against its walk after a fresh layout. */
function checkedRelayout(engine: EngineName, walk: RawWalk): JsonText<RelayoutResult> {
  // The page walks twice when asked; a walk without its second is not the trusted program's.
  if (!walk.relayout) throw new OracleError('page_tampered', `${engine} answered the relayout check without its second walk`);
  return encodeJson(checkRelayout(columnarFromRaw(walk, engine), columnarFromRaw(walk.relayout, engine))) as JsonText<RelayoutResult>;
}

/** Each engine's relayout check. */
export const relayoutOf = (walked: Partial<Record<EngineName, Walked>>) => perEngine(walked, (w) => w.relayout!);

export const geometry: Task<'geometry'> = async (task, ctx) => {
  const { results, errors } = await walkEach(task, ctx);
  return inAnswerOrder('geometry', {
    dumps: dumpsOf(results),
    relayout: task.request.relayout ? relayoutOf(results) : undefined,
    errors: errorsField(errors),
    timing: task.request.timing ? timingOf(results) : undefined,
  });
};
