// A report's input from a campaign journal: the summary, the runs, and for each bucket its first
// case (reduced when a reduction is stored), with its dumps and errors as recorded and a picture
// per engine taken now through `shoot` (the screenshot op, on a farm the caller runs).
import type { CaseRecord, EngineOutcome, Journal, Reduction } from '../campaign/journal.js';
import { ENGINE_NAMES, type Dump, type EngineName } from '../protocol/schema.js';
import type { ScreenshotRequest } from '../protocol/screenshot-schema.js';
import { OPS } from '../protocol/ops.js';
import type { VoteResult } from '../protocol/vote-schema.js';
import type { ReportCase, ReportEngine, ReportInput } from './input.js';

/** The screenshot op's answer, bytes as bytes. */
export interface Shots {
  images: Partial<Record<EngineName, Uint8Array>>;
  errors?: Partial<Record<EngineName, string>>;
}

/** Takes a case's pictures; the caller decides where (a farm in this process, for the command). */
export type Shoot = (request: ScreenshotRequest) => Promise<Shots>;

/** What the report reads of a journal. */
export type ReportJournal = Pick<Journal, 'summary' | 'runs' | 'firstInBucket' | 'reduction'>;

/** A case judged by the geometry vote is a layout: its pictures are taken. Other cases are not layouts, and an invalid item never ran. */
const isLayout = (op: CaseRecord['op']) => op !== null && OPS[op].vote === 'geometry';

/** The report's input; the buckets' pictures are taken `parallel` at a time. */
export async function reportInput(journal: ReportJournal, shoot: Shoot, generatedAt: string, parallel = 4): Promise<ReportInput> {
  const summary = journal.summary();
  const examples = new Map<string, ReportCase>();
  const buckets = [...summary.buckets];
  const next = async () => {
    for (let bucket = buckets.shift(); bucket; bucket = buckets.shift()) {
      const recorded = journal.firstInBucket(bucket.signature);
      if (recorded) examples.set(bucket.signature, await exampleOf(recorded, journal.reduction(recorded) ?? null, shoot));
    }
  };
  await Promise.all(Array.from({ length: parallel }, next));
  return { summary, runs: journal.runs(), examples, generatedAt };
}

/** A bucket's example as the report shows it: the reduced case when there is one. */
async function exampleOf(c: CaseRecord, reduction: Reduction | null, shoot: Shoot): Promise<ReportCase> {
  const shown = reduction ?? c;
  const geometry = isLayout(c.op);
  const base = {
    id: c.id,
    op: c.op,
    request: c.request,
    reduced: reduction && { request: reduction.request, signature: reduction.signature },
    invalid: c.invalid,
    vote: geometry && shown.vote !== null ? (JSON.parse(shown.vote) as VoteResult) : null,
  };
  if (c.op === null) return { ...base, engines: {} };
  const shots = geometry ? await shoot(screenshotRequest(c.id, shown.request)) : null;
  const engines: Partial<Record<EngineName, ReportEngine>> = {};
  for (const engine of ENGINE_NAMES) {
    const outcome = shown.outcomes.find((o) => o.engine === engine);
    const image = shots?.images[engine] ?? null;
    const error = shots ? shots.errors?.[engine] : `no screenshot: a ${c.op} case is not pictured`;
    if (!outcome && !image && !error) continue;
    engines[engine] = { ...outcomeOf(outcome, geometry), screenshot: image, ...(error === undefined ? {} : { screenshotError: error }) };
  }
  return { ...base, engines };
}

/** An engine's recorded result: its dump (geometry cases), or its error. */
function outcomeOf(o: EngineOutcome | undefined, geometry: boolean): Pick<ReportEngine, 'dump' | 'error'> {
  if (!o) return {};
  if (o.error !== null) return { error: o.error };
  return geometry && o.result !== null ? { dump: JSON.parse(o.result) as Dump } : {};
}

/** The screenshot op's request for a recorded geometry or vote request (its html, script and engines). */
function screenshotRequest(id: string, text: string): ScreenshotRequest {
  const { html, script, engines } = JSON.parse(text) as { html: string; script?: string; engines?: EngineName[] };
  return { id: `report:${id}`, op: 'screenshot', html, ...(script === undefined ? {} : { script }), ...(engines ? { engines } : {}) };
}
