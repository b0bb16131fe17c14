// A case's `mutations` (docs/protocol.md, "Mutations") applied to a reference candidate's document:
// the mutated document as the browsers' DOM has it once the oracle's script ran, its elements
// renumbered in document order (the dump's indices), each with its name (the index the mutations
// call it by: its index in the original document, or the one its insert gave it). The names are
// what an engine keeps its nodes by between the first layout and the one after the mutations.
import { parseMutationFragment, type FragmentElement } from '../protocol/mutation-check.js';
import type { Mutation } from '../protocol/mutations-schema.js';
import { isElement, styleLink, type Document, type Element, type Text } from './web/document.js';

/** A mutated document, and each of its elements' names. */
export interface Mutated {
  document: Document;
  names: ReadonlyMap<Element, number>;
}

/** An element while mutations apply to it. */
interface Draft {
  name: number;
  tag: string;
  name_: string;
  html: boolean;
  attributes: Map<string, string>;
  children: (Draft | Text)[];
  parent: Draft | null;
}

/** `document` with `mutations` applied, in order; the request was checked (mutationsProblem), so each names an element that is there. */
export function applyMutations(document: Document, mutations: readonly Mutation[]): Mutated {
  const byName: Draft[] = [];
  const draft = (element: Element, parent: Draft | null): Draft => {
    const d: Draft = {
      name: element.index,
      tag: element.tag,
      name_: element.name,
      html: element.html,
      attributes: new Map(element.attributes),
      children: [],
      parent,
    };
    byName[element.index] = d;
    d.children = element.children.map((c) => (isElement(c) ? draft(c, d) : { text: c.text }));
    return d;
  };
  const root = draft(document.root, null);
  const elementChildren = (d: Draft) => d.children.filter((c): c is Draft => 'name_' in c);
  for (const m of mutations) {
    if (m.op === 'insert') {
      const parent = byName[m.parent]!;
      const added = fromFragment(parseMutationFragment(m.html) as FragmentElement, parent, byName);
      const before = elementChildren(parent)[m.position];
      parent.children.splice(before ? parent.children.indexOf(before) : parent.children.length, 0, added);
      continue;
    }
    const d = byName[m.node]!;
    switch (m.op) {
      case 'style':
        setStyle(d, m.property, m.value);
        break;
      case 'attribute':
        if (m.value === null) d.attributes.delete(m.name);
        else d.attributes.set(m.name, m.value);
        break;
      case 'remove':
        d.parent!.children.splice(d.parent!.children.indexOf(d), 1);
        break;
      case 'text':
        d.children = m.value === '' ? [] : [{ text: m.value }];
        break;
    }
  }
  return finished(root, document);
}

function fromFragment(f: FragmentElement, parent: Draft, byName: Draft[]): Draft {
  const d: Draft = {
    name: byName.length,
    tag: f.tag.toUpperCase(),
    name_: f.tag,
    html: true,
    attributes: new Map(f.attributes),
    children: [],
    parent,
  };
  byName.push(d);
  d.children = f.children.map((c) => (typeof c === 'string' ? { text: c } : fromFragment(c, d, byName)));
  return d;
}

/**
 * A property of the style attribute set or removed, as CSSOM's setProperty and removeProperty
 * leave the attribute: the declaration takes the place of the one it replaces, or goes last.
 */
function setStyle(d: Draft, property: string, value: string | null): void {
  const declarations = (d.attributes.get('style') ?? '')
    .split(';')
    .map((text) => text.trim())
    .filter(Boolean)
    .map((text) => [text.slice(0, text.indexOf(':')).trim().toLowerCase(), text.slice(text.indexOf(':') + 1).trim()] as [string, string])
    .filter(([name]) => name !== '');
  const at = declarations.findIndex(([name]) => name === property);
  if (value === null) {
    if (at >= 0) declarations.splice(at, 1);
  } else if (at >= 0) declarations[at] = [property, value];
  else declarations.push([property, value]);
  d.attributes.set('style', declarations.map(([name, v]) => `${name}: ${v};`).join(' '));
}

/**
 * The draft as a document: elements numbered in document order, style sheets and stylesheet links
 * read again; its script and site are the original's (a case whose markup runs script is refused before its mutations).
 */
function finished(root: Draft, { mode, script, site }: Document): Mutated {
  const elements: Element[] = [];
  const styleSheets: Document['styleSheets'][number][] = [];
  const names = new Map<Element, number>();
  const build = (d: Draft, parent: Element | null): Element => {
    const element: Element = {
      index: elements.length,
      parent,
      tag: d.tag,
      name: d.name_,
      html: d.html,
      attributes: d.attributes,
      children: [],
      classes: new Set((d.attributes.get('class') ?? '').split(/[ \t\n\f\r]+/).filter(Boolean)),
    };
    elements.push(element);
    names.set(element, d.name);
    if (d.html && d.name_ === 'style') styleSheets.push(d.children.map((c) => ('text' in c ? c.text : '')).join(''));
    const link = styleLink(element);
    if (link) styleSheets.push(link);
    for (const c of d.children) element.children.push('name_' in c ? build(c, element) : c);
    return element;
  };
  const documentRoot = build(root, null);
  return { document: { mode, elements, root: documentRoot, styleSheets, script, site }, names };
}
