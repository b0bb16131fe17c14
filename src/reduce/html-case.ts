// A case's HTML as a parse5 tree, and back to text. Two kinds of `html` exist on the wire:
// a whole document (geometry, vote) and body markup (reflect, trace), which the oracle puts
// after `<!doctype html>`. Both are parsed as the page the engine will see, so the tree is the
// engine's DOM.
//
// Printing is parse5's serializer with two changes, both so the text means what it meant:
//   - the doctype is copied from the source verbatim: parse5 writes `<!DOCTYPE name>` and drops
//     public and system ids, which turns a quirks or limited-quirks doctype into a standards one;
//   - `<html>`, `<head>` and `<body>` tags are left out when they carry nothing and the shorter
//     text parses back to the same tree (checked by parsing it), so a reduced case reads as the
//     markup that matters.
import { defaultTreeAdapter, parse, serialize, serializeOuter, type DefaultTreeAdapterTypes as T } from 'parse5';
import type { Subject } from './pass.js';

/** Whether `html` is a whole document or body markup placed after `<!doctype html>`. */
export type HtmlKind = 'document' | 'body';

/** A parsed case: the tree, the text it came from, and how that text becomes a page. */
export interface HtmlDoc {
  readonly doc: T.Document;
  readonly source: string;
  readonly kind: HtmlKind;
}

const BODY_PREFIX = '<!doctype html>';
const STRUCTURAL = new Set(['html', 'head', 'body']);
const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** Parses `text` as the engine will: body markup goes after the oracle's `<!doctype html>`. */
export function parseHtml(text: string, kind: HtmlKind): HtmlDoc {
  const page = kind === 'body' ? BODY_PREFIX + text : text;
  return { doc: parse(page, { sourceCodeLocationInfo: true }), source: page, kind };
}

/** The document's quirks mode as parse5 determined it. */
export function modeOf(d: HtmlDoc): string {
  return d.doc.mode;
}

function doctypeText(d: HtmlDoc, node: T.DocumentType): string {
  if (d.kind === 'body') return ''; // the oracle's prefix supplies it
  const loc = node.sourceCodeLocation;
  if (!loc) throw new Error('internal: a parsed doctype has no source location');
  return d.source.slice(loc.startOffset, loc.endOffset);
}

function printFull(d: HtmlDoc): string {
  return d.doc.childNodes.map((n) => (n.nodeName === '#documentType' ? doctypeText(d, n as T.DocumentType) : serializeOuter(n))).join('');
}

/** The text without the structural tags, when the tree has nothing that needs them. */
function printCompact(d: HtmlDoc): string | undefined {
  const top = d.doc.childNodes.filter((n) => n.nodeName !== '#documentType');
  const root = top[0];
  if (top.length !== 1 || !isElement(root) || root.attrs.length > 0) return undefined;
  const [head, body] = root.childNodes;
  if (root.childNodes.length !== 2 || !isElement(head) || !isElement(body)) return undefined;
  if (head.tagName !== 'head' || body.tagName !== 'body' || head.attrs.length + body.attrs.length > 0) return undefined;
  const doctype = d.doc.childNodes.find((n) => n.nodeName === '#documentType') as T.DocumentType | undefined;
  return (doctype ? doctypeText(d, doctype) : '') + serialize(head) + serialize(body);
}

/** The case as text, as parse5 serializes the tree (see the file comment for the two changes). */
export function printHtml(d: HtmlDoc): string {
  const full = printFull(d);
  const compact = printCompact(d);
  if (compact === undefined) return full;
  return printFull(parseHtml(compact, d.kind)) === full ? compact : full;
}

/**
 * The text of `d` as it reads once parsed again: the form every case and trial is kept in,
 * so two texts of the same tree are the same string. Undefined when the text would parse in a
 * different quirks mode than `mode`.
 */
export function canonicalHtml(d: HtmlDoc, mode: string): string | undefined {
  const reparsed = parseHtml(printHtml(d), d.kind);
  return modeOf(reparsed) === mode ? printHtml(reparsed) : undefined;
}

/** Parsing and printing of `html` for the passes; trials whose mode is not `mode` print as undefined. */
export function htmlSubject(kind: HtmlKind, mode: string): Subject<HtmlDoc> {
  return { parse: (text) => parseHtml(text, kind), print: (d) => canonicalHtml(d, mode) };
}

/** Whether a node is an element. */
export function isElement(n: T.Node | undefined): n is T.Element {
  return n !== undefined && 'tagName' in n;
}

/** A node's children; a template's are in its content fragment. */
export function childrenOf(n: T.ParentNode): T.ChildNode[] {
  return n.nodeName === 'template' && 'content' in n ? (n as T.Template).content.childNodes : n.childNodes;
}

/** `<html>`, `<head>` and `<body>`: the parser recreates them, so they are never deleted. */
function isStructural(e: T.Element): boolean {
  return e.namespaceURI === HTML_NS && STRUCTURAL.has(e.tagName);
}

/** Every node below `root` in document order, each with its count of deletable element ancestors. */
export function walk(root: T.ParentNode, visit: (n: T.ChildNode, depth: number) => void, depth = 0): void {
  for (const child of childrenOf(root)) {
    visit(child, depth);
    if (isElement(child)) walk(child, visit, isStructural(child) ? depth : depth + 1);
  }
}

/** The deletable elements (all but html, head, body), in document order, with their depth. */
export function deletableElements(d: HtmlDoc): { element: T.Element; depth: number }[] {
  const found: { element: T.Element; depth: number }[] = [];
  walk(d.doc, (n, depth) => {
    if (isElement(n) && !isStructural(n)) found.push({ element: n, depth });
  });
  return found;
}

/** The number of elements in the page's DOM, html, head and body included (a dump's node count). */
export function countElements(d: HtmlDoc): number {
  let count = 0;
  walk(d.doc, (n) => {
    if (isElement(n)) count++;
  });
  return count;
}

/** Takes `n` out of the tree. */
export function detach(n: T.ChildNode): void {
  defaultTreeAdapter.detachNode(n);
}

/** Replaces `e` by its children, in place. */
export function hoist(e: T.Element): void {
  const parent = e.parentNode;
  if (!parent) return;
  for (const child of [...childrenOf(e)]) {
    defaultTreeAdapter.detachNode(child);
    defaultTreeAdapter.insertBefore(parent, child, e);
  }
  defaultTreeAdapter.detachNode(e);
}
