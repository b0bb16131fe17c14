// Whether a case holds an instance of a template, and the instance itself: the case kept to what
// the template names. An embedding maps each element of the template to an element of the case, in
// document order, keeping which element is inside which (elements between them may be dropped),
// each to one of the display the template's declares (any, when it declares none) that holds text
// where the template's does and declares each of its keywords: a declaration whose value is one keyword (writing-mode: vertical-lr, float: left,
// position: absolute, width: min-content) says what kind of layout it is, and must be there as it
// is. A declaration with numbers in it (a length, a percentage, a track list) is a magnitude, which
// another case may get from another property (a border where the template has a min-width): only
// `strict` matching, as a known difference does, asks for every declaration. The element where the template's difference starts goes to one of the case's failing
// elements, the one its signature names first.
//
// The instance is the case with every other element replaced by its elements, the head's content,
// attributes and text where the template has none dropped, and each element's declarations cut
// to its display and the properties the template names (`named`), or to those and the case's own
// magnitudes (`magnitudes`): the template with the case's values, which the engines then judge
// (triage.ts).
import { defaultTreeAdapter as tree, type DefaultTreeAdapterTypes as T } from 'parse5';
import { parse as parseCss } from 'postcss';
import { canonicalHtml, detach, hoist, modeOf, parseHtml } from '../../reduce/html-case.js';
import {
  bodyNodes,
  displayType,
  elementsInDumpOrder,
  generalizeValue,
  holdsText,
  styleDeclarations,
  templateBody,
  type Template,
  type TemplateNode,
} from './template.js';

/** A case's elements as matching reads them, in a dump's order. */
export interface CaseShape {
  html: string;
  elements: ShapeElement[];
  /** Where `body` is in `elements`. */
  body: number;
}

interface ShapeElement {
  display: string;
  /** Each property it declares, with its last value generalized. */
  declared: Map<string, string>;
  text: boolean;
  /** One past its last descendant in `elements`: element j is inside element i when i < j < end. */
  end: number;
}

/** An element of the template mapped to an element of the case, by their places in document order. */
export type Embedding = Map<TemplateNode, number>;

/** The shape of a case's html (a whole document). */
export function caseShape(html: string): CaseShape {
  const order = elementsInDumpOrder(parseHtml(html, 'document').doc);
  const index = new Map(order.map((e, i) => [e, i]));
  const elements = order.map((e): ShapeElement => {
    const declared = new Map<string, string>();
    let display: string | null = null;
    const style = e.attrs.find((a) => a.name === 'style' && !a.namespace)?.value ?? '';
    for (const d of styleDeclarations(style)) {
      const value = generalizeValue(d.value, d.important);
      if (d.property === 'display') display = value;
      declared.set(d.property, value);
    }
    return { display: displayType(e.tagName.toLowerCase(), display), declared, text: holdsText(e), end: 0 };
  });
  // Elements come in document order, so an element's subtree ends where the next element outside it begins.
  order.forEach((e, i) => {
    let last = e;
    for (let c = lastChildElement(last); c; c = lastChildElement(last)) last = c;
    elements[i]!.end = index.get(last)! + 1;
  });
  return { html, elements, body: order.findIndex((e) => e.tagName === 'body') };
}

function lastChildElement(e: T.Element): T.Element | undefined {
  return tree
    .getChildNodes(e)
    .filter((c): c is T.Element => tree.isElementNode(c))
    .at(-1);
}

/** Whether a value is one keyword, which a matching element must declare as it is. */
const isKeyword = (value: string) => /^[a-z][a-z-]*$/.test(value);

/**
 * Whether an element of the case can stand for a node of the template. A node that declares no
 * display stands for an element of any, strictly too: a reduction deletes a display declaration the
 * difference does not need, so the reduced case's default says nothing, and the case it was reduced
 * from, whose display it was, holds the finding's template.
 */
function fits(node: TemplateNode, e: ShapeElement, strict: boolean, checkDisplay = true): boolean {
  if (checkDisplay && node.display !== null && displayType(node.tag, node.display) !== e.display) return false;
  if (node.text && !e.text) return false;
  return node.declarations.every((d) => {
    const value = e.declared.get(d.property);
    return isKeyword(d.value) ? value === d.value : !strict || value !== undefined;
  });
}

export interface EmbeddingOptions {
  /** Every declaration of the template must be there, not only its keywords. */
  strict?: boolean;
  /** At most this many embeddings. */
  limit?: number;
  /** Tries before giving up. */
  steps?: number;
}

/**
 * The case's embeddings of the template, found in document order. `starts` are the elements (by
 * index in a dump's order) where the case's difference may start, the likeliest first: the
 * template's starting element must map to one of them (null: to any). None for an exact template
 * (one with extras).
 */
