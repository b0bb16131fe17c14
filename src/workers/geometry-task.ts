// A geometry case on each engine: a script-free case goes to the fast path (written into the blank
// page with others), any other loads its own document; the walk comes back checked, and the dump
// is serialized in the contract's order — and voted here when the task asks for the vote.
import { dumpJson } from '../protocol/dump.js';
import type { RawWalk } from '../protocol/page-output.js';
import type { EngineName } from '../protocol/schema.js';
import { encodeJson } from '../protocol/wire.js';
import { columnarFromRaw } from '../comparator/columnar.js';
import { voteColumnar } from '../comparator/vote.js';
import type { GeometryResult, GeometryTask } from '../farm/tasks.js';
import { forEachEngine } from './for-each-engine.js';
import type { Job, WalkJob } from './host/jobs.js';
import { mayEnableBidi, mayRunScript } from './script-free.js';
import type { WorkerContext } from './worker-context.js';

export async function runGeometry(task: GeometryTask, ctx: WorkerContext): Promise<GeometryResult> {
  const result: GeometryResult = { dumps: {}, errors: {}, inPageMs: {} };
  const walks: Partial<Record<EngineName, RawWalk>> = {};
  const scriptFree = task.script === null && !mayRunScript(task.html);
  const bidi = mayEnableBidi(task.html);
  await forEachEngine(task.engines, ctx.hosts, result.errors, async (engine, host) => {
    const own: WalkJob = {
      kind: 'walk',
      document: { ...task.documents[engine]!, freshStorage: false },
      walk: ctx.walk,
      script: task.script,
    };
    const job: Job = scriptFree ? { kind: 'write', html: task.html, blankUrl: task.blankUrl, walk: ctx.walk, fallback: own, bidi } : own;
    const walk = await host.submit<RawWalk>(job);
    walks[engine] = walk;
    if (task.keepDumps) result.dumps[engine] = dumpJson(engine, host.version, walk);
    result.inPageMs[engine] = walk.loadMs + walk.walkMs;
  });
  if (task.vote) {
    const columnar = Object.fromEntries(Object.entries(walks).map(([engine, walk]) => [engine, columnarFromRaw(walk, engine)]));
    result.vote = encodeJson(voteColumnar({ dumps: columnar, errors: { ...task.unavailable, ...result.errors } }));
  }
  return result;
}
