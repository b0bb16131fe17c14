// A geometry case (no op): each engine's walk, the fast path for a script-free case and the case's
// own document for any other, each walk checked and serialized in the contract's key order.
import type { CaseTask } from '../../farm/tasks.js';
import { dumpJson } from '../../protocol/dump.js';
import { inAnswerOrder } from '../../protocol/ops.js';
import { decodeWalkText, type RawWalk } from '../../protocol/page-output.js';
import type { EngineName } from '../../protocol/schema.js';
import type { CaseCheck } from '../../page/programs.js';
import type { WalkOptions } from '../../page/walk.js';
import type { EnginePage } from '../engine.js';
import { geometryJob } from '../host/fast-path.js';
import type { CaseDocument, DocumentJob } from '../host/jobs.js';
import { caseScript, checkViewport, detourError, tooLarge } from '../page-answers.js';
import type { WorkerContext } from '../worker-context.js';
import { eachEngine, errorsField, perEngine, type Task } from './task.js';

/** One engine's walk of a case, with the build that made it. */
interface Walked {
  walk: RawWalk;
  version: string;
}

/** Walks a geometry or vote case on each engine. */
export function walkEach(task: CaseTask<'geometry' | 'vote'>, ctx: WorkerContext) {
  const { html } = task.request;
  const script = task.request.script ?? null;
  return eachEngine(task, ctx, async (engine, host): Promise<Walked> => {
    const own = walkJob(engine, { ...task.documents[engine]!, freshStorage: false }, ctx.walk, script);
    const walk = await host.submit(geometryJob(html, script, task.blankUrl, ctx.walk, own));
    return { walk, version: host.version };
  });
}

/** A geometry case on its own document: the walk once its fonts settled and its script ran, checked. */
export function walkJob(engine: EngineName, document: CaseDocument, walk: WalkOptions, script: string | null): DocumentJob<RawWalk> {
  return {
    kind: 'document',
    document,
    extraMs: 0,
    run: async (page: EnginePage, check: CaseCheck) => {
      const answer = decodeWalkText(await page.run({ program: 'walk', args: { check, walk }, script: caseScript(script) }));
      if ('tooLarge' in answer) throw tooLarge(answer.tooLarge);
      if (!('walk' in answer)) throw detourError(answer);
      checkViewport(engine, answer.walk);
      return answer.walk;
    },
  };
}

/** Each engine's dump, in the contract's key order. */
export const dumpsOf = (walked: Partial<Record<EngineName, Walked>>) =>
  perEngine(walked, (w, engine) => dumpJson(engine, w.version, w.walk));

/** Each engine's in-page milliseconds (parse, style, layout, script, walk). */
export const timingOf = (walked: Partial<Record<EngineName, Walked>>) => perEngine(walked, (w) => w.walk.loadMs + w.walk.walkMs);

export const geometry: Task<'geometry'> = async (task, ctx) => {
  const { results, errors } = await walkEach(task, ctx);
  return inAnswerOrder('geometry', {
    dumps: dumpsOf(results),
    errors: errorsField(errors),
    timing: task.request.timing ? timingOf(results) : undefined,
  });
};
