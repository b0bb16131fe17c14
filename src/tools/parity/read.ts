// The two journals `wpt-parity` compares, read whole and read-only before anything is judged: who
// recorded each (its runs' engines, builds and fonts), and per case id what each engine made of it —
// its authored assertions (the layout route) or its harness's statuses (the trace route), or the
// error it answered.
//
// A journal may hold one id more than once (a corpus changed between two runs into one journal):
// the case recorded last stands for the id, as the file's latest state.
import type { AuthoredFailure } from '../../comparator/authored.js';
import { CampaignError } from '../../campaign/campaign-error.js';
import { journalFault } from '../../campaign/journal/journal-schema.js';
import { Journal, type CaseRecord } from '../../campaign/journal/journal.js';
import { harnessRecords } from '../../campaign/results/wptreport.js';
import { ENGINE_NAMES, type EngineName } from '../../protocol/schema.js';

/** What an oracle ran with, as a journal's runs record it: every engine, build and font set of any run. */
export interface ParityConfig {
  engines: string[];
  versions: Record<string, string[]>;
  fonts: string[];
}

/** One engine's part in a case. */
export type EngineSide =
  | { kind: 'error'; error: string }
  | { kind: 'authored'; pass: number; fail: number; failures: AuthoredFailure[] }
  | { kind: 'harness'; status: string; subtests: { name: string; status: string }[] };

/** A case as the comparison needs it. */
export interface ParityCase {
  id: string;
  /** Refused by the oracle (an invalid corpus item): its error. */
  invalid: string | null;
  /** The request as the corpus gave it, parsed; null for an invalid item. */
  request: Record<string, unknown> | null;
  /** Each engine that answered; an engine that answered without what this route records is missing. */
  engines: Partial<Record<EngineName, EngineSide>>;
}

export interface ParityJournal {
  path: string;
  config: ParityConfig;
  /** The layout route's check-layout cases (vote or geometry with `authored`), or the trace route's traces, by id. */
  cases: Map<string, ParityCase>;
}

export type Route = 'layout' | 'harness';

/** The journal at `path` as `route` recorded it (named in messages as given); a file that is no journal throws CampaignError. */
export function readParityJournal(path: string, route: Route): ParityJournal {
  const journal = Journal.open(path, { readonly: true, label: path });
  try {
    const latest = new Map<string, string>();
    for (const row of journal.rows().cases(undefined)) latest.set(row.id, row.hash);
    const cases = new Map<string, ParityCase>();
    for (const [id, hash] of latest) {
      const record = journal.casesWithId(id).find((c) => c.hash === hash)!;
      const read = route === 'layout' ? layoutCase(journal, record) : harnessCase(record);
      if (read) cases.set(id, read);
    }
    return { path, config: configOf(journal, path), cases };
  } catch (e) {
    throw journalFault(e, path);
  } finally {
    journal.close();
  }
}

function configOf(journal: Journal, path: string): ParityConfig {
  const runs = journal.runs();
  if (runs.length === 0) throw new CampaignError(`${path}: no run recorded (an empty journal)`);
  const engines = [...new Set(runs.flatMap((r) => Object.keys(r.versions)))].sort();
  return {
    engines: [...new Set(runs.flatMap((r) => r.engines))].sort(),
    versions: Object.fromEntries(engines.map((e) => [e, [...new Set(runs.map((r) => r.versions[e as EngineName] ?? 'none'))].sort()])),
    fonts: [...new Set(runs.map((r) => r.fonts ?? 'unsaid'))].sort(),
  };
}

const parsed = (record: CaseRecord): Record<string, unknown> | null => {
  if (record.invalid !== null) return null;
  try {
    return JSON.parse(record.request) as Record<string, unknown>;
  } catch {
    return null;
  }
};

const errors = (record: CaseRecord) =>
  new Map(record.outcomes.filter((o) => o.error !== null).map((o) => [o.engine, { kind: 'error', error: o.error! } as const]));

/** A check-layout case of the layout route: a request asking for `authored`; null for any other case. */
function layoutCase(journal: Journal, record: CaseRecord): ParityCase | null {
  const request = parsed(record);
  if (record.invalid === null && (request === null || typeof request.authored !== 'object')) return null;
  const engines: ParityCase['engines'] = Object.fromEntries(errors(record));
  for (const row of journal.authored(record)) {
    if (!(ENGINE_NAMES as readonly string[]).includes(row.subject) || engines[row.subject as EngineName]) continue;
    const failures = JSON.parse(row.failures) as AuthoredFailure[];
    engines[row.subject as EngineName] = { kind: 'authored', pass: row.pass, fail: row.fail, failures };
  }
  return { id: record.id, invalid: record.invalid, request, engines };
}

/** A trace of the trace route; null for any other case. A trace without the harness's record (it never completed) has status `none`. */
function harnessCase(record: CaseRecord): ParityCase | null {
  if (record.invalid === null && record.op !== 'trace') return null;
  const engines: ParityCase['engines'] = Object.fromEntries(errors(record));
  for (const o of record.outcomes) {
    if (o.error !== null || o.result === null) continue;
    const harness = harnessRecords(o.result);
    engines[o.engine] = {
      kind: 'harness',
      status: harness?.status ?? 'none',
      subtests: (harness?.subtests ?? []).map((s) => ({ name: s.name, status: s.status })),
    };
  }
  return { id: record.id, invalid: record.invalid, request: parsed(record), engines };
}
