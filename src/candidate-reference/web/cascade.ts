// The cascade of a case's own CSS (its `<style>` elements, the sheets it links and imports from
// its site's files, links.ts, and its `style` attributes) over the browsers' default stylesheet. Origin and importance, then specificity, then order decide which
// declaration of each property wins on each element; a style attribute beats every selector.
// A logical property competes with the physical one it maps to on the element (logical.ts).
import { isWide } from './declarations.js';
import type { Document, Element } from './document.js';
import { authorSheets, loadedFontFaces } from './links.js';
import { LOGICAL } from './logical.js';
import { matches } from './selectors.js';
import { inlineSettings, selectorsFor, sheetOf } from './sheets.js';
import { Unsupported } from './unsupported.js';

/** Where a declaration comes from, weakest first. */
const Layer = { UserAgent: 0, Author: 1, AuthorImportant: 2 } as const;
type Layer = (typeof Layer)[keyof typeof Layer];

/** A declaration competing for a property on an element. */
interface Contender {
  layer: Layer;
  specificity: number;
  order: number;
  value: unknown;
}

/** A style attribute's declarations beat every selector. */
const INLINE = 1e9;

export interface Cascaded {
  /** Every element's winning setting per property (longhands of Values, and properties the candidates do not model). */
  readonly settings: ReadonlyMap<Element, ReadonlyMap<string, unknown>>;
  /** The families the case's @font-face rules define with a font the browsers get, lower-case. */
  readonly fontFaces: ReadonlySet<string>;
}

/** Declarations of one sheet are ordered within it; sheets come this far apart. */
const SHEET_ORDER = 1e7;

export function cascade(document: Document, userAgentSheet: string): Cascaded {
  const authored = authorSheets(document);
  const fontFaces = loadedFontFaces(authored, document.site);
  const sheets = [sheetOf(userAgentSheet), ...authored.map((a) => a.sheet)].map((sheet, i) => ({
    layer: i === 0 ? Layer.UserAgent : Layer.Author,
    sheet,
    offset: i * SHEET_ORDER,
  }));
  const result = new Map<Element, Map<string, unknown>>();
  for (const element of document.elements) {
    const winners = new Map<string, Contender>();
    let logical = false;
    const offer = (property: string, contender: Contender) => {
      const current = winners.get(property);
      if (!current || beats(contender, current)) winners.set(property, contender);
      if (LOGICAL[property]) logical = true;
    };
    for (const { layer, sheet, offset } of sheets) {
      const found = selectorsFor(sheet, element);
      // The selectors come grouped by rule, in sheet order; a rule applies at the highest specificity of those that match.
      for (let i = 0; i < found.length; ) {
        const at = found[i]!.rule;
        let specificity = -1;
        for (; i < found.length && found[i]!.rule === at; i++) {
          const { selector } = found[i]!;
          if (selector.specificity > specificity && matches(selector, element)) specificity = selector.specificity;
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
    if (logical) toPhysical(winners, directionOf(element, winners, result));
    const settings = new Map<string, unknown>();
    for (const [property, contender] of winners) settings.set(property, contender.value);
    result.set(element, settings);
  }
  return { settings: result, fontFaces };
}

const beats = (a: Contender, b: Contender) =>
  a.layer !== b.layer ? a.layer > b.layer : a.specificity !== b.specificity ? a.specificity > b.specificity : a.order > b.order;

/** Each logical winner set on the physical property it maps to, where it beats the physical one's winner. */
function toPhysical(winners: Map<string, Contender>, direction: 'ltr' | 'rtl' | Unsupported): void {
  for (const [property, contender] of winners) {
    const sides = LOGICAL[property];
    if (!sides) continue;
    winners.delete(property);
    const physical = sides[direction === 'rtl' ? 1 : 0];
    const current = winners.get(physical);
    // A direction the candidates cannot compute leaves the side unknown: unsupported, if it wins on a box.
    const mapped = direction instanceof Unsupported ? { ...contender, value: direction } : contender;
    if (!current || beats(mapped, current)) winners.set(physical, mapped);
  }
}

/** The element's computed direction, from its own winner or its ancestors' (direction inherits). */
function directionOf(
  element: Element,
  winners: ReadonlyMap<string, Contender>,
  cascaded: ReadonlyMap<Element, ReadonlyMap<string, unknown>>,
): 'ltr' | 'rtl' | Unsupported {
  let value = winners.get('direction')?.value;
  for (let e = element.parent; e && (value === undefined || (isWide(value) && value.wide !== 'initial')); e = e.parent)
    value = cascaded.get(e)!.get('direction');
  if (value === 'rtl' || value instanceof Unsupported) return value;
  return 'ltr';
}
