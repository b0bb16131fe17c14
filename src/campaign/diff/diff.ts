// Two journals compared case by case (`browser-oracle diff`, docs/results.md): which cases changed
// between a base run and a head run, and how. Pure functions of the rows read from each journal
// (read.ts), so that the pairing and the classification are tested without SQLite.
//
// Pairing. Cases are paired by id. A corpus may hold two cases with one id (a journal keys a
// case by id and content hash), so within one id the cases of the same content (hash) are paired
// first, in recording order, then the rest in recording order; a case left over is `added` (head
// only) or `removed` (base only). Two cases with one id are never merged into one.
//
// Classification, of a pair:
//   newly_failing  the candidate's verdict went from pass to fail or parse_divergence
//   newly_passing  the reverse
//   changed        anything else that differs: the vote's verdict or outlier, its bucket
//                  signature, the candidate's verdict or signature (a candidate answer that is
//                  in one journal only counts)
// A pair where none of these differs is unchanged and not listed.
import type { CandidateVerdict } from '../../comparator/candidate.js';
import { ENGINE_NAMES, type EngineName } from '../../protocol/schema.js';
import type { ClusterVerdict } from '../../protocol/vote-schema.js';

const CHANGES = ['newly_failing', 'newly_passing', 'added', 'removed', 'changed'] as const;
export type Change = (typeof CHANGES)[number];

/** One side of a listed case: what its journal recorded. */
export interface DiffSide {
  hash: string;
  /** The vote's verdict; null for an invalid corpus item. */
  vote: ClusterVerdict | null;
  outlier: EngineName | null;
  signature: string | null;
  /** The journal's candidate's outcome (the latest candidate of that journal); null when it did not answer. */
  candidate: { verdict: CandidateVerdict; signature: string | null } | null;
}

/** A case as read from a journal: its side, and what pairing and the builds need. */
export interface DiffRow extends DiffSide {
  id: string;
  /** The build of each engine that answered it. */
  builds: Partial<Record<EngineName, string>>;
}

export interface DiffCase {
  id: string;
  change: Change;
  base: DiffSide | null;
  head: DiffSide | null;
  /** When the vote flipped between journals recorded with different browser builds: each engine whose build differs. */
  builds?: Partial<Record<EngineName, { base: string; head: string }>>;
}

/** Who recorded a journal: each engine's builds, and the candidate the diff reads. */
export interface JournalSide {
  journal: string;
  engines: Partial<Record<EngineName, string[]>>;
  candidate: { name: string; version: string } | null;
  cases: number;
}

type DiffCounts = Record<Change | 'unchanged', number>;

export interface DiffResult {
  base: JournalSide;
  head: JournalSide;
  cases: DiffCase[];
  counts: DiffCounts;
}

const FAILING: ReadonlySet<CandidateVerdict> = new Set(['fail', 'parse_divergence']);

/** How a pair (or a case one journal lacks) changed; null when it did not. */
export function classify(base: DiffSide | null, head: DiffSide | null): Change | null {
  if (!base) return head ? 'added' : null;
  if (!head) return 'removed';
  const was = base.candidate?.verdict;
  const is = head.candidate?.verdict;
  if (was === 'pass' && is !== undefined && FAILING.has(is)) return 'newly_failing';
  if (is === 'pass' && was !== undefined && FAILING.has(was)) return 'newly_passing';
  const differs =
    base.vote !== head.vote ||
    base.outlier !== head.outlier ||
    base.signature !== head.signature ||
    was !== is ||
    base.candidate?.signature !== head.candidate?.signature;
  return differs ? 'changed' : null;
}

/** The cases of two journals paired (see the top of this file): pairs in each id's order, ids in code-unit order. */
export function pairCases<T extends { id: string; hash: string }>(base: Iterable<T>, head: Iterable<T>): [T | null, T | null][] {
  const byId = new Map<string, { base: T[]; head: T[] }>();
  const group = (id: string) => byId.get(id) ?? byId.set(id, { base: [], head: [] }).get(id)!;
  for (const row of base) group(row.id).base.push(row);
  for (const row of head) group(row.id).head.push(row);
  const ids = [...byId.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const pairs: [T | null, T | null][] = [];
  for (const id of ids) {
    const g = byId.get(id)!;
    const heads: (T | null)[] = [...g.head];
    const unpaired: T[] = [];
    for (const b of g.base) {
      const same = heads.findIndex((h) => h?.hash === b.hash);
      if (same < 0) unpaired.push(b);
      else {
        pairs.push([b, heads[same]!]);
        heads[same] = null;
      }
    }
    const rest = heads.filter((h): h is T => h !== null);
    for (let i = 0; i < Math.max(unpaired.length, rest.length); i++) pairs.push([unpaired[i] ?? null, rest[i] ?? null]);
  }
  return pairs;
}

/** The diff of two journals' rows. */
export function diffRows(base: JournalSide, baseRows: Iterable<DiffRow>, head: JournalSide, headRows: Iterable<DiffRow>): DiffResult {
  const counts = Object.fromEntries([...CHANGES, 'unchanged'].map((c) => [c, 0])) as DiffCounts;
  const cases: DiffCase[] = [];
  for (const [b, h] of pairCases(baseRows, headRows)) {
    const change = classify(b && side(b), h && side(h));
    if (change === null) {
      counts.unchanged++;
      continue;
    }
    counts[change]++;
    const listed: DiffCase = { id: (b ?? h)!.id, change, base: b && side(b), head: h && side(h) };
    const builds = b && h && (b.vote !== h.vote || b.outlier !== h.outlier) ? buildChanges(b.builds, h.builds) : undefined;
    if (builds) listed.builds = builds;
    cases.push(listed);
  }
  return { base, head, cases, counts };
}

/** The side of a row, without what only pairing needed. */
const side = (row: DiffRow): DiffSide => ({
  hash: row.hash,
  vote: row.vote,
  outlier: row.outlier,
  signature: row.signature,
  candidate: row.candidate && { verdict: row.candidate.verdict, signature: row.candidate.signature },
});

/** Each engine whose build differs between the two sides (both known); undefined when none does. */
function buildChanges(
  base: Partial<Record<EngineName, string>>,
  head: Partial<Record<EngineName, string>>,
): DiffCase['builds'] | undefined {
  const changed = ENGINE_NAMES.filter((e) => base[e] !== undefined && head[e] !== undefined && base[e] !== head[e]);
  return changed.length ? Object.fromEntries(changed.map((e) => [e, { base: base[e]!, head: head[e]! }])) : undefined;
}

/** Whether the diff holds what `--fail-on` names. */
export function failsOn(result: DiffResult, on: 'new-failures' | 'changes'): boolean {
  return on === 'new-failures' ? result.counts.newly_failing > 0 : result.cases.length > 0;
}
