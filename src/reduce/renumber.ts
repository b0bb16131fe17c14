// A case's mutations name elements by their index in its document's order (docs/protocol.md,
// "Mutations"), and an insert's position counts its parent's element children: a pass that takes
// elements out of the html shifts both. A trial's mutations are renumbered to the trial's
// document: each element of the new document is matched to the one it was in the old (a pass only
// takes elements out or hoists their children, so the new document's elements are the old's, in
// the same order: matched by tag, and where it kept them by its attributes), a name moves to its
// element's new index, an inserted element's to the new count plus its place among the inserted,
// and an insert goes before the same sibling as before (or the next one left). A mutation whose
// element is gone leaves no trial: the case would be another.
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { parseMutationFragment, type FragmentElement } from '../protocol/mutation-check.js';
import type { Mutation } from '../protocol/mutations-schema.js';

type ParentNode = DefaultTreeAdapterMap['parentNode'];
type ElementNode = DefaultTreeAdapterMap['element'];

/** An element of a document: its tag, its attributes as text, its parent's index (-1 for the root), in document order. */
interface Entry {
  tag: string;
  attributes: string;
  parent: number;
}

/** The elements of `html` in document order, as the DOM numbers them. */
function elementsOf(html: string): Entry[] {
  const out: Entry[] = [];
  const visit = (node: ParentNode, parent: number) => {
    for (const child of node.childNodes) {
      if (!('tagName' in child)) continue;
      const e = child as ElementNode;
      const index = out.push({ tag: e.tagName, attributes: JSON.stringify(e.attrs), parent }) - 1;
      visit(e, index);
    }
  };
  visit(parse(html), -1);
  return out;
}

/**
 * For each old element, its index in `now` (undefined: gone): every element of `now` matched, in
 * order, to one of `old` of its tag, preferring those whose attributes are the same; undefined
 * when `now` is not such a subsequence of `old`.
 */
function match(old: readonly Entry[], now: readonly Entry[]): (number | undefined)[] | undefined {
  const n = old.length;
  const m = now.length;
  // best[i][j]: the best score matching now[0..j) into old[0..i); -1 when it cannot be.
  const best = Array.from({ length: n + 1 }, () => new Int32Array(m + 1).fill(-1));
  for (let i = 0; i <= n; i++) best[i]![0] = 0;
  const score = (i: number, j: number) => (old[i]!.tag !== now[j]!.tag ? -1 : old[i]!.attributes === now[j]!.attributes ? 2 : 1);
  for (let i = 1; i <= n; i++)
    for (let j = 1; j <= Math.min(i, m); j++) {
      const s = score(i - 1, j - 1);
      const take = s >= 0 && best[i - 1]![j - 1]! >= 0 ? best[i - 1]![j - 1]! + s : -1;
      best[i]![j] = Math.max(best[i - 1]![j]!, take);
    }
  if (best[n]![m]! < 0) return undefined;
  const to: (number | undefined)[] = new Array<number | undefined>(n).fill(undefined);
  for (let i = n, j = m; j > 0; i--) {
    const s = score(i - 1, j - 1);
    if (s >= 0 && best[i - 1]![j - 1]! >= 0 && best[i]![j] === best[i - 1]![j - 1]! + s) to[i - 1] = --j;
  }
  return to;
}

/** The elements a fragment inserts, its own first, in document order: how many. */
function fragmentSize(html: string): number {
  const count = (f: FragmentElement): number => 1 + f.children.reduce((n: number, c) => n + (typeof c === 'string' ? 0 : count(c)), 0);
  const f = parseMutationFragment(html);
  return typeof f === 'string' ? 1 : count(f);
}

/** A document's element children by element name, changed as its mutations apply. */
class Tree {
  private readonly children = new Map<number, number[]>();
  private readonly parents = new Map<number, number>();
  next: number;

  constructor(entries: readonly Entry[]) {
    this.next = entries.length;
    entries.forEach((e, i) => {
      this.children.set(i, []);
      if (e.parent >= 0) this.adopt(e.parent, i, Number.POSITIVE_INFINITY);
    });
  }

