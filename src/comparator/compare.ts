// Compares two columnar dumps by the contract's rules. The result, as JSON:
//
//   verdict           "pass" | "fail" | "parse_divergence" | "discarded"
//                     discarded: either dump overflowed its viewport; nothing is compared.
//                     parse_divergence: the (tag, depth, parent) sequences differ; geometry
//                     and styles are not compared.
//   failures          [{index, kind, ...}] in node order, one entry per failing check:
//                       kind "size"            the bounding box: dw, dh
//                       kind "fragment"        fragment `fragment` of the node: dw, dh
//                       kind "fragment_count"  a, b: the two fragment counts (the fragments
//                                              are then not paired up, so not compared)
//                       kind "offset"          dx, dy: change of the box origin relative to
//                                              the parent's (the root's: to the viewport's)
//                     Deltas are signed, b − a, in CSS px; both deltas of a pair are given
//                     even when only one exceeds the tolerance.
//   style_mismatches  [{index, property, a, b}]: computed style values that differ exactly;
//                     reported only, they never change the verdict.
//   summary           {nodes, compared, failed, sum_abs_delta, max_abs_delta}
//                     nodes: nodes whose geometry was compared; compared/failed: individual
//                     checks (each width, height, dx, dy and fragment count); the delta sum
//                     and maximum are over every compared length, passing or not.
//   divergence        (parse_divergence only) {index, a, b}, a and b being {tag, depth,
//                     parent} at the first differing index, or null past the end of a dump.
//
// A node without fragments (display:none, display:contents) has no box, only a zeroed
// placeholder: its offset is not compared, and its descendants measure from the nearest
// ancestor that has a box (ColumnarDump.anchors). Otherwise the children of a
// display:contents element inside a moved subtree would count as moved too.
import { STYLE_PROPERTIES } from '../protocol/schema.js';
import type { CompareVerdict, NodeShape, Summary } from '../protocol/vote-schema.js';
import type { ColumnarDump } from './columnar.js';

/** 1/60 px: a delta whose magnitude is at most this passes. */
export const TOLERANCE = 1 / 60;

export type Failure =
  | { index: number; kind: 'size'; dw: number; dh: number }
  | { index: number; kind: 'fragment'; fragment: number; dw: number; dh: number }
  | { index: number; kind: 'fragment_count'; a: number; b: number }
  | { index: number; kind: 'offset'; dx: number; dy: number };

export interface StyleMismatch {
  index: number;
  property: (typeof STYLE_PROPERTIES)[number];
  a: string;
  b: string;
}

export interface CompareResult {
  verdict: CompareVerdict;
  failures: Failure[];
  style_mismatches: StyleMismatch[];
  summary: Summary;
  divergence?: { index: number; a: NodeShape | null; b: NodeShape | null };
}

/** Counts checks and accumulates |delta|; a class so the hot loop stays monomorphic. */
class Tally {
  compared = 0;
  failed = 0;
  sum = 0;
  max = 0;

  /** Records a pair of deltas (both, always); true when both are within tolerance. */
  within(d1: number, d2: number): boolean {
    const first = this.one(d1);
    const second = this.one(d2);
    return first && second;
  }

  /** Records a check with no length (a count); true when it holds. */
  holds(ok: boolean): boolean {
    this.compared++;
    if (!ok) this.failed++;
    return ok;
  }

  private one(delta: number): boolean {
    const abs = Math.abs(delta);
    this.sum += abs;
    if (abs > this.max) this.max = abs;
    return this.holds(abs <= TOLERANCE);
  }

  summary(nodes: number): Summary {
    return { nodes, compared: this.compared, failed: this.failed, sum_abs_delta: this.sum, max_abs_delta: this.max };
  }
}

/** What is compared beyond the geometry: the computed styles, unless `styles` is false (they never change a verdict). */
export interface CompareOptions {
  styles?: boolean;
  /**
   * Per node, 1 when its geometry is compared (a candidate's roots and their subtrees, scopeOf in
   * candidate.ts: every descendant of a node in scope is in scope). A node out of scope compares as
   * a node without a box on both sides, and a node in scope whose nearest boxed ancestor is out of
   * it is measured from the viewport: as if both dumps were copies with no box outside the scope.
   */
  scope?: Uint8Array;
}

export function compare(a: ColumnarDump, b: ColumnarDump, options?: CompareOptions): CompareResult {
  return discarded(a) || discarded(b) ? uncompared('discarded') : compareOverflowed(a, b, options);
}

/** Whether a dump is not compared: it overflowed and its viewport's scrollbars may have taken room. */
export const discarded = (d: ColumnarDump): boolean => d.overflowed && !d.roomless;

/**
 * `compare` without the rule that discards an overflowed dump: for two walks of one engine, whose
 * scrollbars are the same (the relayout check). Its verdict is never `discarded`.
 */
