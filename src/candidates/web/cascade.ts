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
const DECLARATIONS = new LRUCache<string, Setting[]>({ max: 32768 });

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
      for (const at of rulesFor(sheet, element)) {
        const rule = sheet.rules[at]!;
        const specificity = matchSpecificity(rule.selectors, element);
        if (specificity < 0) continue;
        for (const { setting, important, order: at } of rule.settings) {
          offer(setting.property, {
            layer: important ? Layer.AuthorImportant : layer,
            specificity,
            order: offset + at,
            value: setting.value,
          });
        }
      }
    }
    const inline = element.attributes.get('style');
    if (inline !== undefined && element.html) {
      const settings = cached(INLINE_STYLES, inline, () => {
        let order = 0;
        return declarationsOf(parseOrUnsupported(inline, 'style attribute').nodes, () => order++);
      });
      for (const { setting, important, order: at } of settings) {
        offer(setting.property, {
          layer: important ? Layer.AuthorImportant : Layer.Author,
          specificity: INLINE,
          order: at,
          value: setting.value,
        });
      }
    }
    result.set(element, new Map([...winners].map(([p, c]) => [p, c.value])));
  }
  return { settings: result, fontFaces };
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

interface Sheet {
  rules: Rule[];
  /** Each rule's index under what its selectors' subjects demand: an id, else a class, else a tag; `rest` for the others. */
  byId: Map<string, number[]>;
  byClass: Map<string, number[]>;
  byTag: Map<string, number[]>;
  rest: number[];
  fontFaces: Set<string>;
}

/**
 * The indices of the rules of `sheet` that can match `element`, in sheet order (the order in which
 * their declarations are first offered decides which unsupported one a case is refused for). The
 * sheet is indexed by each selector's subject, as browsers index theirs: testing every selector of
 * the default stylesheet against every element was most of the cascade's time.
 */
function rulesFor(sheet: Sheet, element: Element): number[] {
  const found = [...sheet.rest, ...(sheet.byTag.get(element.name.toLowerCase()) ?? [])];
  const id = element.attributes.get('id');
  if (id !== undefined) found.push(...(sheet.byId.get(id) ?? []));
  for (const c of element.classes) found.push(...(sheet.byClass.get(c) ?? []));
  return [...new Set(found)].sort((a, b) => a - b);
}

function indexRules(rules: Rule[]): Pick<Sheet, 'byId' | 'byClass' | 'byTag' | 'rest'> {
  const index = {
    byId: new Map<string, number[]>(),
    byClass: new Map<string, number[]>(),
    byTag: new Map<string, number[]>(),
    rest: [] as number[],
  };
  const add = (map: Map<string, number[]>, key: string, at: number) => {
    const list = map.get(key);
    if (!list) map.set(key, [at]);
    else if (list.at(-1) !== at) list.push(at);
  };
  rules.forEach((rule, at) => {
    for (const { compounds } of rule.selectors) {
      const subject = compounds[compounds.length - 1]!;
      if (subject.ids.length) add(index.byId, subject.ids[0]!, at);
      else if (subject.classes.length) add(index.byClass, subject.classes[0]!, at);
      else if (subject.tag !== undefined) add(index.byTag, subject.tag, at);
      else if (index.rest.at(-1) !== at) index.rest.push(at);
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
  const key = `${property}:${value}`;
  let settings = DECLARATIONS.get(key);
  if (settings === undefined) {
    settings = expand(property, value);
    DECLARATIONS.set(key, settings);
  }
  return settings;
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

/** The highest specificity of the selectors that match, or -1. */
function matchSpecificity(selectors: Selector[], element: Element): number {
  let best = -1;
  for (const s of selectors) if (s.specificity > best && matches(s, s.compounds.length - 1, element)) best = s.specificity;
  return best;
}

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
