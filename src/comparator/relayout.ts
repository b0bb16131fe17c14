// The relayout check: one engine held to itself. Its walk of a case's document as the page had it
// laid out, against its walk of the same document laid out from scratch just after
// (src/page/walk.ts, walkCase), compared by the comparator's own rules and tolerance (compare.ts)
// with overflow included: both walks have the one engine's scrollbars. A difference is an
// invalidation bug: the engine's incremental layout kept something a layout from scratch does
// not give. The result's schema is src/protocol/relayout-schema.ts:
//
//   verdict   "pass" | "fail" | "parse_divergence" (the walks saw different trees; nothing compared)
//   summary   as compare.ts's
//   nodes     [{index, tag, parent, kinds, styles, walked, fresh}] every node whose geometry
//             differs, in node order: kinds as compare.ts's failures, styles each STYLE_PROPERTIES
//             value that differs there with both walks' values (px lengths within TOLERANCE equal,
//             as in the vote), and each walk's boxes of the node, side by side.
import { STYLE_PROPERTIES } from '../protocol/schema.js';
import type { RelayoutNode, RelayoutResult } from '../protocol/relayout-schema.js';
import { FAILURE_KINDS, type FailureKind, type StyleProperty } from '../protocol/vote-schema.js';
import type { ColumnarDump } from './columnar.js';
import { compareOverflowed, sameLength } from './compare.js';

export function checkRelayout(walked: ColumnarDump, fresh: ColumnarDump): RelayoutResult {
  const { verdict, summary, divergence, failures, style_mismatches } = compareOverflowed(walked, fresh);
  if (verdict === 'parse_divergence') return { verdict, summary, divergence: divergence!, nodes: [] };
  const kinds = new Map<number, Set<FailureKind>>();
  for (const f of failures) kinds.set(f.index, (kinds.get(f.index) ?? new Set()).add(f.kind));
  const styles = new Map<number, Set<StyleProperty>>();
  for (const m of style_mismatches) if (!sameLength(m.a, m.b)) styles.set(m.index, (styles.get(m.index) ?? new Set()).add(m.property));
  const nodes = [...kinds.keys()]
    .sort((x, y) => x - y)
    .map(
      (index): RelayoutNode => ({
        index,
        tag: walked.tagTable.name(walked.tags[index]!),
        parent: walked.parents[index]!,
        kinds: FAILURE_KINDS.filter((k) => kinds.get(index)!.has(k)),
        styles: STYLE_PROPERTIES.filter((p) => styles.get(index)?.has(p)).map((property) => ({
          property,
          walked: styleOf(walked, index, property),
          fresh: styleOf(fresh, index, property),
        })),
        walked: boxesOf(walked, index),
        fresh: boxesOf(fresh, index),
      }),
    );
  return { verdict: verdict === 'pass' ? 'pass' : 'fail', summary, nodes };
}

/** Node `i`'s boxes in one walk. */
function boxesOf(d: ColumnarDump, i: number): RelayoutNode['walked'] {
  const rect = (from: Float64Array, at: number) => ({ x: from[at]!, y: from[at + 1]!, w: from[at + 2]!, h: from[at + 3]! });
  const rects = [];
  for (let f = d.fragmentStart[i]!; f < d.fragmentStart[i + 1]!; f++) rects.push(rect(d.fragments, f * 4));
  return { bounding: rect(d.bounding, i * 4), rects };
}

const styleOf = (d: ColumnarDump, i: number, property: StyleProperty) =>
  d.styles[i * STYLE_PROPERTIES.length + STYLE_PROPERTIES.indexOf(property)]!;
