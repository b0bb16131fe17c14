// The node a report highlights: the one a geometry bucket's signature names (chosen by
// signature.ts's own rule, so the picture and the signature always agree), with what differs
// there: each failing pair's signed deltas, recomputed by the comparator from the dumps (the
// vote keeps only per-pair summaries), and each engine's value of the styles that differ.
import { columnarFromDump, type ColumnarDump } from '../comparator/columnar.js';
import { compare, type Failure } from '../comparator/compare.js';
import { geometryFirst } from '../comparator/signature.js';
import { ENGINE_NAMES, type Dump, type EngineName } from '../protocol/schema.js';
import type { PairKey, StyleProperty, VoteResult } from '../protocol/vote-schema.js';

/** One pair of engines at the failing node: b − a in CSS px, names in the pair key's order. */
interface PairAtNode {
  a: EngineName;
  b: EngineName;
  /** The comparator's failures at the node (size, fragment, fragment_count, offset). */
  failures: Failure[];
}

/** Where the documents of a pair first differ (kind shape): each side's tag there, null past its end. */
interface PairDivergence {
  a: EngineName;
  b: EngineName;
  tags: [string | null, string | null];
}

/** The failing node and what differs at it. */
export interface FailingNode {
  index: number;
  /** shape, fragment_count, size or offset, as the signature names it. */
  kind: string;
  /** Its tag; at a divergence, the tags either side. */
  tags: string[];
  /** The engine the other two agree against at this node, if any. */
  outlier: EngineName | null;
  pairs: PairAtNode[];
  divergences: PairDivergence[];
  /** The differing style properties (the vote's, contract order) with each engine's computed value. */
  styles: { property: StyleProperty; values: Partial<Record<EngineName, string>> }[];
}

/** The failing node of a geometry vote on these dumps, or null when no pair of usable engines fails. */
export function failingNode(vote: VoteResult, dumps: Partial<Record<EngineName, Dump>>): FailingNode | null {
  const first = geometryFirst(vote).first;
  if (first?.index == null || first.kind === null) return null;
  const index = first.index;
  const pairs = Object.entries(vote.pairs) as [PairKey, NonNullable<VoteResult['pairs'][PairKey]>][];
  const names = (key: PairKey) => key.split('~') as [EngineName, EngineName];
  const divergences = pairs.flatMap(([key, pair]) => {
    if (pair.divergence?.index !== index) return [];
    const [a, b] = names(key);
    return [{ a, b, tags: [pair.divergence.a?.tag ?? null, pair.divergence.b?.tag ?? null] as [string | null, string | null] }];
  });
  const node = vote.nodes.find((n) => n.index === index);
  const columnar: Partial<Record<EngineName, ColumnarDump>> = {};
  const columnarOf = (e: EngineName) => (columnar[e] ??= columnarFromDump(dumps[e]!));
  const failing = pairs.filter(([key, pair]) => pair.verdict === 'fail' && names(key).every((e) => dumps[e]));
  const atNode = failing.flatMap(([key]) => {
    const [a, b] = names(key);
    const failures = compare(columnarOf(a), columnarOf(b)).failures.filter((f) => f.index === index);
    return failures.length ? [{ a, b, failures }] : [];
  });
  const styles = (node?.styles ?? []).map((property) => ({
    property,
    values: Object.fromEntries(
      ENGINE_NAMES.flatMap((e) => {
        const value = dumps[e]?.nodes[index]?.style[property];
        return value === undefined ? [] : [[e, value]];
      }),
    ) as Partial<Record<EngineName, string>>,
  }));
  return { index, kind: first.kind, tags: first.subjects, outlier: node?.outlier ?? null, pairs: atNode, divergences, styles };
}
