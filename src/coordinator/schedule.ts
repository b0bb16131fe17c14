// The part every case request shares: resolve its engines, publish its documents on the case
// server (one per engine), run the worker task, and release the documents.
import { ENGINE_NAMES, type EngineName } from '../protocol/schema.js';
import { ENGINE_NOT_LAUNCHED, errorWireText } from '../protocol/errors.js';
import type { CaseTask, WorkerTask } from '../farm/tasks.js';
import type { DocumentKind } from './case-documents.js';
import type { CaseServer, TracePage } from './case-server.js';
import type { EngineFarm } from './engine-farm.js';

export interface CaseContext {
  farm: EngineFarm;
  cases: CaseServer;
}

export interface CaseRequest {
  id: string;
  html?: string;
  script?: string;
  engines?: EngineName[];
}

export type Errors = Partial<Record<EngineName, string>>;

/**
 * Runs `task` (its op-specific part) for `request` on the engines it names that are running, with
 * its documents served as `kind` (a trace's with its `page` options). Resolves with the worker's
 * result — undefined when no named engine is running — and with an error per engine that could
 * not be attempted.
 */
export async function scheduleCase<R extends { errors: Errors }>(
  ctx: CaseContext,
  request: CaseRequest,
  kind: DocumentKind,
  task: DistributiveOmit<WorkerTask, keyof CaseTask>,
  page?: TracePage,
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
  const published = ctx.cases.publish(request.id, kind, html, engines, ctx.farm.guarded, page);
  try {
    const full = {
      ...task,
      engines,
      unavailable: errors,
      documents: published.documents,
      blankUrl: ctx.cases.blankUrl,
      html,
      script: request.script ?? null,
    } as WorkerTask;
    const result = await ctx.farm.run<R>(full);
    return { result, errors: { ...errors, ...result.errors } };
  } catch (error) {
    for (const e of engines) errors[e] = errorWireText(error);
    return { result: undefined, errors };
  } finally {
    published.release();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The engines present in `values`, in the fixed engine order the answers use. */
export function inEngineOrder<T>(values: Partial<Record<EngineName, T>>): Partial<Record<EngineName, T>> {
  const ordered: Partial<Record<EngineName, T>> = {};
  for (const e of ENGINE_NAMES) if (values[e] !== undefined) ordered[e] = values[e];
  return ordered;
}

/** An answer's `errors`: left out when there are none, as the contract says. */
export function errorsField(errors: Errors): Errors | undefined {
  return Object.keys(errors).length ? inEngineOrder(errors) : undefined;
}