export function embeddings(t: Template, c: CaseShape, starts: readonly number[] | null, o: EmbeddingOptions = {}): Embedding[] {
  const { strict = false, limit = 3, steps = 20_000 } = o;
  if (t.extras.length > 0 || c.body < 0) return [];
  const body = templateBody(t);
  if (!fits(t.root, c.elements[0]!, strict, false) || !fits(body, c.elements[c.body]!, strict, false)) return [];
  const nodes = bodyNodes(t);
  const parent = new Map<TemplateNode, TemplateNode>();
  for (const n of [body, ...nodes]) for (const child of n.children) parent.set(child, n);
  const isAncestor = (a: TemplateNode, b: TemplateNode): boolean => {
    for (let p = parent.get(b); p; p = parent.get(p)) if (p === a) return true;
    return false;
  };
  const startNode = [t.root, body, ...nodes].find((n) => n.starts);
  const found: Embedding[] = [];
  const assigned: number[] = [];
  let budget = steps;
  /** Places nodes i… from element `from` on, the starting node pinned at element `pin` (null: anywhere). */
  const place = (i: number, from: number, pin: number | null): void => {
    if (found.length >= limit || budget <= 0) return;
    if (i === nodes.length) {
      found.push(new Map(nodes.map((n, k) => [n, assigned[k]!])));
      return;
    }
    const node = nodes[i]!;
    const up = parent.get(node)!;
    const inside = up === body ? c.body : assigned[nodes.indexOf(up)]!;
    // After every earlier node that is not its ancestor, whole subtree included.
    let first = Math.max(from, inside + 1);
    for (let k = 0; k < i; k++) if (!isAncestor(nodes[k]!, node)) first = Math.max(first, c.elements[assigned[k]!]!.end);
    const last = c.elements[inside]!.end;
    for (let e = first; e < last; e++) {
      if (--budget <= 0) return;
      if (pin !== null && !keepsPin(node, e, pin)) continue;
      if (!fits(node, c.elements[e]!, strict)) continue;
      assigned[i] = e;
      place(i + 1, e + 1, pin);
      if (found.length >= limit) return;
    }
  };
  /** Whether `node` at element `e` leaves room for the starting node at element `s`: the rest keep their order and nesting around it. */
  const keepsPin = (node: TemplateNode, e: number, s: number): boolean => {
    if (node === startNode) return e === s;
    const before = nodes.indexOf(node) < nodes.indexOf(startNode!);
    if (before) return isAncestor(node, startNode!) ? e < s && s < c.elements[e]!.end : c.elements[e]!.end <= s;
    return isAncestor(startNode!, node) ? s < e && e < c.elements[s]!.end : e >= c.elements[s]!.end;
  };
  if (!startNode || starts === null) place(0, c.body + 1, null);
  else if (startNode === t.root || startNode === body) {
    if (starts.includes(startNode === t.root ? 0 : c.body)) place(0, c.body + 1, null);
  } else for (const s of starts) place(0, c.body + 1, s);
  return found;
}

/** What an instance keeps of each element's declarations: its display and what the template names, and the case's magnitudes with `magnitudes`. */
export type InstanceKind = 'named' | 'magnitudes';

/**
 * The instance of the template an embedding finds in the case: its html, or undefined when that
 * text would parse in another quirks mode than the case's.
 */
export function instanceHtml(t: Template, c: CaseShape, embedding: Embedding, kind: InstanceKind = 'named'): string | undefined {
  const d = parseHtml(c.html, 'document');
  const order = elementsInDumpOrder(d.doc);
  const kept = new Map<T.Element, TemplateNode>([
    [order[0]!, t.root],
    [order[c.body]!, templateBody(t)],
  ]);
  for (const [node, at] of embedding) kept.set(order[at]!, node);
  // Children before their parents: an element that goes leaves its kept elements to its parent.
  for (const e of [...order].reverse()) {
    const node = kept.get(e);
    if (e.tagName === 'head') for (const child of [...tree.getChildNodes(e)]) detach(child);
    else if (!node) {
      for (const child of [...tree.getChildNodes(e)]) if (!tree.isElementNode(child)) detach(child);
      if (e.parentNode) hoist(e);
    } else keepNamed(e, node, kind);
  }
  for (const node of [...tree.getChildNodes(d.doc)]) if (tree.isCommentNode(node)) detach(node);
  return canonicalHtml(d, modeOf(d));
}

/** An element kept for `node`: its display and the properties `node` names (and its magnitudes), with their values; its text only where `node` holds text. */
function keepNamed(e: T.Element, node: TemplateNode, kind: InstanceKind): void {
  const named = new Set(['display', ...node.declarations.map((d) => d.property)]);
  const style = e.attrs.find((a) => a.name === 'style' && !a.namespace);
  e.attrs = [];
  if (style) {
    const css = parseCss(style.value);
    css.walkDecls((decl) => {
      const magnitude = kind === 'magnitudes' && !isKeyword(generalizeValue(decl.value));
      if (!named.has(decl.prop.toLowerCase()) && !magnitude) decl.remove();
    });
    const text = css.toString().trim();
    if (text) e.attrs.push({ name: 'style', value: text });
  }
  for (const child of [...tree.getChildNodes(e)]) if (tree.isCommentNode(child) || (tree.isTextNode(child) && !node.text)) detach(child);
}
