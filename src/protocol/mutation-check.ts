// What the schema cannot say about a case's `mutations`: that each names an element the document
// has at that point (the original's elements by document order, an insert's by the next unused
// indices), and that each inserted fragment is one element of the inert set. The document is
// parsed as the browsers parse it (parse5 is the HTML tree builder they implement, so its
// elements are the ones a dump lists, in the same order). The fragment, parsed once here, is what
// the browsers' script builds element by element (src/page/mutation-script.ts) and what a
// reference candidate inserts: never markup handed to a parser in the page.
import { parse, parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import type { Mutation } from './mutations-schema.js';

type ParsedNode = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['parentNode'];

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** The elements a fragment may hold: inert ones, that load nothing, run nothing and parse the same in any parent. */
const FRAGMENT_TAGS: ReadonlySet<string> = new Set(
  'div span p section article aside header footer main nav ul ol li b i em strong small code pre h1 h2 h3 h4 h5 h6 br hr blockquote'.split(
    ' ',
  ),
);
/** The attributes a fragment's elements may carry. */
const FRAGMENT_ATTRIBUTES: ReadonlySet<string> = new Set(['class', 'id', 'style', 'dir', 'lang', 'title']);

/** An element of a fragment, as its parse gave it. */
export interface FragmentElement {
  /** The local name, lower case. */
  tag: string;
  attributes: [name: string, value: string][];
  /** Elements and texts, in order. */
  children: (FragmentElement | string)[];
}

/** A fragment's one element, or what is wrong with it (a sentence). */
export function parseMutationFragment(html: string): FragmentElement | string {
  const top = parseFragment(html).childNodes.filter((n) => n.nodeName !== '#comment');
  const elements = top.filter((n) => 'tagName' in n);
  const stray = top.find((n) => n.nodeName === '#text' && /[^ \t\n\f\r]/.test((n as DefaultTreeAdapterMap['textNode']).value));
  if (elements.length !== 1 || stray) return `must be one element (with its descendants), got ${describeTop(elements.length, !!stray)}`;
  return fragmentElement(elements[0] as DefaultTreeAdapterMap['element']);
}

function describeTop(elements: number, text: boolean): string {
  const parts = [`${elements} element${elements === 1 ? '' : 's'}`, ...(text ? ['text outside them'] : [])];
  return parts.join(' and ');
}

function fragmentElement(node: DefaultTreeAdapterMap['element']): FragmentElement | string {
  if (node.namespaceURI !== HTML_NS || !FRAGMENT_TAGS.has(node.tagName))
    return `<${node.tagName}> is not one of ${[...FRAGMENT_TAGS].join(', ')}`;
  const attribute = node.attrs.find((a) => !FRAGMENT_ATTRIBUTES.has(a.name));
  if (attribute) return `attribute ${JSON.stringify(attribute.name)} is not one of ${[...FRAGMENT_ATTRIBUTES].join(', ')}`;
  const children: FragmentElement['children'] = [];
  for (const child of node.childNodes) {
    if (child.nodeName === '#text') children.push((child as DefaultTreeAdapterMap['textNode']).value);
    else if ('tagName' in child) {
      const element = fragmentElement(child);
      if (typeof element === 'string') return element;
      children.push(element);
    }
  }
  return { tag: node.tagName, attributes: node.attrs.map((a) => [a.name, a.value]), children };
}

/** An element as the check follows it: its parent, its element children, and why it is gone (the mutation that took it). */
interface Tracked {
  parent: number;
  children: number[];
  gone: string | null;
}

/**
 * Why `mutations` cannot apply to `html`, as `field "mutations[i]…": …`; null when each names an
 * element the document has when it applies and each fragment is one inert element.
 */
export function mutationsProblem(html: string, mutations: readonly Mutation[]): string | null {
  const nodes = documentElements(html);
  const original = nodes.length;
  const live = (i: number, field: string): string | null => {
    if (i >= nodes.length) {
      const inserted = nodes.length - original;
      return `field "${field}": no element ${i} (the document has ${original}${inserted ? `, and ${inserted} inserted` : ''})`;
    }
    const gone = nodes[i]!.gone;
    return gone ? `field "${field}": element ${i} is gone, ${gone}` : null;
  };
  const drop = (i: number, why: string) => {
    for (const c of nodes[i]!.children) if (!nodes[c]!.gone) drop(c, why);
    nodes[i]!.gone = why;
  };
  for (const [at, m] of mutations.entries()) {
    const field = `mutations[${at}]`;
    if (m.op === 'insert') {
      const problem = live(m.parent, `${field}.parent`);
      if (problem) return problem;
      const siblings = nodes[m.parent]!.children;
      if (m.position > siblings.length)
        return `field "${field}.position": element ${m.parent} has ${siblings.length} element children when it applies`;
      const fragment = parseMutationFragment(m.html);
      if (typeof fragment === 'string') return `field "${field}.html": ${fragment}`;
      const add = (element: FragmentElement, parent: number, position: number) => {
        const index = nodes.length;
        nodes.push({ parent, children: [], gone: null });
        nodes[parent]!.children.splice(position, 0, index);
        for (const child of element.children) if (typeof child !== 'string') add(child, index, nodes[index]!.children.length);
      };
      add(fragment, m.parent, m.position);
      continue;
    }
    const problem = live(m.node, `${field}.node`);
    if (problem) return problem;
    if (m.op === 'remove') {
      if (nodes[m.node]!.parent < 0) return `field "${field}.node": the root element cannot be removed`;
      const parent = nodes[nodes[m.node]!.parent]!;
      parent.children.splice(parent.children.indexOf(m.node), 1);
      drop(m.node, `removed by ${field}`);
    } else if (m.op === 'text') {
      for (const c of nodes[m.node]!.children) drop(c, `its parent's text was set by ${field}`);
      nodes[m.node]!.children = [];
    }
  }
  return null;
}

/** The document's elements in document order, each with its parent and element children. */
function documentElements(html: string): Tracked[] {
  const nodes: Tracked[] = [];
  const visit = (node: ParsedNode, parent: number): void => {
    if (!('tagName' in node)) return;
    const index = nodes.length;
    nodes.push({ parent, children: [], gone: null });
    if (parent >= 0) nodes[parent]!.children.push(index);
    // A template's content is a fragment of its own, outside the document tree (and the dump).
    for (const child of node.childNodes) visit(child, index);
  };
  for (const child of parse(html).childNodes) visit(child, -1);
  return nodes;
}
