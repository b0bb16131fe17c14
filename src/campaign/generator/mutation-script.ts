// A case's `script`, or its `mutations`: DOM changes made after the document has been laid out
// once, so that each engine has to relayout incrementally what it laid out before. A script is
// plain DOM, one change a line, each naming elements by id, so a reducer can drop lines; mutations
// are the same changes in the vocabulary an engine under test applies (docs/protocol.md,
// "Mutations"). The generator tracks the tree as it changes, so that no change names a removed
// element or moves one into itself.
import { BOX, displaysFor, TEXT } from './css-values.js';
import { drawElement, drawSupported } from './element.js';
import { hasInlineTrouble, hostFor } from './inline-boxes.js';
import type { Random, Weighted } from './random.js';
import type { Declaration } from './css-values.js';
import type { Mutation } from '../../protocol/mutations-schema.js';
import type { Supported } from './supported-css.js';
import { words } from './text.js';
import { displayOf, elementHtml, elementsOf, isPositioned, type ElementNode } from './tree.js';

/** How many changes a script makes, at most. */
export const MAX_SCRIPT_CHANGES = 4;
/** Reading offsetWidth forces a layout: before the first change always, between changes now and then. */
const FORCE_LAYOUT = 'document.body.offsetWidth;';

type Change = 'insert' | 'remove' | 'move' | 'style' | 'unstyle' | 'text';
const CHANGES: Weighted<Change>[] = [
  [3, 'insert'],
  [2, 'remove'],
  [2, 'move'],
  [3, 'style'],
  [1, 'unstyle'],
  [1, 'text'],
];

export interface ScriptContext {
  text: boolean;
  /** Only what an engine under test lays out (its `supports`). */
  supported?: Supported;
  /** The id the next inserted element gets. */
  nextId: () => string;
}

/** How many mutations a mutation run draws, at most. */
export const MAX_MUTATIONS = 5;

/**
 * How mutations name the elements of a case, by their ids: the index of each in the document order
 * of the original document, and the next unused one, which an inserted element takes (a moved
 * one, inserted again, takes new ones).
 */
export interface Names {
  of: Map<string, number>;
  next: number;
}

/** Changes drawn again when they would put a block inside an inline box or empty one; after that, an insert, which never does. */
const RETRIES = 8;

/** A script of 1 to MAX_SCRIPT_CHANGES changes to the tree under `root`, which it updates to match. */
export function drawScript(random: Random, root: ElementNode, context: ScriptContext): string {
  const lines = [FORCE_LAYOUT];
  const changes = random.int(1, MAX_SCRIPT_CHANGES);
  for (let i = 0; i < changes; i++) {
    lines.push(...drawChange(random, root, context, Number.POSITIVE_INFINITY).flatMap(scriptLines));
    if (i < changes - 1 && random.chance(0.3)) lines.push(FORCE_LAYOUT);
  }
  return lines.join('\n');
}

/**
 * 1 to MAX_MUTATIONS mutations (src/protocol/mutations-schema.ts) of the tree under `root`, which
 * they update to match: the changes a script makes, in the vocabulary an engine under test
 * applies, each element named as `names` says.
 */
export function drawMutations(random: Random, root: ElementNode, context: ScriptContext, names: Names): Mutation[] {
  const mutations: Mutation[] = [];
  const wanted = random.int(1, MAX_MUTATIONS);
  while (mutations.length < wanted) {
    for (const made of drawChange(random, root, context, wanted - mutations.length)) mutations.push(...asMutations(made, names));
  }
  return mutations;
}

/** One change, drawn again while it would put a block inside an inline box or empty one; `room`: the mutations it may take. */
function drawChange(random: Random, root: ElementNode, context: ScriptContext, room: number): Made[] {
  for (let attempt = 0; ; attempt++) {
    const before = structuredClone(root);
    const made = change(random, root, context, room, attempt < RETRIES ? undefined : 'insert');
    if (!hasInlineTrouble(root)) return made;
    Object.assign(root, before);
  }
}

/** A change as made to the model: what the script line or the mutation says. */
type Made =
  | { kind: 'insert'; host: ElementNode; element: ElementNode; first: boolean }
  | { kind: 'remove'; element: ElementNode }
  | { kind: 'move'; host: ElementNode; element: ElementNode; first: boolean }
  | { kind: 'style'; element: ElementNode; declarations: readonly Declaration[] }
  | { kind: 'unstyle'; element: ElementNode; property: string }
  | { kind: 'text'; element: ElementNode; text: string };

/**
 * One change, applied to the model. With `room` for fewer than two mutations (a mutation run),
 * a move (a remove and an insert) is an insert, and a style change sets one property.
 */
