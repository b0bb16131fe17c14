// Triage's findings as a report shows them (finding-section.ts): each finding's reduced case, with
// what the engines made of it when it was reduced (its vote and dumps, as the journal keeps them)
// and a picture per engine taken now through `shoot`, as a bucket's example is.
import PQueue from 'p-queue';
import type { FindingRecord } from '../campaign/journal/findings.js';
import { findingName } from '../campaign/journal/triage-summary.js';
import { ENGINE_NAMES, type Dump, type EngineName } from '../protocol/schema.js';
import type { VoteResult } from '../protocol/vote-schema.js';
import type { ReportCase, ReportEngine, Shoot } from './input.js';

/** Each finding's reduced case, pictured (`parallel` at a time), by the finding's id, in the findings' order. */
export async function findingExamples(
  findings: readonly FindingRecord[],
  shoot: Shoot,
  parallel: number,
): Promise<Map<string, ReportCase>> {
  const queue = new PQueue({ concurrency: parallel });
  const shown = await Promise.all(findings.map((f) => queue.add(() => findingExample(f, shoot))));
  return new Map(findings.map((f, i) => [findingName(f.id), shown[i]!]));
}

async function findingExample(f: FindingRecord, shoot: Shoot): Promise<ReportCase> {
  const { html, script } = JSON.parse(f.reduced) as { html: string; script?: string };
  const shots = await shoot({ id: `report:${findingName(f.id)}`, op: 'screenshot', html, ...(script === undefined ? {} : { script }) });
  const engines: Partial<Record<EngineName, ReportEngine>> = {};
  for (const engine of ENGINE_NAMES) {
    const o = f.outcomes.find((x) => x.engine === engine);
    const image = shots.images[engine] ?? null;
    if (!o && !image) continue;
    engines[engine] = {
      ...(o?.result ? { dump: JSON.parse(o.result) as Dump } : o?.error ? { error: o.error } : {}),
      screenshot: image,
      ...(shots.errors?.[engine] === undefined ? {} : { screenshotError: shots.errors[engine] }),
    };
  }
  return {
    id: f.caseId,
    op: 'geometry',
    request: f.reduced,
    reduced: null,
    invalid: null,
    vote: f.vote === null ? null : (JSON.parse(f.vote) as VoteResult),
    engines,
  };
}
