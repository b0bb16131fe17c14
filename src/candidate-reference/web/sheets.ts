// A case's style sheets and style attributes as the cascade reads them: parsed by postcss, each
// rule's declarations expanded into the longhands they set (declarations.ts), its selectors
// compiled (selectors.ts), and the rules indexed by what their selectors' subjects demand. A
// sheet's @imports are kept as written (links.ts loads them); an at-rule other than @import,
// @font-face, @charset and @keyframes makes the case unsupported.
import { LRUCache } from 'lru-cache';
import postcss, { type ChildNode, type Declaration } from 'postcss';
import type { Element } from './document.js';
import { expand, NO_EFFECT, type Setting } from './declarations.js';
import { compileSelectors, type Selector } from './selectors.js';
import { Unsupported } from './unsupported.js';

/** An @import's URL, quoted or in `url()`, and what follows it (media, supports(), layer). */
const IMPORT = /^\s*(?:url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)|"([^"]*)"|'([^']*)')\s*(.*)$/is;

export interface Rule {
  selectors: Selector[];
  settings: { setting: Setting; important: boolean; order: number }[];
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

/** A style sheet, parsed once for every case that has it. */
export const sheetOf = (text: string): Sheet => cached(SHEETS, text, () => parseSheet(text));

/** A style attribute's declarations, expanded, in order. */
export function inlineSettings(text: string): Rule['settings'] {
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

export interface Sheet {
  rules: Rule[];
  /** Each selector under what its subject demands: an id, else a class, else a tag; `rest` for the others. Each list is in sheet order. */
  byId: Map<string, Indexed[]>;
  byClass: Map<string, Indexed[]>;
  byTag: Map<string, Indexed[]>;
  rest: Indexed[];
  /** `rest` and the tag's own merged, in sheet order, per tag (made on first use). */
  forTag: Map<string, Indexed[]>;
  fontFaces: FontFace[];
  /** The URLs its @import rules load, in order, as written. */
  imports: string[];
}

/** An @font-face rule: the family it defines, lower-case, and the URLs its `src` names, as written. */
interface FontFace {
  family: string;
  urls: string[];
}

const URL_TOKEN = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)/gi;

const bySheetOrder = (a: Indexed, b: Indexed) => a.rule - b.rule;

/**
 * The selectors of `sheet` that can match `element`, in sheet order (the order in which their
 * rules' declarations are first offered decides which unsupported one a case is refused for).
 * The sheet is indexed by each selector's subject, as browsers index theirs: testing every
 * selector of the default stylesheet against every element was most of the cascade's time, and
 * an element of the default sheet's usual case (no author rule under its id or classes) takes
 * its tag's list as it is.
 */
export function selectorsFor(sheet: Sheet, element: Element): readonly Indexed[] {
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

function indexRules(rules: Rule[]): Omit<Sheet, 'rules' | 'fontFaces' | 'imports'> {
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
  const fontFaces: FontFace[] = [];
  const rules: Rule[] = [];
  const imports: string[] = [];
  // An @import after any other rule but @charset is dropped, as CSS has it.
  let importsEnd = false;
  for (const node of parseOrUnsupported(text, 'stylesheet').nodes) {
    if (node.type === 'atrule') {
      const name = node.name.toLowerCase();
      if (name === 'import') {
        const [, a, b, c, d, e, rest] = IMPORT.exec(node.params) ?? [];
        const href = a ?? b ?? c ?? d ?? e;
        // Media, supports() or a layer decide whether and where it applies: not modelled.
        if (!importsEnd && href !== undefined && rest!.trim()) throw new Unsupported(`@import ${node.params}`);
        if (!importsEnd && href !== undefined) imports.push(href);
        continue;
      }
      if (name !== 'charset') importsEnd = true;
      if (name === 'font-face') {
        let family: string | undefined;
        let urls: string[] = [];
        // The last of each descriptor counts, as for a property.
        for (const d of node.nodes ?? []) {
          if (d.type !== 'decl') continue;
          const descriptor = d.prop.toLowerCase();
          if (descriptor === 'font-family')
            family = d.value
              .trim()
              .replace(/^(['"])(.*)\1$/, '$2')
              .toLowerCase();
          else if (descriptor === 'src') urls = [...d.value.matchAll(URL_TOKEN)].map(([, a, b, c]) => (a ?? b ?? c)!);
        }
        if (family !== undefined) fontFaces.push({ family, urls });
        continue;
      }
      // @charset and @keyframes move no box by themselves (an animation is unsupported).
      if (name === 'charset' || name === 'keyframes' || name === '-webkit-keyframes') continue;
      throw new Unsupported(`@${name} ${node.params}`.trim());
    }
    if (node.type !== 'rule') continue;
    importsEnd = true;
    const settings = declarationsOf(node.nodes, next);
    if (node.nodes.some((n) => n.type === 'rule' || n.type === 'atrule')) throw new Unsupported(`nested rule in ${node.selector}`);
    const selectors = compileSelectors(node.selector, {
      moves: settings.some((s) => s.setting.value !== NO_EFFECT),
      generates: settings.some((s) => s.setting.property === 'content' && s.setting.value !== NO_EFFECT),
    });
    if (selectors && settings.length) rules.push({ selectors, settings });
  }
  return { rules, ...indexRules(rules), fontFaces, imports };
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
