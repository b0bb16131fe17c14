// A case's `script`: DOM changes made after the document has been laid out once, so that each
// engine has to relayout incrementally what it laid out before. Plain DOM only; one change a
// line, each naming elements by id, so a reducer can drop lines. The generator tracks the tree
// as it changes, so that no line names a removed element or moves one into itself.
import { BOX, displaysFor, TEXT } from './css-values.js';
import { drawElement, drawSupported } from './element.js';
import { hasInlineTrouble, hostFor } from './inline-boxes.js';
import type { Random, Weighted } from './random.js';
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

/** Changes drawn again when they would put a block inside an inline box or empty one; after that, an insert, which never does. */
const RETRIES = 8;

/** A script of 1 to MAX_SCRIPT_CHANGES changes to the tree under `root`, which it updates to match. */
export function drawScript(random: Random, root: ElementNode, context: ScriptContext): string {
  const lines = [FORCE_LAYOUT];
  const changes = random.int(1, MAX_SCRIPT_CHANGES);
  for (let i = 0; i < changes; i++) {
    let made: string[] | undefined;
    for (let attempt = 0; !made; attempt++) {
      const before = structuredClone(root);
      made = change(random, root, context, attempt < RETRIES ? undefined : 'insert');
      if (hasInlineTrouble(root)) {
        Object.assign(root, before);
        made = undefined;
      }
    }
    lines.push(...made);
    if (i < changes - 1 && random.chance(0.3)) lines.push(FORCE_LAYOUT);
  }
  return lines.join('\n');
}

/** One change, applied to the model, and its lines. */
function change(random: Random, root: ElementNode, context: ScriptContext, forced?: Change): string[] {
  const all = elementsOf(root);
  const movable = all.slice(1);
  let kind = forced ?? random.weighted(CHANGES);
  if (kind === 'text' && !context.text) kind = 'insert';
  if (kind === 'unstyle' && !movable.some((element) => element.declarations.length > 0)) kind = 'style';
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
      const first = attach(random, host, element);
      return [
        `${byId(host)}.insertAdjacentHTML(${JSON.stringify(first ? 'afterbegin' : 'beforeend')}, ${JSON.stringify(elementHtml(element))});`,
      ];
    }
    case 'remove': {
      const element = random.pick(movable);
      detach(root, element);
      return [`${byId(element)}.remove();`];
    }
    case 'move': {
      const element = random.pick(movable);
      const inside = new Set(elementsOf(element));
      const parent = random.pick(all.filter((candidate) => !inside.has(candidate)));
      detach(root, element);
      const host = hostFor(root, parent, element);
      const first = attach(random, host, element);
      return [`${byId(host)}.${first ? 'prepend' : 'append'}(${byId(element)});`];
    }
    case 'style': {
      const element = random.pick(movable);
      const { supported } = context;
      const displays = displaysFor(context.text).filter(([, d]) => supported?.admits('display', d) ?? true);
      const parentPositioned = isPositioned(all.find((p) => p.children.includes(element)) ?? root);
      const declarations = random.chance(0.3)
        ? [['display', random.weighted(displays)] as const]
        : drawSupported(random, random.pick(context.text ? [...BOX, ...TEXT] : BOX), supported, parentPositioned);
      element.declarations.push(...declarations);
      return declarations.map(
        ([property, value]) => `${byId(element)}.style.setProperty(${JSON.stringify(property)}, ${JSON.stringify(value)});`,
      );
    }
    case 'unstyle': {
      const element = random.pick(movable.filter((candidate) => candidate.declarations.length > 0));
      const [property] = random.pick(element.declarations);
      element.declarations = element.declarations.filter(([name]) => name !== property);
      return [`${byId(element)}.style.removeProperty(${JSON.stringify(property)});`];
    }
    case 'text': {
      const element = random.pick(all);
      const text = words(random, random.int(1, 6), { plain: context.supported !== undefined });
      element.children.push(text);
      return [`${byId(element)}.append(${JSON.stringify(text)});`];
    }
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