  childrenOf = (name: number): number[] => this.children.get(name) ?? [];

  private adopt(parent: number, child: number, position: number): void {
    const list = this.childrenOf(parent);
    list.splice(Math.min(position, list.length), 0, child);
    this.children.set(parent, list);
    this.parents.set(child, parent);
  }

  /** An insert of `size` elements (their names the next ones) at `position`; a fragment's descendants are left out of the children kept, as no insert names a position among them here. */
  insert(parent: number, position: number, size: number): void {
    this.adopt(parent, this.next, position);
    this.next += size;
  }

  remove(name: number): void {
    const parent = this.parents.get(name);
    if (parent === undefined) return;
    const list = this.childrenOf(parent);
    list.splice(list.indexOf(name), 1);
    this.parents.delete(name);
  }

  clear(name: number): void {
    for (const c of this.childrenOf(name)) this.parents.delete(c);
    this.children.set(name, []);
  }
}

/**
 * `mutations` of the document `before`, renumbered for the document `after` made from it by
 * taking elements out; undefined when one of them names an element `after` no longer has.
 */
export function renumberMutations(before: string, after: string, mutations: readonly Mutation[]): Mutation[] | undefined {
  const old = elementsOf(before);
  const now = elementsOf(after);
  const to = match(old, now);
  return to && carry(old, now, to, mutations, new Set());
}

/**
 * `mutations` of the document `html` with those at `dropped` left out, the rest renumbered: an
 * element a dropped insert made is gone, the ones inserted after it move down, and an insert goes
 * before the same sibling as before (or the next one left); undefined when a kept mutation names
 * an element that a dropped one made.
 */
export function dropMutations(html: string, mutations: readonly Mutation[], dropped: ReadonlySet<number>): Mutation[] | undefined {
  const entries = elementsOf(html);
  return carry(
    entries,
    entries,
    entries.map((_, i) => i),
    mutations,
    dropped,
  );
}

/**
 * The mutations but those at `dropped`, carried from the document `old` to `now`, whose elements
 * `to` maps `old`'s to: every name moves to its element's, an inserted element's to the name the
 * kept inserts give it, and an insert goes before the same sibling as before (or the next one
 * left, or last); undefined when a kept mutation names an element that is gone.
 */
function carry(
  old: readonly Entry[],
  now: readonly Entry[],
  to: readonly (number | undefined)[],
  mutations: readonly Mutation[],
  dropped: ReadonlySet<number>,
): Mutation[] | undefined {
  const was = new Tree(old);
  const is = new Tree(now);
  /** Inserted elements by their name with every mutation applied, to their name with the kept ones. */
  const inserted = new Map<number, number>();
  const rename = (name: number): number | undefined => (name < old.length ? to[name] : inserted.get(name));
  const out: Mutation[] = [];
  for (const [i, m] of mutations.entries()) {
    const keep = !dropped.has(i);
    const target = m.op === 'insert' ? m.parent : m.node;
    const renamed = rename(target);
    if (keep && renamed === undefined) return undefined;
    if (m.op === 'insert') {
      const size = fragmentSize(m.html);
      if (keep) {
        // The siblings it went before, in the old document: the first of them the new one still has is where it goes.
        // An inserted parent's children are its fragment's, the same in both: its position stays.
        const following = was.childrenOf(target).slice(m.position);
        const siblings = is.childrenOf(renamed!);
        const anchor = following.map(rename).find((s) => s !== undefined && siblings.includes(s));
        const position = target >= old.length ? m.position : anchor === undefined ? siblings.length : siblings.indexOf(anchor);
        for (let k = 0; k < size; k++) inserted.set(was.next + k, is.next + k);
        is.insert(renamed!, position, size);
        out.push({ ...m, parent: renamed!, position });
      }
      was.insert(target, m.position, size);
      continue;
    }
    if (m.op === 'remove') {
      was.remove(target);
      if (keep) is.remove(renamed!);
    } else if (m.op === 'text') {
      was.clear(target);
      if (keep) is.clear(renamed!);
    }
    if (keep) out.push({ ...m, node: renamed! });
  }
  return out;
}
