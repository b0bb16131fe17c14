// A case's document as the browsers build it: parse5 is the HTML5 tree builder they implement, so
// its elements are the ones a dump lists, in the same (document) order, with the same tag names.
import { parse, type DefaultTreeAdapterMap } from 'parse5';

type ParsedNode = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['parentNode'];

const HTML_NS = 'http://www.w3.org/1999/xhtml';

export interface Element {
  /** Its position in document order, the dump's node index. */
  readonly index: number;
  readonly parent: Element | null;
  /** As the DOM reports it: upper-case for HTML elements, as written for SVG and MathML. */
  readonly tag: string;
  /** The local name, lower-case for HTML elements. */
  readonly name: string;
  readonly html: boolean;
  readonly attributes: ReadonlyMap<string, string>;
  /** Elements and text, in order (comments left out). */
  readonly children: (Element | Text)[];
  /** The element's classes, from its class attribute. */
  readonly classes: ReadonlySet<string>;
}

export interface Text {
  readonly text: string;
}

export interface Document {
  /** The document's mode, as the parser set it from the doctype. */
  readonly mode: 'no-quirks' | 'quirks' | 'limited-quirks';
  /** Every element, in document order. */
  readonly elements: readonly Element[];
  readonly root: Element;
  /** The texts of its HTML `<style>` elements, in document order. */
  readonly styleSheets: readonly string[];
  /** The hrefs of its `<link rel=stylesheet>` elements, in document order. */
  readonly links: readonly string[];
}

export const isElement = (node: Element | Text): node is Element => 'tag' in node;

export function parseDocument(html: string): Document {
  const document = parse(html);
  const elements: Element[] = [];
  const styleSheets: string[] = [];
  const links: string[] = [];
  const visit = (node: ParsedNode, parent: Element | null, into: (Element | Text)[]): void => {
    if (node.nodeName === '#text') {
      into.push({ text: (node as DefaultTreeAdapterMap['textNode']).value });
      return;
    }
    if (!('tagName' in node)) return;
    const attributes = new Map(node.attrs.map((a) => [a.name, a.value]));
    const html = node.namespaceURI === HTML_NS;
    const element: Element = {
      index: elements.length,
      parent,
      tag: html ? node.tagName.toUpperCase() : node.tagName,
      name: node.tagName,
      html,
      attributes,
      children: [],
      classes: new Set((attributes.get('class') ?? '').split(/[ \t\n\f\r]+/).filter(Boolean)),
    };
    elements.push(element);
    into.push(element);
    if (html && node.tagName === 'style') {
      styleSheets.push(node.childNodes.map((c) => (c.nodeName === '#text' ? (c as DefaultTreeAdapterMap['textNode']).value : '')).join(''));
    }
    const rel = (attributes.get('rel') ?? '').toLowerCase().split(/\s+/);
    if (html && node.tagName === 'link' && rel.includes('stylesheet') && attributes.has('href')) links.push(attributes.get('href')!);
    // A template's content is a fragment of its own, outside the document tree (and the dump).
    for (const child of node.childNodes) visit(child, element, element.children);
  };
  for (const child of document.childNodes) visit(child, null, []);
  return { mode: document.mode, elements, root: elements[0]!, styleSheets, links };
}