function change(random: Random, root: ElementNode, context: ScriptContext, room: number, forced?: Change): Made[] {
  const all = elementsOf(root);
  const movable = all.slice(1);
  let kind = forced ?? random.weighted(CHANGES);
  if (kind === 'text' && !context.text) kind = 'insert';
  if (kind === 'unstyle' && !movable.some((element) => element.declarations.length > 0)) kind = 'style';
  if (kind === 'move' && room < 2) kind = 'insert';
  if (movable.length === 0) kind = 'insert';
  switch (kind) {
    case 'insert': {
      const parent = random.pick(all);
      const element = drawElement(random, context.nextId(), {
        text: context.text,
        parentDisplay: displayOf(parent),
        parentPositioned: isPositioned(parent),
        supported: context.supported,
      });
      const host = hostFor(root, parent, element);
      return [{ kind, host, element, first: attach(random, host, element) }];
    }
    case 'remove': {
      const element = random.pick(movable);
      detach(root, element);
      return [{ kind, element }];
    }
    case 'move': {
      const element = random.pick(movable);
      const inside = new Set(elementsOf(element));
      const parent = random.pick(all.filter((candidate) => !inside.has(candidate)));
      detach(root, element);
      const host = hostFor(root, parent, element);
      return [{ kind, host, element, first: attach(random, host, element) }];
    }
    case 'style': {
      const element = random.pick(movable);
      const { supported } = context;
      const displays = displaysFor(context.text).filter(([, d]) => supported?.admits('display', d) ?? true);
      const parentPositioned = isPositioned(all.find((p) => p.children.includes(element)) ?? root);
      const drawn = random.chance(0.3)
        ? [['display', random.weighted(displays)] as const]
        : drawSupported(random, random.pick(context.text ? [...BOX, ...TEXT] : BOX), supported, parentPositioned);
      const declarations = drawn.slice(0, room);
      element.declarations.push(...declarations);
      return [{ kind, element, declarations }];
    }
    case 'unstyle': {
      const element = random.pick(movable.filter((candidate) => candidate.declarations.length > 0));
      const [property] = random.pick(element.declarations);
      element.declarations = element.declarations.filter(([name]) => name !== property);
      return [{ kind, element, property }];
    }
    case 'text': {
      const element = random.pick(all);
      const text = words(random, random.int(1, 6), { plain: context.supported !== undefined });
      // A script appends the text; a mutation sets it, in place of the element's children.
      if (Number.isFinite(room)) element.children = [];
      element.children.push(text);
      return [{ kind, element, text }];
    }
  }
}

/** A change's script lines: plain DOM, one change a line, naming elements by id. */
function scriptLines(made: Made): string[] {
  switch (made.kind) {
    case 'insert':
      return [
        `${byId(made.host)}.insertAdjacentHTML(${JSON.stringify(made.first ? 'afterbegin' : 'beforeend')}, ${JSON.stringify(elementHtml(made.element))});`,
      ];
    case 'remove':
      return [`${byId(made.element)}.remove();`];
    case 'move':
      return [`${byId(made.host)}.${made.first ? 'prepend' : 'append'}(${byId(made.element)});`];
    case 'style':
      return made.declarations.map(
        ([property, value]) => `${byId(made.element)}.style.setProperty(${JSON.stringify(property)}, ${JSON.stringify(value)});`,
      );
    case 'unstyle':
      return [`${byId(made.element)}.style.removeProperty(${JSON.stringify(made.property)});`];
    case 'text':
      return [`${byId(made.element)}.append(${JSON.stringify(made.text)});`];
  }
}

/** A change's mutations, naming elements by `names`, which an insert extends (a move is a remove and an insert of a copy). */
function asMutations(made: Made, names: Names): Mutation[] {
  const node = (element: ElementNode) => names.of.get(element.id)!;
  switch (made.kind) {
    case 'insert':
    case 'move': {
      const removed: Mutation[] = made.kind === 'move' ? [{ op: 'remove', node: node(made.element) }] : [];
      const position = made.first ? 0 : made.host.children.filter((c) => typeof c !== 'string').length - 1;
      for (const element of elementsOf(made.element)) names.of.set(element.id, names.next++);
      return [...removed, { op: 'insert', parent: node(made.host), position, html: elementHtml(made.element) }];
    }
    case 'remove':
      return [{ op: 'remove', node: node(made.element) }];
    case 'style':
      return made.declarations.map(([property, value]) => ({ op: 'style', node: node(made.element), property, value }));
    case 'unstyle':
      return [{ op: 'style', node: node(made.element), property: made.property, value: null }];
    case 'text':
      return [{ op: 'text', node: node(made.element), value: made.text }];
  }
}

function byId(element: ElementNode): string {
  return `document.getElementById(${JSON.stringify(element.id)})`;
}

/** Puts `element` first (answering true) or last among `parent`'s children. */
function attach(random: Random, parent: ElementNode, element: ElementNode): boolean {
  const first = random.chance(0.3);
  if (first) parent.children.unshift(element);
  else parent.children.push(element);
  return first;
}

function detach(root: ElementNode, element: ElementNode): void {
  for (const parent of elementsOf(root)) {
    const at = parent.children.indexOf(element);
    if (at >= 0) {
      parent.children.splice(at, 1);
      return;
    }
  }
}
