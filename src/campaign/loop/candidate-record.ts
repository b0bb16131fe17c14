// An engine under test's part in a recorded case: what it made of the case (through the DumpSource
// seam, src/candidate-client), judged against the engines' dumps as the journal holds them
// (src/comparator/candidate.ts), with the finding's bucket signature. The same function judges a
// case the engines answer now and one recorded before the candidate was asked, so a campaign
// resumed with a candidate judges its old cases exactly as a fresh one would.
import { judgeAuthoredCandidate } from '../../comparator/authored-candidate.js';
import {
  judgeCandidate,
  type CandidateOutcome,
  type CandidateResult,
  type CandidateVerdict,
  type EnginesVote,
} from '../../comparator/candidate.js';
import type { AuthoredReading } from '../../protocol/authored-schema.js';
import { readingsOf, type AuthoredRecord } from './authored-record.js';
import { candidateSelfSignature, candidateSignature } from '../../comparator/candidate-signature.js';
import { CANDIDATE_SCROLLBARS, columnarFromDump, columnarFromPacked, type ColumnarDump } from '../../comparator/columnar.js';
import { voteColumnar, type EngineDumps } from '../../comparator/vote.js';
import type { CandidateCase } from '../../protocol/candidate-schema.js';
import type { CompareVerdict, VoteResult } from '../../protocol/vote-schema.js';
import type { Dump, EngineName } from '../../protocol/schema.js';
import type { EngineColumns } from '../../protocol/walk-columns.js';
import { judgedOutcome, type SourceOutcome } from '../../candidate-client/source.js';
import { OPS } from '../../protocol/ops.js';
import { opOf, type CaseRequest } from '../corpus/corpus.js';

/** A dump's JSON: as text, or as its UTF-8 bytes (a candidate's dump as it wrote it); the journal stores either as text. */
export type DumpJson = string | Uint8Array;

const UTF8 = new TextDecoder();

/** A dump's JSON as text. */
export const dumpJsonText = (json: DumpJson): string => (typeof json === 'string' ? json : UTF8.decode(json));

/** The candidate's outcome for one case, as the journal records it. */
export interface CandidateRecord {
  /** The engine name its dumps carry, and its version, from its ping. */
  name: string;
  version: string;
  verdict: CandidateVerdict;
  /** Its bucket signature; null for a pass and when the engines have no majority (no finding). */
  signature: string | null;
  sidesWithOutlier: boolean;
  subpixel: boolean;
  /** What it said it cannot lay out (verdict unsupported). */
  unsupported: string | null;
  /** Its error, code first (verdict error). */
  error: string | null;
  /** Its dump as JSON; null when it gave none. */
  dump: DumpJson | null;
  /** The nodes whose subtrees it laid out, when it said. */
  roots: number[] | null;
  /** With roots: false when it laid each root out alone, away from the page (docs/candidate.md, "Roots"). */
  placed?: false;
  /** The candidate against each engine that had a dump: the comparison's verdict. */
  against: Partial<Record<EngineName, CompareVerdict>>;
  /** From sending the case to its answer (null when the source did not say). */
  ms: number | null;
  /** On a check-layout page: its authored assertions, and what it was judged on. */
  authored?: AuthoredRecord;
  /** For a case with mutations answered with a dump: the candidate's layout from scratch, and the candidate held to it. */
  fresh?: FreshRecord;
}

/** A candidate's layout from scratch of a mutated case, judged (src/comparator/candidate.ts, `fresh`). */
export interface FreshRecord {
  /** Its fresh dump against the majority. */
  verdict: CandidateVerdict;
  /** Its incremental dump against its fresh one, with no browser. */
  self: 'agrees' | 'differs';
  /** The self-disagreement's bucket signature; null when it agrees. */
  signature: string | null;
  /** The fresh dump, JSON. */
  dump: string;
}

/** Who the candidate is. */
export interface CandidateIdentity {
  name: string;
  version: string;
}

/** The cases a candidate is asked: those of an op the geometry vote judges (src/protocol/ops.ts); trace and reflect cases are not layouts. */
export const isLayoutCase = (request: CaseRequest): request is Extract<CaseRequest, { html: string }> =>
  OPS[opOf(request)].vote === 'geometry';

