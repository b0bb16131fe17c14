// What an op's worker task is, and the loop every task runs its case in: on each requested engine
// at once, each engine's failure its own.
import type { CaseTask, TaskAnswer } from '../../worker-contract/tasks.js';
import { ENGINE_NOT_LAUNCHED, errorWireText } from '../../protocol/errors.js';
import type { CaseOp } from '../../protocol/ops.js';
import type { EngineName } from '../../protocol/schema.js';
import type { EngineHost } from '../host/engine-host.js';
import type { WorkerContext } from '../worker-context.js';

/**
 * An op's half in the worker: its case on the engines, answered with the answer's fields beside
 * the id (inAnswerOrder). It never rejects for an engine's failure: that engine's error is in the
 * answer, as are the task's unavailable engines'.
 */
export type Task<K extends CaseOp> = (task: CaseTask<K>, ctx: WorkerContext) => Promise<TaskAnswer<K>>;

export type Errors = Partial<Record<EngineName, string>>;

/**
 * Runs `each` on every engine of `task` at once. Resolves with each engine's result, and the
 * errors of the others: the task's unavailable engines, an engine this worker did not launch, and
 * each engine whose attempt failed, as its wire error text.
 */
export async function eachEngine<R>(
  task: CaseTask,
  ctx: WorkerContext,
  each: (engine: EngineName, host: EngineHost) => Promise<R>,
): Promise<{ results: Partial<Record<EngineName, R>>; errors: Errors }> {
  const results: Partial<Record<EngineName, R>> = {};
  const errors: Errors = { ...task.unavailable };
  await Promise.all(
    task.engines.map(async (engine) => {
      const host = ctx.hosts.get(engine);
      if (!host) {
        errors[engine] = ENGINE_NOT_LAUNCHED;
        return;
      }
      try {
        results[engine] = await each(engine, host);
      } catch (error) {
        errors[engine] = errorWireText(error);
      }
    }),
  );
  return { results, errors };
}

/** An answer's `errors`: left out when there are none, as the contract says. */
export const errorsField = (errors: Errors): Errors | undefined => (Object.keys(errors).length ? errors : undefined);

/** `values` with each engine's value mapped. */
export function perEngine<A, B>(
  values: Partial<Record<EngineName, A>>,
  map: (value: A, engine: EngineName) => B,
): Partial<Record<EngineName, B>> {
  const out: Partial<Record<EngineName, B>> = {};
  for (const [engine, value] of Object.entries(values) as [EngineName, A][]) out[engine] = map(value, engine);
  return out;
}
