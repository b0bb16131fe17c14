// Mutation deletions in the request's `mutations` (docs/protocol.md, "Mutations"), held as their
// JSON text: each mutation is a unit. A trial is judged as every other, by the predicate alone:
// one whose later mutations name elements that are now gone is refused by the oracle and fails,
// and one whose indices now name other elements (an insert before them dropped) is kept only if it
// still shows the signature, as any reduction is. An empty list is no trial (a request's list may
// not be empty).
import type { Pass, Subject } from '../pass.js';

/** The mutations as parsed, and those deleted so far. */
export interface MutationsDoc {
  readonly list: readonly unknown[];
  readonly removed: Set<number>;
}

/** Parses and prints the `mutations` field's JSON text. */
export const mutationsSubject: Subject<MutationsDoc> = {
  parse(text) {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) ? { list, removed: new Set() } : undefined;
  },
  print(doc) {
    const kept = doc.list.filter((_, i) => !doc.removed.has(i));
    return kept.length ? JSON.stringify(kept) : undefined;
  },
};

export const mutationEntries: Pass<MutationsDoc, number> = {
  name: 'mutations',
  hierarchical: false,
  collect: (doc) => doc.list.map((_, i) => i),
  remove(doc, units) {
    for (const u of units) doc.removed.add(u);
  },
};
