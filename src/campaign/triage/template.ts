// A finding's template: what is left of a reduced case — its elements, their display types, the
// declarations they keep, each value generalized to its kind — as a structure (to match other cases
// against, match.ts) and as one line of text (its name in a summary, and its identity). The text:
//
//   span{display:inline-block} > div > div{writing-mode:vertical-lr} > span{display:grid; margin:<length> 0}!
//   section{writing-mode:vertical-rl} > (b{display:grid} > div{position:fixed}!, div{padding:<length>})
//
// `a > b` is an element and its one child, `a > (b, c)` its children; `html` and `body` are written
// only when something of theirs remains. `"…"` marks an element holding text, `!` the element where
// the engines' difference starts (the node the reduced case's signature names). A value keeps its
// keywords and functions and turns each number into its kind: 0, <length>, <percent>, <number>,
// <flex>, <dimension> (a minus sign kept), a string into <string>, a hex colour into <color>.
// What the structure does not hold (a script, a style sheet, an attribute other than style and id)
// is named after the tree (` + script`): such a template is exact, matched only by its text.
import { parse as parseCss } from 'postcss';
import valueParser from 'postcss-value-parser';
import { defaultTreeAdapter as tree, parse, type DefaultTreeAdapterTypes as T } from 'parse5';

interface TemplateDeclaration {
  property: string;
  /** The value generalized to its kind (see the file comment). */
  value: string;
}

export interface TemplateNode {
  tag: string;
  /** The display it declares, when it declares one. */
  display: string | null;
  /** Its other declarations, in order. */
  declarations: TemplateDeclaration[];
  /** It holds text of its own. */
  text: boolean;
  /** The engines' difference starts here. */
  starts: boolean;
  children: TemplateNode[];
}

export interface Template {
  /** The `html` element; its one child is `body` (the head is not part of a template). */
  root: TemplateNode;
  /** What the structure does not hold: `script`, `stylesheet`, `attribute <name>` … Non-empty: matched by text only. */
  extras: string[];
  /** The one-line text. */
  text: string;
}

/** The elements of a parsed document in a dump's order: document order, `<html>` first, template contents left out. */
export function elementsInDumpOrder(doc: T.Document): T.Element[] {
  const found: T.Element[] = [];
  const visit = (node: T.ParentNode) => {
    for (const child of tree.getChildNodes(node)) {
      if (!tree.isElementNode(child)) continue;
      found.push(child);
      visit(child);
    }
  };
  visit(doc);
  return found;
}

const BLOCK_TAGS = new Set(['html', 'body', 'div', 'section', 'article', 'aside', 'nav', 'header', 'footer', 'main', 'p']);
const INLINE_TAGS = new Set(['span', 'b', 'i', 'em', 'strong', 'a', 'u', 's']);

/** What an element is laid out as: the display it declares, else its tag's (block, inline, or the tag itself for any other). */
export function displayType(tag: string, declared: string | null): string {
  if (declared !== null) return declared;
  return BLOCK_TAGS.has(tag) ? 'block' : INLINE_TAGS.has(tag) ? 'inline' : tag;
}

/** CSS's length units (a number in any of them is a `<length>`). */
const LENGTH_UNITS = new Set('px em rem ex ch cap ic lh rlh vw vh vi vb vmin vmax cm mm q in pt pc cqw cqh cqi cqb cqmin cqmax'.split(' '));

function numberKind(value: number, unit: string): string {
  if (value === 0) return '0';
  const u = unit.toLowerCase();
  const kind = u === '' ? 'number' : u === '%' ? 'percent' : u === 'fr' ? 'flex' : LENGTH_UNITS.has(u) ? 'length' : 'dimension';
  return `${value < 0 ? '-' : ''}<${kind}>`;
}

