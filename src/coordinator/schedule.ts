// The part every case request shares: resolve its engines, publish its document on the case
// server, schedule the worker task under the in-flight bound, and release the document.
import type PQueue from 'p-queue';
import { ENGINE_NAMES, type EngineName } from '../protocol/schema.js';
import { ENGINE_NOT_LAUNCHED, errorWireText } from '../protocol/errors.js';
import type { CaseTask, WorkerTask } from '../workers/tasks.js';
import type { CaseServer } from './case-server.js';
import type { EngineFarm } from './engine-farm.js';

export interface CaseContext {
  farm: EngineFarm;
  cases: CaseServer;
  queue: PQueue;
  timeoutMs: number;
}

export interface CaseRequest {
  html?: string;
  script?: string;
  engines?: EngineName[];
}

export type Errors = Partial<Record<EngineName, string>>;

/**
 * Runs `task` (its op-specific part) for `request` on the engines it names that are running.
 * Resolves with the worker's result — undefined when no named engine is running — and with an
 * error per engine that could not be attempted.
 */
export async function scheduleCase<R extends { errors: Errors }>(
  ctx: CaseContext,
  request: CaseRequest,
  task: DistributiveOmit<WorkerTask, keyof CaseTask>,
  /** How the case's document is served; trace pages have their own route. */
  publish: (html: string) => { url: string; release: () => void } = (html) => ctx.cases.publish(html),
): Promise<{ result: R | undefined; errors: Errors }> {
  const errors: Errors = {};
  const launched = ctx.farm.engines;
  const engines = (request.engines ?? launched).filter((e) => {
    if (launched.includes(e)) return true;
    errors[e] = ENGINE_NOT_LAUNCHED;
    return false;
  });
  if (!engines.length) return { result: undefined, errors };
  const html = request.html ?? '';
  const page = publish(html);
  try {
    const full = {
      ...task,
      engines,
      unavailable: errors,
      url: page.url,
      blankUrl: ctx.cases.blankUrl,
      html,
      script: request.script ?? null,
      timeoutMs: ctx.timeoutMs,
    } as WorkerTask;
    const result = (await ctx.queue.add(() => ctx.farm.run<R>(full))) as R;
    return { result, errors: { ...errors, ...result.errors } };
  } catch (error) {
    for (const e of engines) errors[e] = errorWireText(error);
    return { result: undefined, errors };
  } finally {
    page.release();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const json = JSON.stringify;

/** `{"a":…,"b":…}` over the engines present in `values`, in the fixed engine order. */
export function perEngineJson<T>(values: Partial<Record<EngineName, T>>, encode: (value: T) => string = json): string {
  return `{${ENGINE_NAMES.filter((e) => values[e] !== undefined).map((e) => `${json(e)}:${encode(values[e]!)}`).join(',')}}`;
}

/** `,"errors":{…}`, or nothing when there are none (the contract omits an empty errors). */
export function errorsJson(errors: Errors): string {
  return Object.keys(errors).length ? `,"errors":${perEngineJson(errors)}` : '';
}
