// What both reference candidates keep of a case's tree between its layout before its mutations
// and the one after: each node under a key (an element's name, or a text run's place in its
// parent), with what it was last made of, so that only what changed is given to the engine's
// incremental API, which marks it dirty.
import type { MeasuredText } from './web/text.js';

/** A node as kept: whether it is a measured leaf, its text as last measured, its children as last set. */
export interface Kept<N> {
  readonly node: N;
  readonly leaf: boolean;
  text: string | undefined;
  children: readonly N[];
}

/** Nodes kept by key in one engine tree across layouts. */
export class KeptByKey<N> {
  private readonly kept = new Map<string, Kept<N>>();

  /**
   * The node kept under `key` when it is of the same kind (a leaf or not), else a new one `make`
   * makes, kept from now on (`made`). A node whose key is not asked again stays in the engine's
   * tree, out of the layout, until the tree is freed.
   */
  take(key: string, leaf: boolean, text: MeasuredText | undefined, make: () => N): { kept: Kept<N>; made: boolean } {
    const k = this.kept.get(key);
    if (k && k.leaf === leaf) return { kept: k, made: false };
    const kept: Kept<N> = { node: make(), leaf, text: textKey(text), children: [] };
    this.kept.set(key, kept);
    return { kept, made: true };
  }
}

/** A measured text as a value to tell whether it changed. */
export const textKey = (text: MeasuredText | undefined): string | undefined => text && JSON.stringify(text);

export const sameChildren = <N>(a: readonly N[], b: readonly N[]): boolean => a.length === b.length && a.every((c, i) => c === b[i]);
