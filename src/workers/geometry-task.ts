// A geometry case on each engine: load the document (fast path when it cannot run script),
// run the walk, serialize the dump in the contract's order.
import { dumpJson, type RawWalk } from '../protocol/dump.js';
import type { EngineName } from '../protocol/schema.js';
import type { EngineHost } from './engine-host.js';
import { forEachEngine } from './for-each-engine.js';
import { WALK_FIXED_ARGS, WALK_FUNCTION_SOURCE } from '../page/walk.js';
import { mayRunScript } from './script-free.js';
import { columnarFromRaw } from '../comparator/columnar.js';
import { voteColumnar } from '../comparator/vote.js';
import type { GeometryResult, GeometryTask } from '../farm/tasks.js';
import { encodeJson } from '../protocol/wire.js';

export async function runGeometry(task: GeometryTask, hosts: Map<EngineName, EngineHost>): Promise<GeometryResult> {
  const result: GeometryResult = { dumps: {}, errors: {}, inPageMs: {} };
  const walks: Partial<Record<EngineName, RawWalk>> = {};
  const writable = task.script === null && !mayRunScript(task.html) ? { html: task.html, blankUrl: task.blankUrl } : undefined;
  await forEachEngine(task.engines, hosts, result.errors, async (engine, host) => {
    const walk = await host.run<RawWalk>({
      url: task.url,
      writable,
      fn: WALK_FUNCTION_SOURCE,
      args: [task.script, ...WALK_FIXED_ARGS],
      timeoutMs: task.timeoutMs,
    });
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
