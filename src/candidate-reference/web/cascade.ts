// The cascade of a case's own CSS (its `<style>` elements and `style` attributes) over the
// browsers' default stylesheet, for the selector forms test suites use: type, universal, class,
// id and attribute selectors, compounds of them, selector lists, the four combinators, and the
// structural pseudo-classes :root, :first-child, :last-child, :only-child and :empty. Origin and
// importance, then specificity, then order decide. A selector it cannot match makes the case
// unsupported, when its rule sets anything that moves a box.
import { LRUCache } from 'lru-cache';
import postcss, { type ChildNode, type Declaration } from 'postcss';
import selectorParser from 'postcss-selector-parser';
import { isElement, type Document, type Element } from './document.js';
import { expand, NO_EFFECT, type Setting } from './properties.js';
import { Unsupported } from './unsupported.js';

interface Attribute {
  name: string;
  operator?: string;
  value?: string;
}

interface Compound {
  universal: boolean;
  tag?: string;
  ids: string[];
  classes: string[];
  attributes: Attribute[];
  pseudo: string[];
}

type Combinator = ' ' | '>' | '+' | '~';

interface Selector {
  /** Left to right; combinators[i] joins compounds[i] and compounds[i + 1]. */
  compounds: Compound[];
  combinators: Combinator[];
  specificity: number;
}

interface Rule {
  selectors: Selector[];
  settings: { setting: Setting; important: boolean; order: number }[];
}

/** Where a declaration comes from, weakest first. */
const Layer = { UserAgent: 0, Author: 1, AuthorImportant: 2 } as const;
type Layer = (typeof Layer)[keyof typeof Layer];

interface Candidate {
  layer: Layer;
  specificity: number;
  order: number;
  value: unknown;
}

