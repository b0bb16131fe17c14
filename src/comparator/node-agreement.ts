// Where the browsers agree, node by node: a page whose prose (a system font, whose glyphs differ
// by engine) splits the three can still have every element under test agreed on. A node is
// ground truth for a kind of check (size, fragment, fragment count, offset) when no pair of
// engines fails it there; the vote lists every node that fails in some pair (vote-schema.ts), so
// the rest agree. Nothing is agreed without three usable engines whose documents have one shape.
import { FAILURE_KINDS, type FailureKind, type VoteResult } from '../protocol/vote-schema.js';

/** Per node, a bit per failure kind some pair fails there (FAILURE_KINDS' order); null when nothing can be agreed on. */
export function disagreements(vote: Pick<VoteResult, 'engines' | 'pairs' | 'nodes'>, count: number): Uint8Array | null {
  const usable = Object.values(vote.engines).filter((s) => s.status === 'usable').length;
  const pairs = Object.values(vote.pairs);
  if (usable < 3 || pairs.length < 3 || pairs.some((p) => p.verdict === 'parse_divergence' || p.verdict === 'discarded')) return null;
  const bits = new Uint8Array(count);
  for (const node of vote.nodes) {
    if (node.index >= count) continue;
    for (const kind of node.kinds) bits[node.index]! |= kindBit(kind);
  }
  return bits;
}

const kindBit = (kind: FailureKind): number => 1 << FAILURE_KINDS.indexOf(kind);

/** Whether the browsers agree on node `i` for every kind of `kinds` (all kinds when omitted). */
export function agreedOn(bits: Uint8Array, i: number, kinds: readonly FailureKind[] = FAILURE_KINDS): boolean {
  let mask = 0;
  for (const kind of kinds) mask |= kindBit(kind);
  return (bits[i]! & mask) === 0;
}
