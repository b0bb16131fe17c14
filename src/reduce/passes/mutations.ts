// Mutation deletions in the request's `mutations` (docs/protocol.md, "Mutations"), held as their
// JSON text: each mutation is a unit. The mutations kept are renumbered to what is left
// (renumber.ts): the elements a dropped insert made are gone, those inserted after them move down,
// and an insert goes before the same sibling as before. A trial whose kept mutations name an
// element a dropped insert made is no trial, nor is an empty list (a request's list may not be
// empty).
import type { Mutation } from '../../protocol/mutations-schema.js';
import type { Pass, Subject } from '../pass.js';
import { dropMutations } from '../renumber.js';

/** The mutations as parsed, and those deleted so far. */
export interface MutationsDoc {
  readonly list: readonly Mutation[];
  readonly removed: Set<number>;
}

/** Parses and prints the `mutations` field's JSON text, renumbered for the case's html as it is when printed. */
export function mutationsSubject(html: () => string): Subject<MutationsDoc> {
  return {
    parse(text) {
      const list: unknown = JSON.parse(text);
      return Array.isArray(list) ? { list: list as Mutation[], removed: new Set() } : undefined;
    },
    print(doc) {
      const kept = dropMutations(html(), doc.list, doc.removed);
      return kept?.length ? JSON.stringify(kept) : undefined;
    },
  };
}

export const mutationEntries: Pass<MutationsDoc, number> = {
  name: 'mutations',
  hierarchical: false,
  collect: (doc) => doc.list.map((_, i) => i),
  remove(doc, units) {
    for (const u of units) doc.removed.add(u);
  },
};
