// The cascade of a case's own CSS (its `<style>` elements and `style` attributes) over the
// browsers' default stylesheet. Origin and importance, then specificity, then order decide which
// declaration of each property wins on each element; a style attribute beats every selector.
import type { Document, Element } from './document.js';
import { matches } from './selectors.js';
import { inlineSettings, selectorsFor, sheetOf } from './sheets.js';

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
  /** The families the case's @font-face rules define, lower-case. */
  readonly fontFaces: ReadonlySet<string>;
}

/** Declarations of one sheet are ordered within it; sheets come this far apart. */
const SHEET_ORDER = 1e7;

export function cascade(document: Document, userAgentSheet: string): Cascaded {
  const fontFaces = new Set<string>();
  const sheets = [userAgentSheet, ...document.styleSheets].map((text, i) => {
    const sheet = sheetOf(text);
    for (const family of sheet.fontFaces) fontFaces.add(family);
    return { layer: i === 0 ? Layer.UserAgent : Layer.Author, sheet, offset: i * SHEET_ORDER };
  });
  const result = new Map<Element, Map<string, unknown>>();
  for (const element of document.elements) {
    const winners = new Map<string, Contender>();
    const offer = (property: string, contender: Contender) => {
      const current = winners.get(property);
      if (!current || beats(contender, current)) winners.set(property, contender);
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
    const settings = new Map<string, unknown>();
    for (const [property, contender] of winners) settings.set(property, contender.value);
    result.set(element, settings);
  }
  return { settings: result, fontFaces };
}

const beats = (a: Contender, b: Contender) =>
  a.layer !== b.layer ? a.layer > b.layer : a.specificity !== b.specificity ? a.specificity > b.specificity : a.order > b.order;
