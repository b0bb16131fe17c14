// Selectors, for the forms test suites use: type, universal, class, id and attribute selectors,
// compounds of them, selector lists, the four combinators, and the structural pseudo-classes
// :root, :first-child, :last-child, :only-child and :empty. Compiling is the gate: a selector it
// cannot match makes the case unsupported, when its rule sets anything that moves a box. Matching
// is one function over the compiled form (`matches`), so that a selector library could take it.
import selectorParser from 'postcss-selector-parser';
import { isElement, type Document, type Element } from './document.js';
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

export interface Selector {
  /** Left to right; combinators[i] joins compounds[i] and compounds[i + 1]. */
  compounds: Compound[];
  combinators: Combinator[];
  specificity: number;
}

/** What a rule's declarations do, which decides what a selector the candidates cannot match makes of the case. */
export interface RuleEffect {
  /** It sets something that moves a box. */
  readonly moves: boolean;
  /** It sets `content`, which makes ::before and ::after boxes. */
  readonly generates: boolean;
}

const STRUCTURAL = new Set([':root', ':first-child', ':last-child', ':only-child', ':empty']);
/** Pseudo-elements that never make a box the candidates lay out. */
const BOXLESS_PSEUDO_ELEMENTS = /^::?(selection|placeholder|backdrop|marker|file-selector-button|-webkit-[a-z-]+|-moz-[a-z-]+)$/;
const GENERATED = /^::?(before|after)$/;

/** The elements `selectorList` matches, in document order (a check-layout page's scope); none for one it cannot compile. */
export function selectAll(document: Document, selectorList: string): Element[] {
  const selectors = compileSelectors(selectorList, { moves: false, generates: false }) ?? [];
  return document.elements.filter((e) => selectors.some((s) => matches(s, e)));
}

/** A rule's selector list, compiled; null when a browser would drop the rule (an invalid selector). */
export function compileSelectors(text: string, effect: RuleEffect): Selector[] | null {
  let root: selectorParser.Root;
  try {
    root = selectorParser().astSync(text);
  } catch {
    return null;
  }
  const selectors: Selector[] = [];
  for (const selector of root.nodes) {
    const compiled = compileSelector(selector, text, effect);
    if (compiled === null) return null;
    if (compiled !== 'none') selectors.push(compiled);
  }
  return selectors;
}

/** One complex selector; 'none' for one that matches nothing the candidates lay out; null for an invalid one. */
function compileSelector(selector: selectorParser.Selector, text: string, effect: RuleEffect): Selector | 'none' | null {
  const compounds: Compound[] = [emptyCompound()];
  const combinators: Combinator[] = [];
  let [a, b, c] = [0, 0, 0];
  const unsupported = () => {
    // Only a rule that would set something that moves a box makes the case unsupported.
    if (effect.moves) throw new Unsupported(`selector: ${text.trim()}`);
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
          return effect.generates ? unsupported() : 'none';
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

/** Whether `element` matches `selector`. */
export const matches = (selector: Selector, element: Element): boolean => matchesFrom(selector, selector.compounds.length - 1, element);

function matchesFrom(selector: Selector, at: number, element: Element): boolean {
  if (!matchesCompound(selector.compounds[at]!, element)) return false;
  if (at === 0) return true;
  switch (selector.combinators[at - 1]!) {
    case '>':
      return element.parent !== null && matchesFrom(selector, at - 1, element.parent);
    case ' ':
      for (let e = element.parent; e; e = e.parent) if (matchesFrom(selector, at - 1, e)) return true;
      return false;
    case '+': {
      const previous = siblings(element).before.at(-1);
      return previous !== undefined && matchesFrom(selector, at - 1, previous);
    }
    case '~':
      return siblings(element).before.some((s) => matchesFrom(selector, at - 1, s));
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
