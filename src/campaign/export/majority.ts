// What the vote's majority laid out, node by node: the mean of the majority engines' boxes (they
// agree within the comparator's 1/60 px), never one engine's. An export's expectations come from
// here. Without a majority (split, insufficient) there are none.
import type { Dump, EngineName } from '../../protocol/schema.js';
import type { Finding } from './finding.js';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One element as the majority laid it out. */
export interface MajorityNode {
  index: number;
  parent: number;
  tag: string;
  /** Its getBoundingClientRect(), viewport-relative. */
  bounding: Box;
  /** Its first box fragment (getClientRects()[0]); null when it generates no box. */
  first: Box | null;
  /** The computed styles of the first majority engine (structure: display, position, borders), as dumped. */
  style: Dump['nodes'][number]['style'];
}

/** The majority's layout, by node index; null when the vote has no majority with dumps. */
export function majorityLayout(f: Finding): { engines: EngineName[]; nodes: MajorityNode[] } | null {
  const engines = f.vote.majority ?? [];
  const dumps = engines.map((e) => f.dumps[e]).filter((d): d is Dump => d !== undefined);
  if (engines.length < 2 || dumps.length !== engines.length) return null;
  const count = dumps[0]!.nodes.length;
  if (dumps.some((d) => d.nodes.length !== count)) return null;
  const mean = (pick: (d: Dump) => Box): Box => {
    const boxes = dumps.map(pick);
    const avg = (k: keyof Box) => boxes.reduce((s, b) => s + b[k], 0) / boxes.length;
    return { x: avg('x'), y: avg('y'), w: avg('w'), h: avg('h') };
  };
  const nodes = dumps[0]!.nodes.map((node, i) => ({
    index: node.index,
    parent: node.parent,
    tag: node.tag,
    bounding: mean((d) => d.nodes[i]!.bounding),
    first: dumps.every((d) => d.nodes[i]!.rects.length > 0) ? mean((d) => d.nodes[i]!.rects[0]!) : null,
    style: node.style,
  }));
  return { engines, nodes };
}

/** A length as an export writes it: at most three decimals, no trailing zeros, never `-0`. */
export const px = (n: number): string => String(Math.round(n * 1000) / 1000 + 0);