export function compareOverflowed(a: ColumnarDump, b: ColumnarDump, { styles = true, scope }: CompareOptions = {}): CompareResult {
  if (a.tagTable !== b.tagTable) {
    throw new Error(
      'compare: the two dumps were made with different tag tables (built in different threads?); convert both in this thread',
    );
  }
  const divergence = firstDivergence(a, b);
  if (divergence) return { ...uncompared('parse_divergence'), divergence };

  const tally = new Tally();
  const failures: Failure[] = [];
  const ab = a.bounding;
  const bb = b.bounding;
  for (let i = 0, at = 0; i < a.count; i++, at += 4) {
    if (scope && !inScope(scope, i)) {
      // Boxless on both sides: a zero size delta and no fragment on either, counted as such.
      tally.within(0, 0);
      tally.holds(true);
      continue;
    }
    const dw = bb[at + 2]! - ab[at + 2]!;
    const dh = bb[at + 3]! - ab[at + 3]!;
    if (!tally.within(dw, dh)) failures.push({ index: i, kind: 'size', dw, dh });

    const aFirst = a.fragmentStart[i]!;
    const bFirst = b.fragmentStart[i]!;
    const aCount = a.fragmentStart[i + 1]! - aFirst;
    const bCount = b.fragmentStart[i + 1]! - bFirst;
    if (!tally.holds(aCount === bCount)) {
      failures.push({ index: i, kind: 'fragment_count', a: aCount, b: bCount });
    } else {
      for (let k = 0; k < aCount; k++) {
        const af = (aFirst + k) * 4;
        const bf = (bFirst + k) * 4;
        const fw = b.fragments[bf + 2]! - a.fragments[af + 2]!;
        const fh = b.fragments[bf + 3]! - a.fragments[af + 3]!;
        if (!tally.within(fw, fh)) failures.push({ index: i, kind: 'fragment', fragment: k, dw: fw, dh: fh });
      }
    }

    if (aCount > 0 && bCount > 0) {
      const dx = offset(b, i, 0, scope) - offset(a, i, 0, scope);
      const dy = offset(b, i, 1, scope) - offset(a, i, 1, scope);
      if (!tally.within(dx, dy)) failures.push({ index: i, kind: 'offset', dx, dy });
    }
  }
  return {
    verdict: failures.length ? 'fail' : 'pass',
    failures,
    style_mismatches: styles ? styleMismatches(a, b) : [],
    summary: tally.summary(a.count),
  };
}

const inScope = (scope: Uint8Array, i: number) => i < scope.length && scope[i] === 1;

/**
 * Node i's box origin coordinate (0: x, 1: y) relative to its anchor's, or the viewport's. In a
 * scope, the in-scope ancestors of a node in it are the nearest ones (its scope is closed under
 * descendants): its anchor out of scope means that no ancestor in scope has a box.
 */
function offset(d: ColumnarDump, i: number, axis: 0 | 1, scope: Uint8Array | undefined): number {
  let anchor = d.anchors[i]!;
  if (scope && anchor >= 0 && !inScope(scope, anchor)) anchor = -1;
  return d.bounding[i * 4 + axis]! - (anchor < 0 ? 0 : d.bounding[anchor * 4 + axis]!);
}

function uncompared(verdict: CompareVerdict): CompareResult {
  return { verdict, failures: [], style_mismatches: [], summary: new Tally().summary(0) };
}

function firstDivergence(a: ColumnarDump, b: ColumnarDump): CompareResult['divergence'] {
  const n = Math.min(a.count, b.count);
  let i = 0;
  while (i < n && a.tags[i] === b.tags[i] && a.depths[i] === b.depths[i] && a.parents[i] === b.parents[i]) i++;
  return i === a.count && i === b.count ? undefined : { index: i, a: shapeAt(a, i), b: shapeAt(b, i) };
}

function shapeAt(d: ColumnarDump, i: number): NodeShape | null {
  return i < d.count ? { tag: d.tagTable.name(d.tags[i]!), depth: d.depths[i]!, parent: d.parents[i]! } : null;
}

const PX = /^-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?px$/i;

/** Two computed px lengths within TOLERANCE of each other (the engines' layout units differ). */
export function sameLength(a: string, b: string): boolean {
  return PX.test(a) && PX.test(b) && Math.abs(Number.parseFloat(a) - Number.parseFloat(b)) <= TOLERANCE;
}

function styleMismatches(a: ColumnarDump, b: ColumnarDump): StyleMismatch[] {
  const mismatches: StyleMismatch[] = [];
  const n = STYLE_PROPERTIES.length;
  for (let at = 0; at < a.styles.length; at++) {
    if (a.styles[at] !== b.styles[at]) {
      mismatches.push({ index: Math.floor(at / n), property: STYLE_PROPERTIES[at % n]!, a: a.styles[at]!, b: b.styles[at]! });
    }
  }
  return mismatches;
}
