// What a reference candidate declares it lays out (its ping's `supports`), so that a generator can
// stay inside it: per property the value terms the shared web model reads, which each engine then
// narrows to what it maps. Terms are keywords, `<length>`-style types, or `name()` functions.
import type { CandidateSupports } from '../../protocol/candidate-schema.js';
import type { FontMode } from './text.js';

const LENGTH = ['<length>', '<percentage>'];
const SIZE = [...LENGTH, 'auto'];
const BORDER_STYLES = ['none', 'hidden', 'dotted', 'dashed', 'solid', 'double', 'groove', 'ridge', 'inset', 'outset'];
const SELF = ['start', 'end', 'center', 'flex-start', 'flex-end', 'self-start', 'self-end', 'baseline', 'stretch', 'safe', 'unsafe'];
const CONTENT = [
  'start',
  'end',
  'center',
  'flex-start',
  'flex-end',
  'space-between',
  'space-around',
  'space-evenly',
  'stretch',
  'safe',
  'unsafe',
];

const TRACK_LIST = [...LENGTH, '<flex>', 'auto', 'min-content', 'max-content', 'minmax()', 'repeat()', 'auto-fill', 'auto-fit', 'none'];

/** The properties both reference candidates read, with every term the shared model accepts. */
const BASE_PROPERTIES: Record<string, string[]> = {
  display: ['block', 'flow-root', 'flex', 'grid', 'none', 'contents'],
  position: ['static', 'relative', 'absolute'],
  top: SIZE,
  right: SIZE,
  bottom: SIZE,
  left: SIZE,
  inset: SIZE,
  'box-sizing': ['content-box', 'border-box'],
  direction: ['ltr', 'rtl'],
  'writing-mode': ['horizontal-tb'],
  float: ['none', 'left', 'right'],
  clear: ['none', 'left', 'right', 'both'],
  width: SIZE,
  height: SIZE,
  'min-width': SIZE,
  'min-height': SIZE,
  'max-width': [...LENGTH, 'none'],
  'max-height': [...LENGTH, 'none'],
  margin: SIZE,
  'margin-top': SIZE,
  'margin-right': SIZE,
  'margin-bottom': SIZE,
  'margin-left': SIZE,
  padding: LENGTH,
  'padding-top': LENGTH,
  'padding-right': LENGTH,
  'padding-bottom': LENGTH,
  'padding-left': LENGTH,
  border: ['<length>', 'thin', 'medium', 'thick', ...BORDER_STYLES, '<color>'],
  'border-top': ['<length>', 'thin', 'medium', 'thick', ...BORDER_STYLES, '<color>'],
  'border-right': ['<length>', 'thin', 'medium', 'thick', ...BORDER_STYLES, '<color>'],
  'border-bottom': ['<length>', 'thin', 'medium', 'thick', ...BORDER_STYLES, '<color>'],
  'border-left': ['<length>', 'thin', 'medium', 'thick', ...BORDER_STYLES, '<color>'],
  'border-width': ['<length>', 'thin', 'medium', 'thick'],
  'border-style': BORDER_STYLES,
  overflow: ['visible', 'hidden', 'clip'],
  'overflow-x': ['visible', 'hidden', 'clip'],
  'overflow-y': ['visible', 'hidden', 'clip'],
  'flex-direction': ['row', 'row-reverse', 'column', 'column-reverse'],
  'flex-wrap': ['nowrap', 'wrap', 'wrap-reverse'],
  'flex-flow': ['row', 'row-reverse', 'column', 'column-reverse', 'nowrap', 'wrap', 'wrap-reverse'],
  'flex-grow': ['<number>'],
  'flex-shrink': ['<number>'],
  'flex-basis': SIZE,
  flex: ['<number>', ...SIZE, 'none', 'initial'],
  'justify-content': ['normal', ...CONTENT],
  'align-content': ['normal', ...CONTENT],
  'align-items': ['normal', ...SELF],
  'align-self': ['auto', 'normal', ...SELF],
  'justify-items': ['normal', 'legacy', ...SELF],
  'justify-self': ['auto', 'normal', ...SELF],
  gap: [...LENGTH, 'normal'],
  'row-gap': [...LENGTH, 'normal'],
  'column-gap': [...LENGTH, 'normal'],
  'grid-template-columns': TRACK_LIST,
  'grid-template-rows': TRACK_LIST,
  'grid-auto-columns': [...LENGTH, '<flex>', 'auto', 'min-content', 'max-content', 'minmax()'],
  'grid-auto-rows': [...LENGTH, '<flex>', 'auto', 'min-content', 'max-content', 'minmax()'],
  'grid-auto-flow': ['row', 'column', 'dense'],
  'grid-row': ['<integer>', 'span', 'auto'],
  'grid-column': ['<integer>', 'span', 'auto'],
  'grid-row-start': ['<integer>', 'span', 'auto'],
  'grid-row-end': ['<integer>', 'span', 'auto'],
  'grid-column-start': ['<integer>', 'span', 'auto'],
  'grid-column-end': ['<integer>', 'span', 'auto'],
  'grid-area': ['<integer>', 'span', 'auto'],
  'aspect-ratio': ['<number>', 'auto'],
  'font-size': ['<length>', '<percentage>'],
  'line-height': ['<number>', '<length>', '<percentage>'],
  'font-family': ['<family-name>'],
  'font-weight': ['normal', 'bold', '<number>'],
  'font-style': ['normal', 'italic', 'oblique'],
  'white-space': ['normal', 'nowrap'],
  // Logical properties, by the element's direction (logical.ts).
  ...Object.fromEntries(
    ['inline-start', 'inline-end', 'block-start', 'block-end'].flatMap((flow) => [
      [`margin-${flow}`, SIZE],
      [`padding-${flow}`, LENGTH],
      [`inset-${flow}`, SIZE],
      [`border-${flow}-width`, ['<length>', 'thin', 'medium', 'thick']],
      [`border-${flow}-style`, BORDER_STYLES],
    ]),
  ),
  ...Object.fromEntries(
    ['inline', 'block'].flatMap((axis) => [
      [`margin-${axis}`, SIZE],
      [`padding-${axis}`, LENGTH],
      [`inset-${axis}`, SIZE],
      [`${axis}-size`, SIZE],
      [`min-${axis}-size`, SIZE],
      [`max-${axis}-size`, [...LENGTH, 'none']],
    ]),
  ),
};

/**
 * A candidate's `supports`: the base narrowed (`drop`: properties or single terms it does not map)
 * and widened (`add`), and where its absolutely positioned boxes' containing blocks may be.
 */
export function supportsOf(
  fonts: FontMode,
  changes: { drop?: Record<string, string[] | true>; add?: Record<string, string[]>; absolute?: CandidateSupports['absolute'] },
): CandidateSupports {
  const properties: Record<string, string[]> = {};
  for (const [property, terms] of Object.entries({ ...BASE_PROPERTIES, ...changes.add })) {
    const drop = changes.drop?.[property];
    if (drop === true) continue;
    properties[property] = terms.filter((t) => !drop?.includes(t));
  }
  // Under the square font `line-height: normal` is exact (round(1.2 em)); with Ahem it is not.
  if (fonts === 'square') properties['line-height'] = [...(properties['line-height'] ?? []), 'normal'];
  return {
    properties,
    text: fonts === 'square' ? ['*'] : ['Ahem'],
    script: false,
    ...(changes.absolute ? { absolute: changes.absolute } : {}),
  };
}
