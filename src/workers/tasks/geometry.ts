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
import { encodeJson, plainJson, type JsonText } from '../../protocol/wire.js';
import type { CaseCheck } from '../../page/programs.js';
import type { WalkOptions } from '../../page/walk.js';
import { mutationScript } from '../../page/mutation-script.js';
import type { AuthoredOptions } from '../../page/authored.js';
import {
  AUTHORED_ATTRIBUTES,
  AUTHORED_NUMBERS,
  AUTHORED_OTHER_KEYS,
  AUTHORED_STRINGS,
  type AuthoredRequest,
} from '../../protocol/authored-schema.js';
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
  const { html, site, wait, mutations } = task.request;
  // Mutations run as the script the oracle writes for them (so on a document of their own); a request never has both (OPS' refusal).
  const script = task.request.script ?? (mutations ? mutationScript(mutations) : null);
  const relayout = task.request.relayout === true;
  const authored = authoredOptions(task.request.authored, ctx.walk);
  return eachEngine(task, ctx, async (engine, host): Promise<Walked> => {
    const own = walkJob(engine, { ...task.documents[engine]!, freshStorage: false }, ctx.walk, script, relayout, authored, wait);
    // A page with files of its own, or one that says when it is ready, loads them, and the fast path's batch reads no
    // check-layout attributes: such a case is always its own document.
    const walk = await host.submit(site || wait || authored ? own : geometryJob(html, script, task.blankUrl, ctx.walk, relayout, own));
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
  authored: AuthoredOptions | null = null,
  wait?: string,
): DocumentJob<RawWalk> {
  return {
    kind: 'document',
    document,
    extraMs: 0,
    run: async (page: EnginePage, check: CaseCheck) => {
      const args = { check, fresh: true, walk, relayout, wait };
      const answer = decodeWalkText(
        await (authored
          ? page.run({ program: 'walkAuthored', args: { ...args, authored }, script: caseScript(script) })
          : page.run({ program: 'walk', args, script: caseScript(script) })),
      );
      if ('tooLarge' in answer) throw tooLarge(answer.tooLarge);
      if (!('walk' in answer)) throw detourError(answer);
      if (authored && !answer.walk.authored)
        throw new OracleError('page_tampered', `${engine} answered without the check-layout reading it was asked for`);
      checkViewport(engine, 'measured the case', answer.walk);
      return answer.walk;
    },
  };
}

/** What the page's check-layout reading is told, from the request's `authored`; null when not asked. */
const authoredOptions = (request: AuthoredRequest | undefined, walk: WalkOptions): AuthoredOptions | null =>
  request
    ? {
        scope: request.scope ?? null,
        attributes: Object.entries(AUTHORED_ATTRIBUTES),
        order: [...AUTHORED_NUMBERS, ...AUTHORED_STRINGS],
        otherKeys: AUTHORED_OTHER_KEYS,
        maxBytes: walk.maxBytes,
      }
    : null;

/** Each engine's check-layout reading. */
export const authoredOf = (walked: Partial<Record<EngineName, Walked>>) => perEngine(walked, (w) => plainJson(w.walk.authored!));

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

/** Each engine's viewport scrollbar room, for a `site` case: whether an overflowed dump of it is judged. */
export const scrollbarsOf = (walked: Partial<Record<EngineName, Walked>>) =>
  perEngine(walked, ({ walk }) => encodeJson({ x: walk.scrollbars[0], y: walk.scrollbars[1] }));

/** Each engine's relayout check. */
export const relayoutOf = (walked: Partial<Record<EngineName, Walked>>) => perEngine(walked, (w) => w.relayout!);

export const geometry: Task<'geometry'> = async (task, ctx) => {
  const { results, errors } = await walkEach(task, ctx);
  return inAnswerOrder('geometry', {
    dumps: dumpsOf(results),
    relayout: task.request.relayout ? relayoutOf(results) : undefined,
    authored: task.request.authored ? authoredOf(results) : undefined,
    errors: errorsField(errors),
    timing: task.request.timing ? timingOf(results) : undefined,
    scrollbars: task.request.site ? scrollbarsOf(results) : undefined,
  });
};