/** A style attribute's declarations beat every selector. */
const INLINE = 1e9;
/** A reference to web-platform-tests' /fonts/ahem.css (its @font-face is Ahem's alone). */
const AHEM_SHEET = /^\s*(?:url\()?\s*['"]?\/fonts\/ahem\.css['"]?\s*\)?\s*$/i;

const STRUCTURAL = new Set([':root', ':first-child', ':last-child', ':only-child', ':empty']);
/** Pseudo-elements that never make a box the candidates lay out. */
const BOXLESS_PSEUDO_ELEMENTS = /^::?(selection|placeholder|backdrop|marker|file-selector-button|-webkit-[a-z-]+|-moz-[a-z-]+)$/;
const GENERATED = /^::?(before|after)$/;

export interface Cascaded {
  /** Every element's winning setting per property (longhands of Values, and properties the candidates do not model). */
  readonly settings: ReadonlyMap<Element, ReadonlyMap<string, unknown>>;
  /** The families the case's @font-face rules define, lower-case. */
  readonly fontFaces: ReadonlySet<string>;
}

/** A parsed stylesheet, or what makes it unsupported: cases of one suite share their base stylesheet, so each is parsed once. */
const SHEETS = new LRUCache<string, Sheet | Unsupported>({ max: 256 });
/** Parsed style attributes, for the same reason. */
const INLINE_STYLES = new LRUCache<string, Rule['settings'] | Unsupported>({ max: 4096 });
/**
 * Expanded declarations, by property and value: generated cases' style attributes are each new,
 * but made of declarations drawn from a small set, and expanding them was the cascade's largest cost.
 */
const DECLARATIONS = new Map<string, Map<string, Setting[]>>();
/**
 * How many DECLARATIONS holds; past the limit it starts afresh (what it holds is only ever a saving). Not
 * an LRUCache under one joined key: that cost the cascade a fifth more (candidate-stages, measured).
 */
let declarationCount = 0;
const DECLARATION_LIMIT = 32768;

/** Declarations of one sheet are ordered within it; sheets come this far apart. */
const SHEET_ORDER = 1e7;

function cached<T extends object>(cache: LRUCache<string, T | Unsupported>, key: string, make: () => T): T {
  let entry = cache.get(key);
  if (entry === undefined) {
    try {
      entry = make();
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      entry = error;
    }
    cache.set(key, entry);
  }
  if (entry instanceof Unsupported) throw entry;
  return entry;
}

export function cascade(document: Document, userAgentSheet: string): Cascaded {
  const fontFaces = new Set<string>();
  // A sheet the case does not carry loads in no browser either (nothing reaches the network); WPT's Ahem sheet is the square font.
  if (document.links.some((href) => AHEM_SHEET.test(href))) fontFaces.add('ahem');
  const sheets = [userAgentSheet, ...document.styleSheets].map((text, i) => {
    const sheet = cached(SHEETS, text, () => parseSheet(text));
    for (const family of sheet.fontFaces) fontFaces.add(family);
    return { layer: i === 0 ? Layer.UserAgent : Layer.Author, sheet, offset: i * SHEET_ORDER };
  });
  const result = new Map<Element, Map<string, unknown>>();
  for (const element of document.elements) {
    const winners = new Map<string, Candidate>();
    const offer = (property: string, candidate: Candidate) => {
      const current = winners.get(property);
      if (!current || beats(candidate, current)) winners.set(property, candidate);
    };
    for (const { layer, sheet, offset } of sheets) {
      const found = selectorsFor(sheet, element);
      // The selectors come grouped by rule, in sheet order; a rule applies at the highest specificity of those that match.
      for (let i = 0; i < found.length; ) {
        const at = found[i]!.rule;
        let specificity = -1;
        for (; i < found.length && found[i]!.rule === at; i++) {
          const { selector } = found[i]!;
          if (selector.specificity > specificity && matches(selector, selector.compounds.length - 1, element))
            specificity = selector.specificity;
        }
        if (specificity < 0) continue;
        for (const { setting, important, order } of sheet.rules[at]!.settings) {
          offer(setting.property, {
            layer: important ? Layer.AuthorImportant : layer,
            specificity,
            order: offset + order,
            value: setting.value,
          });
        }
      }
    }
    const inline = element.attributes.get('style');
    if (inline !== undefined && element.html) {
      for (const { setting, important, order: at } of inlineSettings(inline)) {
        offer(setting.property, {
          layer: important ? Layer.AuthorImportant : Layer.Author,
          specificity: INLINE,
          order: at,
          value: setting.value,
        });
      }
    }
    const settings = new Map<string, unknown>();
    for (const [property, candidate] of winners) settings.set(property, candidate.value);
    result.set(element, settings);
  }
  return { settings: result, fontFaces };
}

/** A style attribute's declarations, expanded, in order. */
function inlineSettings(text: string): Rule['settings'] {
  const plain = plainDeclarations(text);
  if (plain === null) {
    return cached(INLINE_STYLES, text, () => {
      let order = 0;
      return declarationsOf(parseOrUnsupported(text, 'style attribute').nodes, () => order++);
    });
  }
  let order = 0;
  return plain.flatMap(([property, value]) =>
    expanded(property.toLowerCase(), value).map((setting) => ({ setting, important: false, order: order++ })),
  );
}

/**
 * Text postcss reads as nothing but words, spaces, parentheses, colons and semicolons: no strings,
 * escapes, comments, blocks, at-rules or `!important`.
 */
const PLAIN_STYLE = /^[-a-zA-Z0-9 \t\n\r\f:;.,%#+/()]*$/;
/** One such declaration (not a custom property, whose value postcss keeps as written), its value without the spaces around it. */
const PLAIN_DECLARATION = /^[ \t\n\r\f]*(-?[a-zA-Z][-a-zA-Z0-9]*)[ \t\n\r\f]*:[ \t\n\r\f]*([^:]*[^: \t\n\r\f])[ \t\n\r\f]*$/;
const BLANK = /^[ \t\n\r\f]*$/;

/**
 * A style attribute's declarations, property and value as postcss gives them, when the text is
 * plain enough that they are its `;`-separated parts; null for any other, which postcss parses.
 * Generated cases' attributes are plain and each new: postcss's parse of them was the largest
 * part of the cascade.
 */
export function plainDeclarations(text: string): [property: string, value: string][] | null {
  if (!PLAIN_STYLE.test(text) || /url\(/i.test(text) || ((text.includes('(') || text.includes(')')) && !balanced(text))) return null;
  const declarations: [string, string][] = [];
  for (const part of text.split(';')) {
    if (BLANK.test(part)) continue;
    const match = PLAIN_DECLARATION.exec(part);
    if (!match) return null;
    declarations.push([match[1]!, match[2]!]);
  }
  return declarations;
}

/** Parentheses that close in order with no semicolon inside (where postcss would not end a declaration). */
function balanced(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
    else if (c === ';' && depth > 0) return false;
  }
  return depth === 0;
}

const beats = (a: Candidate, b: Candidate) =>
  a.layer !== b.layer ? a.layer > b.layer : a.specificity !== b.specificity ? a.specificity > b.specificity : a.order > b.order;

function parseOrUnsupported(text: string, what: string): postcss.Root {
  try {
    return postcss.parse(text);
  } catch (error) {
    // postcss refuses what a browser's parser recovers from (an unclosed block): not modelled.
    throw new Unsupported(`${what}: ${(error as { reason?: string }).reason ?? String(error)}`);
  }
}

/** A selector under the key its subject demands, with the rule it belongs to. */
interface Indexed {
  readonly rule: number;
  readonly selector: Selector;
}

interface Sheet {
  rules: Rule[];
  /** Each selector under what its subject demands: an id, else a class, else a tag; `rest` for the others. Each list is in sheet order. */
  byId: Map<string, Indexed[]>;
  byClass: Map<string, Indexed[]>;
  byTag: Map<string, Indexed[]>;
  rest: Indexed[];
  /** `rest` and the tag's own merged, in sheet order, per tag (made on first use). */
  forTag: Map<string, Indexed[]>;
  fontFaces: Set<string>;
}

const bySheetOrder = (a: Indexed, b: Indexed) => a.rule - b.rule;

/**
 * The selectors of `sheet` that can match `element`, in sheet order (the order in which their
 * rules' declarations are first offered decides which unsupported one a case is refused for).
 * The sheet is indexed by each selector's subject, as browsers index theirs: testing every
 * selector of the default stylesheet against every element was most of the cascade's time, and
 * an element of the default sheet's usual case (no author rule under its id or classes) takes
 * its tag's list as it is.
 */
function selectorsFor(sheet: Sheet, element: Element): readonly Indexed[] {
  const tag = element.name.toLowerCase();
  let common = sheet.forTag.get(tag);
  if (common === undefined) {
    common = [...sheet.rest, ...(sheet.byTag.get(tag) ?? [])].sort(bySheetOrder);
    sheet.forTag.set(tag, common);
  }
  const extra: Indexed[] = [];
  const id = element.attributes.get('id');
  if (id !== undefined) extra.push(...(sheet.byId.get(id) ?? []));
  for (const c of element.classes) extra.push(...(sheet.byClass.get(c) ?? []));
  // Each selector is under one key only, so the lists never share one.
  return extra.length ? [...common, ...extra].sort(bySheetOrder) : common;
}

function indexRules(rules: Rule[]): Omit<Sheet, 'rules' | 'fontFaces'> {
  const index = {
    byId: new Map<string, Indexed[]>(),
    byClass: new Map<string, Indexed[]>(),
    byTag: new Map<string, Indexed[]>(),
    rest: [] as Indexed[],
    forTag: new Map<string, Indexed[]>(),
  };
  const add = (map: Map<string, Indexed[]>, key: string, indexed: Indexed) => {
    const list = map.get(key);
    if (!list) map.set(key, [indexed]);
    else list.push(indexed);
  };
  rules.forEach((rule, at) => {
    for (const selector of rule.selectors) {
      const subject = selector.compounds[selector.compounds.length - 1]!;
      const indexed = { rule: at, selector };
      if (subject.ids.length) add(index.byId, subject.ids[0]!, indexed);
      else if (subject.classes.length) add(index.byClass, subject.classes[0]!, indexed);
      else if (subject.tag !== undefined) add(index.byTag, subject.tag, indexed);
      else index.rest.push(indexed);
    }
  });
  return index;
}

function parseSheet(text: string): Sheet {
  let order = 0;
  const next = () => order++;
  const fontFaces = new Set<string>();
  const rules: Rule[] = [];
  for (const node of parseOrUnsupported(text, 'stylesheet').nodes) {
    if (node.type === 'atrule') {
      const name = node.name.toLowerCase();
      if (name === 'font-face') {
        for (const d of node.nodes ?? []) {
          if (d.type === 'decl' && d.prop.toLowerCase() === 'font-family')
            fontFaces.add(
              d.value
                .trim()
                .replace(/^(['"])(.*)\1$/, '$2')
                .toLowerCase(),
            );
        }
        continue;
      }
      // WPT's Ahem (/fonts/ahem.css, one @font-face): the square font the candidates measure.
      if (name === 'import' && AHEM_SHEET.test(node.params)) {
        fontFaces.add('ahem');
        continue;
      }
      // @charset and @keyframes move no box by themselves (an animation is unsupported).
      if (name === 'charset' || name === 'keyframes' || name === '-webkit-keyframes') continue;
      throw new Unsupported(`@${name} ${node.params}`.trim());
    }
    if (node.type !== 'rule') continue;
    const settings = declarationsOf(node.nodes, next);
    if (node.nodes.some((n) => n.type === 'rule' || n.type === 'atrule')) throw new Unsupported(`nested rule in ${node.selector}`);
    const selectors = compileSelectors(node.selector, settings);
    if (selectors && settings.length) rules.push({ selectors, settings });
  }
  return { rules, ...indexRules(rules), fontFaces };
}

function declarationsOf(nodes: ChildNode[], next: () => number): Rule['settings'] {
  return nodes
    .filter((n): n is Declaration => n.type === 'decl')
    .flatMap((d) =>
      expanded(d.prop.toLowerCase(), d.value).map((setting) => ({ setting, important: d.important === true, order: next() })),
    );
}

/** What `expand` makes of a declaration; its settings are never changed, so every case that has it shares them. */
function expanded(property: string, value: string): Setting[] {
  // By property, then value: a key of the two would be a new string to hash for every declaration.
  let byValue = DECLARATIONS.get(property);
  let settings = byValue?.get(value);
  if (settings === undefined) {
    settings = expand(property, value);
    if (++declarationCount > DECLARATION_LIMIT) {
      DECLARATIONS.clear();
      declarationCount = 1;
      byValue = undefined;
    }
    if (byValue === undefined) {
      byValue = new Map();
      DECLARATIONS.set(property, byValue);
    }
    byValue.set(value, settings);
  }
  return settings;
}

/** The elements `selectorList` matches, in document order (a check-layout page's scope); none for one it cannot compile. */
export function selectAll(document: Document, selectorList: string): Element[] {
  const selectors = compileSelectors(selectorList, []) ?? [];
  return document.elements.filter((e) => selectors.some((s) => matches(s, s.compounds.length - 1, e)));
}

/** A rule's selector list, compiled; null when a browser would drop the rule (an invalid selector). */
function compileSelectors(text: string, settings: Rule['settings']): Selector[] | null {
  let root: selectorParser.Root;
  try {
    root = selectorParser().astSync(text);
  } catch {
    return null;
  }
  const selectors: Selector[] = [];
  for (const selector of root.nodes) {
    const compiled = compileSelector(selector, text, settings);
    if (compiled === null) return null;
    if (compiled !== 'none') selectors.push(compiled);
  }
  return selectors;
}

/** One complex selector; 'none' for one that matches nothing the candidates lay out; null for an invalid one. */
function compileSelector(selector: selectorParser.Selector, text: string, settings: Rule['settings']): Selector | 'none' | null {
  const compounds: Compound[] = [emptyCompound()];
  const combinators: Combinator[] = [];
  let [a, b, c] = [0, 0, 0];
  const unsupported = () => {
    // Only a rule that would set something that moves a box makes the case unsupported.
    if (settings.some((s) => s.setting.value !== NO_EFFECT)) throw new Unsupported(`selector: ${text.trim()}`);
    return 'none' as const;
  };
  for (const node of selector.nodes) {
    const compound = compounds[compounds.length - 1]!;
    switch (node.type) {
      case 'tag':
        if (node.namespace) return unsupported();
        compound.tag = node.value.toLowerCase();
        c++;
        break;
      case 'universal':
        compound.universal = true;
        break;
      case 'class':
        compound.classes.push(node.value);
        b++;
        break;
      case 'id':
        compound.ids.push(node.value);
        a++;
        break;
      case 'attribute':
        if (node.insensitive || node.namespace) return unsupported();
        compound.attributes.push({ name: node.attribute.toLowerCase(), operator: node.operator, value: node.value });
        b++;
        break;
      case 'pseudo': {
        const name = node.value.toLowerCase();
        if (GENERATED.test(name)) {
          // ::before and ::after make a box only with content.
          const content = settings.some((s) => s.setting.property === 'content' && s.setting.value !== NO_EFFECT);
          return content ? unsupported() : 'none';
        }
        if (BOXLESS_PSEUDO_ELEMENTS.test(name)) return 'none';
        if (!STRUCTURAL.has(name) || node.nodes.length) return unsupported();
        compound.pseudo.push(name);
        b++;
        break;
      }
      case 'combinator': {
        const value = node.value.trim() === '' ? ' ' : node.value.trim();
        if (isEmpty(compound)) return null;
        if (!['>', '+', '~', ' '].includes(value)) return unsupported();
        combinators.push(value as Combinator);
        compounds.push(emptyCompound());
        break;
      }
      case 'comment':
        break;
      default:
        return unsupported();
    }
  }
  if (isEmpty(compounds[compounds.length - 1]!)) return null;
  return { compounds, combinators, specificity: a * 1e6 + b * 1e3 + c };
}

const emptyCompound = (): Compound => ({ universal: false, ids: [], classes: [], attributes: [], pseudo: [] });

/** A compound with nothing in it: a selector list entry that is empty, or a combinator with nothing on one side. */
const isEmpty = (c: Compound) =>
  !c.universal && c.tag === undefined && !c.ids.length && !c.classes.length && !c.attributes.length && !c.pseudo.length;

function matches(selector: Selector, at: number, element: Element): boolean {
  if (!matchesCompound(selector.compounds[at]!, element)) return false;
  if (at === 0) return true;
  switch (selector.combinators[at - 1]!) {
    case '>':
      return element.parent !== null && matches(selector, at - 1, element.parent);
    case ' ':
      for (let e = element.parent; e; e = e.parent) if (matches(selector, at - 1, e)) return true;
      return false;
    case '+': {
      const previous = siblings(element).before.at(-1);
      return previous !== undefined && matches(selector, at - 1, previous);
    }
    case '~':
      return siblings(element).before.some((s) => matches(selector, at - 1, s));
  }
}

function siblings(element: Element): { before: Element[]; after: Element[] } {
  const all = element.parent ? element.parent.children.filter(isElement) : [element];
  const i = all.indexOf(element);
  return { before: all.slice(0, i), after: all.slice(i + 1) };
}

function matchesCompound(c: Compound, element: Element): boolean {
  if (c.tag !== undefined && element.name.toLowerCase() !== c.tag) return false;
  const id = element.attributes.get('id');
  if (c.ids.some((x) => x !== id)) return false;
  if (c.classes.some((x) => !element.classes.has(x))) return false;
  for (const { name, operator, value } of c.attributes) {
    const actual = element.attributes.get(name);
    if (actual === undefined) return false;
    if (operator === undefined) continue;
    const v = value ?? '';
    const ok =
      operator === '='
        ? actual === v
        : operator === '~='
          ? actual.split(/[ \t\n\f\r]+/).includes(v)
          : operator === '^='
            ? v !== '' && actual.startsWith(v)
            : operator === '$='
              ? v !== '' && actual.endsWith(v)
              : operator === '*='
                ? v !== '' && actual.includes(v)
                : operator === '|='
                  ? actual === v || actual.startsWith(`${v}-`)
                  : false;
    if (!ok) return false;
  }
  for (const p of c.pseudo) {
    const { before, after } = siblings(element);
    const ok =
      p === ':root'
        ? element.parent === null
        : p === ':first-child'
          ? element.parent !== null && before.length === 0
          : p === ':last-child'
            ? element.parent !== null && after.length === 0
            : p === ':only-child'
              ? element.parent !== null && before.length === 0 && after.length === 0
              : element.children.every((n) => !isElement(n) && n.text === '');
    if (!ok) return false;
  }
  return true;
}