/** What a candidate is sent for a layout case: its id, html, script or mutations, its site's files, and a check-layout page's scope. */
export function candidateCase(request: Extract<CaseRequest, { html: string }>): CandidateCase {
  const { id, html, script } = request;
  const mutations = 'mutations' in request ? request.mutations : undefined;
  const site = 'site' in request ? request.site : undefined;
  const authored =
    'authored' in request && request.authored ? { authored: request.authored.scope ? { scope: request.authored.scope } : {} } : {};
  return {
    id,
    html,
    ...(script === undefined ? {} : { script }),
    ...(mutations === undefined ? {} : { mutations }),
    ...(site === undefined ? {} : { site }),
    ...authored,
  };
}

/** An engine's recorded outcome for a case, as far as judging needs it (the journal's EngineOutcome; named here so the journal's import of this file makes no cycle). */
interface RecordedOutcome {
  engine: EngineName;
  /** Its dump, JSON; null with an error. */
  result: string | null;
  error: string | null;
  /** A check-layout page's reading, JSON (src/protocol/authored-schema.ts). */
  authored?: string | null;
  /** A site case: the room its viewport scrollbars took, JSON {x, y}. */
  scrollbars?: string | null;
}

/**
 * The engines' part of a case, from its recorded outcomes: each dump in columnar form, or its
 * error. A dump is taken from its walk's columns when they came with the answer (the same
 * geometry: the dump is their JSON at full precision; the styles, which the judge does not
 * compare, stay in the worker), and parsed from its JSON only without them.
 */
function recordedResponse(outcomes: readonly RecordedOutcome[], columns?: EngineColumns): EngineDumps<ColumnarDump> {
  const dumps: EngineDumps<ColumnarDump>['dumps'] = {};
  const errors: NonNullable<EngineDumps<ColumnarDump>['errors']> = {};
  for (const o of outcomes) {
    const walk = columns?.[o.engine];
    const scrollbars = o.scrollbars ? (JSON.parse(o.scrollbars) as { x: number; y: number }) : undefined;
    if (o.result !== null)
      dumps[o.engine] = walk ? columnarFromPacked(walk, o.engine) : columnarFromDump(JSON.parse(o.result) as Dump, scrollbars);
    else if (o.error !== null) errors[o.engine] = o.error;
  }
  return { dumps, errors };
}

/** What came with the engines' answer besides their outcomes, each when there is one. */
export interface AnswerParts {
  /** How long the candidate took, from sending the case to its answer. */
  ms?: number | null;
  /** The engines' walks as columns. */
  columns?: EngineColumns;
  /** The engines' vote on those same outcomes, as the worker took it. */
  vote?: EnginesVote;
}

/**
 * The candidate's outcome judged against the engines' outcomes, live or as the journal holds
 * them: on a check-layout page (the engines read its attributes) on what the browsers agree on,
 * with its authored assertions; otherwise by the vote's majority. `vote`: the engines' vote as the
 * worker took it, else taken here of the same dumps.
 */
function judgeOn(judged: CandidateOutcome, outcomes: readonly RecordedOutcome[], { columns, vote }: AnswerParts) {
  const response = recordedResponse(outcomes, columns);
  const readings = readingsOf(outcomes);
  if (!readings || judged.kind !== 'dump') return { result: judgeCandidate(judged, response, vote) };
  const full = vote !== undefined && 'nodes' in vote ? (vote as VoteResult) : voteColumnar(response);
  return authoredJudgement(judged, response, full, readings);
}

/**
 * A candidate's outcome as the judge and the journal take it: its dump in columnar form and as
 * JSON text. Made as soon as the answer arrives, so that the answer's parsed tree (hundreds of
 * small objects) dies young instead of waiting out the engines' part of the case: held that long,
 * it was promoted, then marked by the old generation's collector.
 */
export interface ReceivedOutcome {
  judged: CandidateOutcome;
  /** Its dump's JSON; null when it gave none. */
  dump: DumpJson | null;
  roots: number[] | null;
  placed: boolean;
  /** Its fresh dump's JSON, when it gave one. */
  fresh: string | null;
}

