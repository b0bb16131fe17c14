// The geometry vote over the engines of one response: every pair of usable engines is
// compared, and the pairs that pass are clustered. The result, as JSON:
//
//   verdict   "unanimous" | "outlier" | "split" | "insufficient" (fewer than 3 usable engines;
//             never a pass)
//   outlier   the engine outside the majority (verdict "outlier" only), else null
//   majority  the agreeing engines, sorted ([] for split and insufficient)
//   engines   {chromium|firefox|webkit: {status}}, status "usable", "discarded" (overflowed),
//             "error" (with `error`, the oracle's message) or "absent" (not in the response)
//   pairs     {"chromium~firefox": {verdict, summary, divergence?}, ...}: each pair of usable
//             engines, names in alphabetical order; fields as in compare.ts
//   nodes     [{index, tag, parent, outlier, kinds, styles}] in node order, for every node whose
//             geometry fails in some pair: parent is its parent's index (-1 for the root),
//             outlier the engine the other two agree against at that node (else null), kinds
//             the failure kinds seen there in any pair, and styles the STYLE_PROPERTIES (in
//             contract order) whose computed values differ there in any pair. A node whose only
//             difference is a style is not listed: styles never change a verdict. Two px
//             lengths within TOLERANCE count as equal in `styles` (Gecko's 1/60 px layout unit
//             shows as "100.3px" where Blink and WebKit, at 1/64 px, say "100.297px"), unlike
//             compare's exact style_mismatches, so a rounding artifact does not name a property.
//
// Engines are visited in one fixed order whatever the response's key order, and pair keys
// are canonical, so the result is invariant under permutation of the engines.
import { ENGINE_NAMES, STYLE_PROPERTIES, type Dump, type EngineName } from '../protocol/schema.js';
import { columnarFromDump, InvalidDumpError, type ColumnarDump } from './columnar.js';
import { compare, FAILURE_KINDS, TOLERANCE, type CompareResult, type FailureKind } from './compare.js';
import { cluster, type ClusterVerdict } from './cluster.js';

export type EngineStatus =
  | { status: 'usable' | 'discarded' | 'absent' }
  | { status: 'error'; error: string };

export type PairResult = Omit<CompareResult, 'failures' | 'style_mismatches'>;

export type StyleProperty = (typeof STYLE_PROPERTIES)[number];

export interface NodeVote {
  index: number;
  tag: string;
  parent: number;
  outlier: EngineName | null;
  kinds: FailureKind[];
  styles: StyleProperty[];
}

export interface VoteResult {
  verdict: ClusterVerdict;
  outlier: EngineName | null;
  majority: EngineName[];
  engines: Record<EngineName, EngineStatus>;
  pairs: Record<string, PairResult>;
  nodes: NodeVote[];
}

/** One response's dumps and errors, per engine; D is the wire dump or its columnar form. */
export interface EngineDumps<D> {
  dumps: Partial<Record<EngineName, D>>;
  errors?: Partial<Record<EngineName, string>>;
}

/** Converts every dump of a response; an InvalidDumpError names the engine whose dump is bad. */
export function columnarResponse(response: EngineDumps<Dump>): EngineDumps<ColumnarDump> {
  const dumps: Partial<Record<EngineName, ColumnarDump>> = {};
  for (const e of ENGINE_NAMES) {
    const dump = response.dumps[e];
    try {
      if (dump) dumps[e] = columnarFromDump(dump);
    } catch (error) {
      throw error instanceof InvalidDumpError ? new InvalidDumpError(`${e}: ${error.message}`) : error;
    }
  }
  return { dumps, errors: response.errors };
}

/** The vote on an oracle response as it arrives on the wire. */
export function voteGeometry(response: EngineDumps<Dump>): VoteResult {
  return voteColumnar(columnarResponse(response));
}

export function voteColumnar(response: EngineDumps<ColumnarDump>): VoteResult {
  const engines = Object.fromEntries(ENGINE_NAMES.map((e) => [e, statusOf(e, response)])) as Record<EngineName, EngineStatus>;
  const usable = ENGINE_NAMES.filter((e) => engines[e].status === 'usable');
  const results = new Map<string, Compared>();
  for (let i = 0; i < usable.length; i++) {
    for (let j = i + 1; j < usable.length; j++) {
      const a = response.dumps[usable[i]!]!;
      results.set(pairKey(usable[i]!, usable[j]!), { a, result: compare(a, response.dumps[usable[j]!]!) });
    }
  }
  const { verdict, outlier, majority } = cluster(usable, (x, y) => results.get(pairKey(x, y))!.result.verdict === 'pass');
  const pairs: Record<string, PairResult> = {};
  for (const [key, { result: { verdict, summary, divergence } }] of results) {
    pairs[key] = divergence ? { verdict, summary, divergence } : { verdict, summary };
  }
  return { verdict, outlier, majority, engines, pairs, nodes: nodeVotes(usable, results) };
}

function statusOf(engine: EngineName, response: EngineDumps<ColumnarDump>): EngineStatus {
  const error = response.errors?.[engine];
  if (error !== undefined) return { status: 'error', error };
  const dump = response.dumps[engine];
  return { status: dump === undefined ? 'absent' : dump.overflowed ? 'discarded' : 'usable' };
}

export const pairKey = (x: EngineName, y: EngineName) => (x < y ? `${x}~${y}` : `${y}~${x}`);

/** A pair's comparison, with its first dump: a pair that has failures shares its shape, so it names the tags. */
interface Compared {
  a: ColumnarDump;
  result: CompareResult;
}

/** Re-votes every node that fails somewhere, with "agree" meaning "no failure at this node". */
function nodeVotes(usable: EngineName[], results: Map<string, Compared>): NodeVote[] {
  const failing = new Map<number, { tag: string; parent: number; pairs: Set<string>; kinds: Set<FailureKind>; styles: Set<StyleProperty> }>();
  for (const [key, { a, result }] of results) {
    for (const { index, kind } of result.failures) {
      let node = failing.get(index);
      if (!node) {
        node = { tag: a.tagTable.name(a.tags[index]!), parent: a.parents[index]!, pairs: new Set(), kinds: new Set(), styles: new Set() };
        failing.set(index, node);
      }
      node.pairs.add(key);
      node.kinds.add(kind);
    }
  }
  for (const { result } of results.values()) {
    for (const { index, property, a, b } of result.style_mismatches) {
      if (!sameLength(a, b)) failing.get(index)?.styles.add(property);
    }
  }
  return [...failing.keys()]
    .sort((x, y) => x - y)
    .map((index) => {
      const { tag, parent, pairs, kinds, styles } = failing.get(index)!;
      // A pair whose documents diverged has no node-by-node correspondence: it agrees nowhere.
      const agreeHere = (x: EngineName, y: EngineName) => {
        const key = pairKey(x, y);
        return results.get(key)!.result.verdict !== 'parse_divergence' && !pairs.has(key);
      };
      return {
        index,
        tag,
        parent,
        outlier: cluster(usable, agreeHere).outlier,
        kinds: FAILURE_KINDS.filter((k) => kinds.has(k)),
        styles: STYLE_PROPERTIES.filter((p) => styles.has(p)),
      };
    });
}

const PX = /^-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?px$/i;

/** Two computed px lengths within TOLERANCE of each other (the engines' layout units differ). */
function sameLength(a: string, b: string): boolean {
  return PX.test(a) && PX.test(b) && Math.abs(parseFloat(a) - parseFloat(b)) <= TOLERANCE;
}
