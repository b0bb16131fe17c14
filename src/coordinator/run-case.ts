// Every case op's coordinator half, one path for all of them: resolve the engines, publish the
// case's documents as the op's registry entry says (src/protocol/ops.ts), send the task, and
// answer with what the op's worker task answered, id first. Nothing here knows one op from another.
import { errorWireText, ENGINE_NOT_LAUNCHED, firstLine, OracleError } from '../protocol/errors.js';
import { log } from '../system/log.js';
import { OPS, type Answer, type Descriptor, type CaseOp, type RequestOf } from '../protocol/ops.js';
import type { EngineName, ProfileName } from '../protocol/schema.js';
import type { CaseTask, TaskAnswer, WorkerTask } from '../worker-contract/tasks.js';
import type { EngineColumns } from '../protocol/walk-columns.js';
import type { CaseServer } from './case-server.js';
import type { EngineFarm } from './engine-farm.js';

export interface CaseContext {
  farm: EngineFarm;
  cases: CaseServer;
  /** The launch profile every engine runs: what a request may ask depends on it. */
  profile: ProfileName;
}

/**
 * Runs `request` on the engines it names that are running (each other one gets
 * engine_not_launched); a case with none still goes to a worker, whose task answers it with the
 * errors alone. When the worker fails under the task, the same task runs on no engine, with that
 * failure as every engine's error; only a second failure rejects. With `columns`, a `vote` also
 * gives each engine's walk in columns, beside the answer.
 */
export async function runCase<K extends CaseOp>(
  ctx: CaseContext,
  op: K,
  request: RequestOf<K>,
  { columns = false } = {},
): Promise<{ answer: Answer<K>; columns?: EngineColumns }> {
  const refusal = (OPS[op] as Descriptor).refusal?.(request as never, ctx.profile);
  if (refusal) throw new OracleError('invalid_request', refusal);
  const unavailable: Partial<Record<EngineName, string>> = {};
  const launched = ctx.farm.engines;
  const engines = (request.engines ?? launched).filter((e) => {
    if (launched.includes(e)) return true;
    unavailable[e] = ENGINE_NOT_LAUNCHED;
    return false;
  });
  const published = engines.length ? ctx.cases.publish(request.id, OPS[op].document, request, engines, ctx.farm.guarded) : null;
  const task: CaseTask<K> = {
    op,
    request,
    engines,
    unavailable,
    documents: published?.documents ?? {},
    blankUrl: ctx.cases.blankUrl,
    ...(columns ? { columns } : {}),
  };
  try {
    let answered: TaskAnswer<K>;
    try {
      answered = await ctx.farm.run<TaskAnswer<K>>(task as WorkerTask);
    } catch (error) {
      log.error(`${op} ${JSON.stringify(request.id.slice(0, 100))}: ${firstLine(error)}`);
      const failed = Object.fromEntries(engines.map((e) => [e, errorWireText(error)]));
      answered = await ctx.farm.run<TaskAnswer<K>>({ ...task, engines: [], unavailable: { ...unavailable, ...failed } } as WorkerTask);
    }
    const { columns: walks, ...fields } = answered;
    return { answer: { id: request.id, ...fields } as Answer<K>, ...(walks ? { columns: walks } : {}) };
  } finally {
    published?.release();
  }
}