function generalizeNodes(nodes: valueParser.Node[]): string {
  return nodes
    .map((n) => {
      switch (n.type) {
        case 'word': {
          const unit = /^[-+]?(\d|\.\d)/.test(n.value) ? valueParser.unit(n.value) : false;
          if (unit) return numberKind(Number(unit.number), unit.unit);
          return /^#[0-9a-f]{3,8}$/i.test(n.value) ? '<color>' : n.value.toLowerCase();
        }
        case 'function':
          return `${n.value.toLowerCase()}(${generalizeNodes(n.nodes)})`;
        case 'string':
          return '<string>';
        case 'space':
          return ' ';
        case 'div':
          return n.value === ',' ? ', ' : ` ${n.value} `;
        default:
          return '';
      }
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A declaration's value generalized to its kind: `28px 13px 0px` → `<length> <length> 0`. */
export function generalizeValue(value: string, important = false): string {
  return generalizeNodes(valueParser(value).nodes) + (important ? ' !important' : '');
}

/** The declarations of a `style` attribute, in order (none when postcss cannot read it). */
export function styleDeclarations(style: string): { property: string; value: string; important: boolean }[] {
  try {
    const found: { property: string; value: string; important: boolean }[] = [];
    parseCss(style).walkDecls((d) => void found.push({ property: d.prop.toLowerCase(), value: d.value, important: d.important === true }));
    return found;
  } catch {
    return [];
  }
}

const attribute = (e: T.Element, name: string) => e.attrs.find((a) => a.name === name && !a.namespace)?.value;

/** An element's own text: a text node among its children. */
export const holdsText = (e: T.Element): boolean => tree.getChildNodes(e).some((c) => tree.isTextNode(c) && c.value.length > 0);

/** The node of one element, without its children. */
function nodeOf(e: T.Element, starts: boolean): TemplateNode {
  let display: string | null = null;
  const declarations: TemplateDeclaration[] = [];
  for (const d of styleDeclarations(attribute(e, 'style') ?? '')) {
    if (d.property === 'display') display = generalizeValue(d.value, d.important);
    else declarations.push({ property: d.property, value: generalizeValue(d.value, d.important) });
  }
  return { tag: e.tagName.toLowerCase(), display, declarations, text: holdsText(e), starts, children: [] };
}

/**
 * The template of a reduced case: its `html` (a whole document), whether its request has a
 * `script`, and the index (in a dump's order) of the node where its engines' difference starts.
 */
export function deriveTemplate(
  html: string,
  { script = false, starts = null }: { script?: boolean; starts?: number | null } = {},
): Template {
  const doc = parse(html);
  const order = elementsInDumpOrder(doc);
  const startsAt = starts === null ? undefined : order[starts];
  const extras = new Set<string>();
  if (script) extras.add('script');
  const build = (e: T.Element): TemplateNode => {
    const node = nodeOf(e, e === startsAt);
    for (const a of e.attrs) if (a.namespace || (a.name !== 'style' && a.name !== 'id')) extras.add(`attribute ${a.name}`);
    for (const child of tree.getChildNodes(e)) {
      if (!tree.isElementNode(child)) continue;
      const tag = child.tagName.toLowerCase();
      if (tag === 'head') {
        for (const h of tree.getChildNodes(child))
          if (tree.isElementNode(h) && h.tagName !== 'meta' && h.tagName !== 'title')
            extras.add(h.tagName === 'style' ? 'stylesheet' : `head ${h.tagName}`);
        continue;
      }
      if (tag === 'style') extras.add('stylesheet');
      else if (tag === 'script') extras.add('script element');
      node.children.push(build(child));
    }
    return node;
  };
  const root = build(order[0]!);
  return { root, extras: [...extras].sort(), text: templateText(root, [...extras].sort()) };
}

/** The text of a node and what is below it. */
function nodeText(n: TemplateNode): string {
  const declarations = [...(n.display === null ? [] : [`display:${n.display}`]), ...n.declarations.map((d) => `${d.property}:${d.value}`)];
  const own = `${n.tag}${declarations.length ? `{${declarations.join('; ')}}` : ''}${n.text ? ' "…"' : ''}${n.starts ? '!' : ''}`;
  return n.children.length ? `${own} > ${listText(n.children)}` : own;
}

const listText = (nodes: TemplateNode[]): string => (nodes.length === 1 ? nodeText(nodes[0]!) : `(${nodes.map(nodeText).join(', ')})`);

/** Whether `html` or `body` shows in the text: only when something of its own remains. */
const shows = (n: TemplateNode) => n.display !== null || n.declarations.length > 0 || n.text || n.starts;

/** The one-line text of a template (see the file comment). */
function templateText(root: TemplateNode, extras: readonly string[]): string {
  // parse5 always makes a body: the html element's one child once the head is left out.
  const body = root.children.find((c) => c.tag === 'body')!;
  const below = body.children.length ? listText(body.children) : '';
  // `html` shows its one child, `body`, by name, so that the text reads back to the same tree.
  let text = below && !shows(body) && !shows(root) ? below : nodeText(body);
  if (shows(root)) text = `${nodeText({ ...root, children: [] })} > ${text}`;
  return [text, ...extras].join(' + ');
}

/** Every node of a template below `body`, in document order (pre-order). */
export function bodyNodes(t: Template): TemplateNode[] {
  const found: TemplateNode[] = [];
  const visit = (n: TemplateNode) => {
    found.push(n);
    n.children.forEach(visit);
  };
  templateBody(t).children.forEach(visit);
  return found;
}

/** A template's `body` node. */
export const templateBody = (t: Template): TemplateNode => t.root.children.find((c) => c.tag === 'body')!;

/** A template read back from its text (a known difference names one so); a TemplateSyntaxError says where it is wrong. */
export function parseTemplate(text: string): Template {
  const [treeText, ...extras] = text.split(' + ');
  const reader = new TemplateReader(treeText!);
  const top = reader.list();
  reader.end();
  const blank = (tag: string, children: TemplateNode[]): TemplateNode => ({
    tag,
    display: null,
    declarations: [],
    text: false,
    starts: false,
    children,
  });
  let root: TemplateNode;
  if (top.length === 1 && top[0]!.tag === 'html') root = top[0]!;
  else if (top.length === 1 && top[0]!.tag === 'body') root = blank('html', top);
  else root = blank('html', [blank('body', top)]);
  if (root.children.length !== 1 || root.children[0]!.tag !== 'body') throw new TemplateSyntaxError('html holds one body', 0);
  return { root, extras, text: templateText(root, extras) };
}

export class TemplateSyntaxError extends Error {
  override name = 'TemplateSyntaxError';
  constructor(
    expected: string,
    readonly at: number,
  ) {
    super(`not a template: ${expected} at character ${at + 1}`);
  }
}

/** A recursive-descent reader of a template's tree text. */
class TemplateReader {
  private at = 0;

  constructor(private readonly text: string) {}

  list(): TemplateNode[] {
    if (!this.take('(')) return [this.node()];
    const nodes = [this.node()];
    while (this.take(', ')) nodes.push(this.node());
    this.expect(')');
    return nodes;
  }

  end(): void {
    if (this.at !== this.text.length) throw new TemplateSyntaxError('the end', this.at);
  }

  private node(): TemplateNode {
    const tag = /^[a-z][a-z0-9-]*/i.exec(this.text.slice(this.at))?.[0];
    if (!tag) throw new TemplateSyntaxError('a tag name', this.at);
    this.at += tag.length;
    const node: TemplateNode = { tag: tag.toLowerCase(), display: null, declarations: [], text: false, starts: false, children: [] };
    if (this.take('{')) {
      const close = this.text.indexOf('}', this.at);
      if (close < 0) throw new TemplateSyntaxError('"}"', this.at);
      for (const declaration of this.text.slice(this.at, close).split('; ')) {
        const colon = declaration.indexOf(':');
        if (colon <= 0) throw new TemplateSyntaxError('property:value', this.at);
        const property = declaration.slice(0, colon).trim().toLowerCase();
        const value = declaration.slice(colon + 1).trim();
        if (property === 'display') node.display = value;
        else node.declarations.push({ property, value });
      }
      this.at = close + 1;
    }
    node.text = this.take(' "…"');
    node.starts = this.take('!');
    if (this.take(' > ')) node.children = this.list();
    return node;
  }

  private take(token: string): boolean {
    if (!this.text.startsWith(token, this.at)) return false;
    this.at += token.length;
    return true;
  }

  private expect(token: string): void {
    if (!this.take(token)) throw new TemplateSyntaxError(`"${token}"`, this.at);
  }
}
