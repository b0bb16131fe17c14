// Small journals written through the Journal's own API, for the tests of what reads whole journals
// (diff, summary's result files, export): each case given by its id, vote and candidate verdict.
import { Journal, type CaseRecord, type EngineOutcome } from '../../../src/campaign/journal/journal.js';
import type { CandidateRecord } from '../../../src/campaign/loop/candidate-record.js';
import type { CandidateVerdict } from '../../../src/comparator/candidate.js';
import type { CorpusOp } from '../../../src/protocol/ops.js';
import { ENGINE_NAMES, type EngineName } from '../../../src/protocol/schema.js';
import type { ClusterVerdict } from '../../../src/protocol/vote-schema.js';

export interface Recorded {
  id: string;
  /** The content hash; the id unless given. */
  hash?: string;
  /** Unanimous unless given; null: an invalid item. */
  verdict?: ClusterVerdict | null;
  outlier?: EngineName;
  expected?: string;
  op?: CorpusOp;
  request?: string;
  vote?: string;
  /** Each engine's result JSON (its error when it starts with a code and a colon). */
  results?: Partial<Record<EngineName, string>>;
  candidate?: CandidateVerdict;
  elapsedMs?: number;
}

const BUILDS: Record<EngineName, string> = { chromium: '140', firefox: '128', webkit: '2.48' };

/** The signature a vote gets here: a fixed one per verdict and outlier. */
export const signatureOf = (r: Recorded): string | null =>
  r.verdict === null
    ? 'invalid | invalid_json'
    : (r.verdict ?? 'unanimous') === 'unanimous'
      ? null
      : `${r.verdict} ${r.outlier ?? ''} | size | DIV | width`.replace('  ', ' ');

/** Writes a journal of `cases` at `path`, in one run, the candidate `who` answering those that name a verdict; returns `path`. */
export function journalOf(
  path: string,
  cases: Recorded[],
  who = { name: 'mine', version: '1' },
  builds: Partial<Record<EngineName, string>> = {},
): string {
  const journal = Journal.open(path);
  const versions = { ...BUILDS, ...builds };
  journal.startRun({
    command: ['browser-oracle', 'campaign', '--corpus', 'corpus/cases.ndjson'],
    engines: [...ENGINE_NAMES],
    versions,
    fonts: 'liberation',
    candidate: { command: who.name, ...who },
  });
  for (const r of cases) {
    const invalid = r.verdict === null;
    const outcomes: EngineOutcome[] = invalid
      ? []
      : ENGINE_NAMES.map((engine) => {
          const result = r.results?.[engine] ?? '{}';
          const error = /^[a-z_]+: /.test(result) ? result : null;
          return { engine, version: versions[engine], result: error ? null : result, error, ms: null };
        });
    const record: CaseRecord = {
      id: r.id,
      hash: r.hash ?? r.id,
      op: invalid ? null : (r.op ?? 'geometry'),
      request: r.request ?? JSON.stringify({ id: r.id, html: '<p>x</p>' }),
      invalid: invalid ? 'invalid_json: the line is not JSON' : null,
      outcomes,
      verdict: invalid ? null : (r.verdict ?? 'unanimous'),
      outlier: r.outlier ?? null,
      signature: signatureOf(r),
      expected: r.expected ?? null,
      vote: invalid ? null : (r.vote ?? '{}'),
      startedAt: Date.UTC(2026, 0, 1),
      elapsedMs: r.elapsedMs ?? 10,
      attempts: 1,
    };
    if (r.candidate) record.candidate = candidateRecord(who, r.candidate);
    journal.record(record);
  }
  journal.endRun();
  journal.close();
  return path;
}

function candidateRecord(who: { name: string; version: string }, verdict: CandidateVerdict): CandidateRecord {
  return {
    ...who,
    verdict,
    signature: verdict === 'pass' || verdict === 'no_majority' ? null : `candidate ${who.name} | ${verdict}`,
    sidesWithOutlier: false,
    subpixel: false,
    unsupported: verdict === 'unsupported' ? 'order: 2' : null,
    error: verdict === 'error' ? 'candidate_timeout: no answer' : null,
    dump: null,
    roots: null,
    against: {},
    ms: 1,
  };
}