/** A source's outcome, received (see ReceivedOutcome). */
export function received(outcome: SourceOutcome): ReceivedOutcome {
  const dump = outcome.kind === 'dump' ? outcome : undefined;
  return {
    judged: judgedOutcome(outcome),
    dump: dump ? (dump.text ?? JSON.stringify(dump.dump)) : null,
    roots: dump?.roots ?? null,
    placed: dump?.placed !== false,
    fresh: dump?.fresh ? JSON.stringify(dump.fresh) : null,
  };
}

/** Judges the candidate's outcome against the engines' recorded outcomes for the same case. */
export function candidateRecord(
  who: CandidateIdentity,
  outcome: SourceOutcome | ReceivedOutcome,
  outcomes: readonly RecordedOutcome[],
  { ms = null, ...parts }: AnswerParts = {},
): CandidateRecord {
  const answer = 'judged' in outcome ? outcome : received(outcome);
  const { judged } = answer;
  const onAgreed = judgeOn(judged, outcomes, parts);
  const { result } = onAgreed;
  const against: CandidateRecord['against'] = {};
  for (const [engine, compared] of Object.entries(result.compares)) against[engine as EngineName] = compared.verdict;
  return {
    name: who.name,
    version: who.version,
    verdict: result.verdict,
    signature: candidateSignature(who.name, result, judged.kind === 'dump' ? judged.dump : null),
    sidesWithOutlier: result.sides_with_outlier,
    subpixel: result.subpixel,
    unsupported: result.unsupported ?? null,
    error: result.error ?? null,
    dump: answer.dump,
    roots: answer.roots,
    ...(answer.dump !== null && !answer.placed ? { placed: false } : {}),
    against,
    ms,
    ...(result.fresh && judged.kind === 'dump' && answer.fresh !== null
      ? {
          fresh: {
            verdict: result.fresh.verdict,
            self: result.fresh.self,
            signature: candidateSelfSignature(who.name, result.fresh, judged.dump),
            dump: answer.fresh,
          },
        }
      : {}),
    ...('authored' in onAgreed ? { authored: { subject: 'candidate', name: who.name, version: who.version, ...onAgreed.authored } } : {}),
  };
}

/** A candidate's dump on a check-layout page, judged on the nodes the browsers agree on (src/comparator/authored-candidate.ts). */
function authoredJudgement(
  outcome: Extract<CandidateOutcome, { kind: 'dump' }>,
  response: EngineDumps<ColumnarDump>,
  vote: VoteResult,
  readings: Partial<Record<EngineName, AuthoredReading>>,
): { result: CandidateResult; authored: Omit<AuthoredRecord, 'subject' | 'name' | 'version'> } {
  const { dump, roots, placed } = outcome;
  const r = judgeAuthoredCandidate(dump, response.dumps, vote, readings, { ...(roots ? { roots } : {}), placed: placed !== false });
  const { verdict: _, outlier, majority, engines } = vote;
  const result: CandidateResult = {
    verdict: r.verdict,
    vote: vote.verdict,
    outlier,
    majority,
    engines,
    compares: r.compares,
    sides_with_outlier: false,
    subpixel: false,
    ...(r.verdict === 'unsupported' ? { unsupported: 'nothing the browsers agree on inside its roots' } : {}),
  };
  return { result, authored: { ...r.authored, judged: r.judged } };
}

/**
 * A recorded answer with a dump judged again against the engines' recorded outcomes (what a report
 * shows of it), as it was judged when recorded, its fresh layout held to it again when it has one; undefined
 * without a dump.
 */
export function rejudged(
  record: CandidateRecord,
  outcomes: readonly RecordedOutcome[],
): { result: CandidateResult; dump: ColumnarDump } | undefined {
  if (record.dump === null) return undefined;
  const dump = columnarFromDump(JSON.parse(dumpJsonText(record.dump)) as Dump, CANDIDATE_SCROLLBARS);
  const { roots, placed } = record;
  const fresh = record.fresh && columnarFromDump(JSON.parse(record.fresh.dump) as Dump, CANDIDATE_SCROLLBARS);
  const judged = {
    kind: 'dump',
    dump,
    ...(roots ? { roots } : {}),
    ...(placed === false ? { placed } : {}),
    ...(fresh ? { fresh } : {}),
  } as const;
  return { result: judgeOn(judged, outcomes, {}).result, dump };
}
