// A case's document as the browsers build it: parse5 is the HTML5 tree builder they implement, so
// its elements are the ones a dump lists, in the same (document) order, with the same tag names.
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import type { Site } from '../../protocol/site-schema.js';

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
  /** Its style sheets in document order: an HTML `<style>` element's text, or a `<link rel=stylesheet>`'s (links.ts). */
  readonly styleSheets: readonly (string | StyleLink)[];
  /** What in the markup runs script in a browser (the first found), or null: the browsers run it, the candidates cannot. */
  readonly script: string | null;
  /** Where the page is served and the files beside it (the case's `site`): what its links load. */
  readonly site: Site | undefined;
}

/** A `<link rel=stylesheet>`: what it loads, and its `media` (null when it has none). */
export interface StyleLink {
  readonly href: string;
  readonly media: string | null;
}

/** The style sheet `element` links, if it is a `<link>` that loads one (not an alternate sheet, not another type). */
export function styleLink(element: Element): StyleLink | null {
  const rel = (element.attributes.get('rel') ?? '').toLowerCase().split(/[ \t\n\f\r]+/);
  const type = element.attributes.get('type')?.trim().toLowerCase() ?? '';
  const href = element.attributes.get('href');
  if (!element.html || element.name !== 'link' || !rel.includes('stylesheet') || rel.includes('alternate') || href === undefined)
    return null;
  if (type !== '' && type !== 'text/css') return null;
  return { href, media: element.attributes.get('media') ?? null };
}

/** The `type` values under which a `<script>` element runs as JavaScript (the HTML standard's JavaScript MIME types, and module). */
const SCRIPT_TYPE = /^(|module|(text|application)\/(x-)?(java|ecma)script|text\/(javascript1\.[0-5]|jscript|livescript))$/i;

/** Why the element runs script, or null. */
function scriptOf(element: Element, text: () => string): string | null {
  if (element.html && element.name === 'script') {
    const type = element.attributes.get('type')?.trim() ?? '';
    if (SCRIPT_TYPE.test(type) && (element.attributes.has('src') || text().trim())) return 'element: SCRIPT';
  }
  for (const [name, value] of element.attributes) {
    if (/^on/i.test(name)) return `attribute: ${name} on ${element.tag}`;
    if (/^\s*javascript:/i.test(value) && /^(href|src|action|formaction)$/i.test(name))
      return `attribute: ${name}="javascript:…" on ${element.tag}`;
  }
  return null;
}

export const isElement = (node: Element | Text): node is Element => 'tag' in node;

export function parseDocument(html: string, site?: Site): Document {
  const document = parse(html);
  const elements: Element[] = [];
  const styleSheets: (string | StyleLink)[] = [];
  let script: string | null = null;
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
    const text = () => node.childNodes.map((c) => (c.nodeName === '#text' ? (c as DefaultTreeAdapterMap['textNode']).value : '')).join('');
    if (html && node.tagName === 'style') styleSheets.push(text());
    script ??= scriptOf(element, text);
    const link = styleLink(element);
    if (link) styleSheets.push(link);
    // A template's content is a fragment of its own, outside the document tree (and the dump).
    for (const child of node.childNodes) visit(child, element, element.children);
  };
  for (const child of document.childNodes) visit(child, null, []);
  return { mode: document.mode, elements, root: elements[0]!, styleSheets, script, site };
}
