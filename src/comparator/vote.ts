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
//             shows in computed lengths too: 100.297px against 100.3px)
//
// The skeleton (statuses, pairs, clustering, node re-vote) is three-way.ts; the result's schema
// is src/protocol/vote-schema.ts.
import { ENGINE_NAMES, type EngineName } from '../protocol/common.js';
import type { Dump } from '../protocol/schema.js';
import { STYLE_PROPERTIES } from '../protocol/schema.js';
import { FAILURE_KINDS, type PairResult, type StyleProperty, type VoteResult } from '../protocol/vote-schema.js';
import { columnarFromDump, InvalidDumpError, type ColumnarDump } from './columnar.js';
import { compare, discarded, sameLength, type CompareResult } from './compare.js';
import { threeWay, voteItems } from './three-way.js';

/** One response's dumps and errors, per engine; D is the wire dump or its columnar form. */
export interface EngineDumps<D> {
  dumps: Partial<Record<EngineName, D>>;
  errors?: Partial<Record<EngineName, string>>;
  /** The room each engine's viewport scrollbars took, where the answer says (a `site` case's). */
  scrollbars?: Partial<Record<EngineName, { x: number; y: number }>>;
}

/** Converts every dump of a response; an InvalidDumpError names the engine whose dump is bad. */
export function columnarResponse(response: EngineDumps<Dump>): EngineDumps<ColumnarDump> {
  const dumps: Partial<Record<EngineName, ColumnarDump>> = {};
  for (const e of ENGINE_NAMES) {
    const dump = response.dumps[e];
    try {
      if (dump) dumps[e] = columnarFromDump(dump, response.scrollbars?.[e]);
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
  const { dumps } = response;
  const vote = threeWay<CompareResult>(
    (e) => (dumps[e] === undefined ? undefined : discarded(dumps[e]) ? 'discarded' : 'usable'),
    response.errors,
    (x, y) => compare(dumps[x]!, dumps[y]!),
    (result) => result.verdict === 'pass',
  );
  const pairs: VoteResult['pairs'] = {};
  for (const [key, { verdict, summary, divergence }] of vote.pairs) {
    pairs[key] = (divergence ? { verdict, summary, divergence } : { verdict, summary }) satisfies PairResult;
  }
  const nodes = voteItems(
    vote,
    (result) => result.failures.map((f) => ({ at: f.index, kind: f.kind })),
    (result) => result.verdict !== 'parse_divergence',
    FAILURE_KINDS,
  ).map(({ at, outlier, kinds, firstPair }) => {
    // Pairs that fail node by node share one shape, so any of their dumps names the tag.
    const dump = dumps[firstPair.split('~')[0] as EngineName]!;
    const styles = new Set<StyleProperty>();
    for (const result of vote.pairs.values()) {
      for (const m of result.style_mismatches) if (m.index === at && !sameLength(m.a, m.b)) styles.add(m.property);
    }
    return {
      index: at,
      tag: dump.tagTable.name(dump.tags[at]!),
      parent: dump.parents[at]!,
      outlier,
      kinds,
      styles: STYLE_PROPERTIES.filter((p) => styles.has(p)),
    };
  });
  const { verdict, outlier, majority, engines } = vote;
  return { verdict, outlier, majority, engines, pairs, nodes };
}
