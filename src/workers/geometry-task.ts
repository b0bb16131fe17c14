// A geometry case on each engine: a script-free case goes to the fast path (written into the blank
// page with others), any other loads its own document; the walk comes back checked, and the dump
// is serialized in the contract's order — and voted here when the task asks for the vote.
import { dumpJson } from '../protocol/dump.js';
import type { RawWalk } from '../protocol/page-output.js';
import type { EngineName } from '../protocol/schema.js';
import { encodeJson } from '../protocol/wire.js';
import { columnarFromRaw } from '../comparator/columnar.js';
import { voteColumnar } from '../comparator/vote.js';
import { checkRelayout } from '../comparator/relayout.js';
import { OracleError } from '../protocol/errors.js';
import type { GeometryResult, GeometryTask } from '../farm/tasks.js';
import { forEachEngine } from './for-each-engine.js';
import type { Job, WalkJob } from './host/jobs.js';
import { mayEnableBidi, mayRunScript } from './script-free.js';
import type { WorkerContext } from './worker-context.js';

export async function runGeometry(task: GeometryTask, ctx: WorkerContext): Promise<GeometryResult> {
  const result: GeometryResult = { dumps: {}, errors: {}, inPageMs: {} };
  const relayout: NonNullable<GeometryResult['relayout']> = {};
  const walks: Partial<Record<EngineName, RawWalk>> = {};
  const scriptFree = task.script === null && !mayRunScript(task.html);
  const bidi = mayEnableBidi(task.html);
  await forEachEngine(task.engines, ctx.hosts, result.errors, async (engine, host) => {
    const own: WalkJob = {
      kind: 'walk',
      document: { ...task.documents[engine]!, freshStorage: false },
      walk: ctx.walk,
      script: task.script,
      relayout: task.relayout,
    };
    const job: Job = scriptFree
      ? { kind: 'write', html: task.html, blankUrl: task.blankUrl, walk: ctx.walk, relayout: task.relayout, fallback: own, bidi }
      : own;
    const walk = await host.submit<RawWalk>(job);
    walks[engine] = walk;
    if (task.keepDumps) result.dumps[engine] = dumpJson(engine, host.version, walk);
    if (task.relayout) relayout[engine] = encodeJson(relayoutOf(engine, walk));
    result.inPageMs[engine] = walk.loadMs + walk.walkMs;
  });
  if (task.relayout) result.relayout = relayout;
  if (task.vote) {
    const columnar = Object.fromEntries(Object.entries(walks).map(([engine, walk]) => [engine, columnarFromRaw(walk, engine)]));
    result.vote = encodeJson(voteColumnar({ dumps: columnar, errors: { ...task.unavailable, ...result.errors } }));
  }
  return result;
}

/** The engine held to itself: its walk against its walk after a fresh layout. */
function relayoutOf(engine: EngineName, walk: RawWalk) {
  // The page walks twice when asked; a walk without its second is not the trusted program's.
  if (!walk.relayout) throw new OracleError('page_tampered', `${engine} answered the relayout check without its second walk`);
  return checkRelayout(columnarFromRaw(walk, engine), columnarFromRaw(walk.relayout, engine));
}
