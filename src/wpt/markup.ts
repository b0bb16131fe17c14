// What the importer reads of a test page's markup, shared by the trace route (convert.ts) and the
// layout route (layout.ts): its elements, what they load, and the URLs they name resolved to paths
// of the checkout.
import type { DefaultTreeAdapterTypes as T } from 'parse5';
import { Checkout } from './checkout.js';
import { Refusal } from './refusal.js';

/** The script types that are classic JavaScript. */
export const JS_TYPES = new Set([
  '',
  'text/javascript',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/x-ecmascript',
  'text/ecmascript',
  'text/jscript',
  'text/livescript',
]);

/** The attributes that make an element load something, by tag. */
export const LOADING_ATTRIBUTES: Record<string, string[]> = {
  iframe: ['src'],
  frame: ['src'],
  img: ['src'],
  embed: ['src'],
  object: ['data'],
  source: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  track: ['src'],
  input: ['src'],
  link: ['href'],
};
/** The <link> relations that load their href. */
export const LOADING_LINKS = new Set(['stylesheet', 'preload', 'modulepreload', 'prefetch', 'icon', 'manifest']);

/**
 * The path in the checkout of a URL the page at `base` loads; null when it loads nothing from a
 * server (data:, a fragment, …); a Refusal (returned) for another origin, https, a WebSocket or a pipe.
 */
export function resolveUrl(raw: string, base: URL, what: string): string | null | Refusal {
  const value = raw.trim();
  if (!value || value.startsWith('#') || /^(data|blob|javascript|about|mailto):/i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.protocol === 'https:' || url.protocol === 'wss:') return new Refusal('https', `${what} loads over ${url.protocol.slice(0, -1)}`);
  if (url.protocol === 'ws:') return new Refusal('server_side', `${what} opens a WebSocket to wptserve`);
  if (url.protocol !== 'http:') return null;
  const path = Checkout.pathOfUrl(url);
  if (path === null) return new Refusal('other_origin', `${what} loads from ${url.origin}`);
  if (/(^|&)pipe=/.test(url.search.slice(1))) return new Refusal('server_side', `${what} asks wptserve for a pipe (${url.search})`);
  return path;
}

export function isElement(node: T.Node): node is T.Element {
  return 'tagName' in node;
}

/** Every node below `parent` in tree order (a template's content left out: it is inert). */
export function* nodesOf(parent: T.ParentNode): Generator<T.ChildNode> {
  for (const child of parent.childNodes) {
    yield child;
    if (isElement(child)) yield* nodesOf(child);
  }
}

export const elementsOf = (parent: T.ParentNode): T.Element[] => [...nodesOf(parent)].filter(isElement);

export function attribute(element: T.Element, name: string): string | null {
  return element.attrs.find((a) => a.name === name)?.value ?? null;
}

export const relTokens = (element: T.Element) => new Set((attribute(element, 'rel') ?? '').toLowerCase().split(/[\t\n\f\r ]+/));

export const textOf = (element: T.Element) =>
  element.childNodes.map((n) => (n.nodeName === '#text' ? (n as T.TextNode).value : '')).join('');
