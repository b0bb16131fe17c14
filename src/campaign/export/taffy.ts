// `export --format taffy`: a finding as Taffy's own generated test, one XML file per test
// (tests/xml/<group>/<name>.xml since Taffy moved its generated tests from Rust to XML, taffy#926),
// in the shape its harness (tests/xml.rs) reads:
//
//   <test name="…" use-rounding="false">
//     <viewport width="max-content|<n>px" height="…"/>
//     <input><div display="…" width="…px" …><text …>words</text></div></input>
//     <expectations><node x="…" y="…" width="…" height="…"><node …/></node></expectations>
//   </test>
//
// Inputs are the elements' computed styles (web-model.ts) as the CSS values Taffy parses, written
// where they differ from Taffy's defaults (display and direction always, as gentest writes them);
// expectations are the vote's majority, unrounded (use-rounding="false"), each node's location
// relative to its parent's border box. An outlier or split case is marked in a comment above the
// test with the engines' builds; a split has no majority, so its test has no expectations and
// its file is disabled as Taffy disables a fixture, by an `x` at the front of its name.
import type { Breadth, GridLine, Size, Track, TrackSize } from '../../candidate-reference/web/grammar.js';
import type { Length } from '../../candidate-reference/web/values.js';
import { xmlAttribute, xmlText } from '../results/xml.js';
import { aboutFinding, voteWords, type Finding } from './finding.js';
import { majorityLayout, px, type MajorityNode } from './majority.js';
import { fixtureRoots, type Box, type Style } from './web-model.js';

class NotWritten extends Error {}

/** The test files of a finding (one per root of its body), or why it cannot be one. */
export function taffyTests(f: Finding, name: string): { files: [string, string][] } | { refused: string } {
  if (f.script !== null) return { refused: 'it has a script; a Taffy test is a static tree' };
  const majority = majorityLayout(f);
  if (!majority && f.vote.verdict !== 'split') return { refused: `${voteWords(f.vote)}: no majority to take expectations from` };
  const roots = fixtureRoots(f.html, false);
  if ('refused' in roots) return roots;
  const files: [string, string][] = [];
  try {
    roots.forEach((root, k) => {
      const testName = roots.length > 1 ? `${name}_${k}` : name;
      const nodes = majority ? majority.nodes : null;
      const comment = majority
        ? `${aboutFinding(f)}; expectations from the majority: ${majority.engines.join(', ')}`
        : `${aboutFinding(f)}; the engines split, so there is no expectation: disabled (x) until one is chosen`;
      const available = (v: number | null) => (v === null ? 'max-content' : `${px(v)}px`);
      const lines = [
        `<!-- browser-oracle: ${xmlText(comment).replace(/--/g, '- -')} -->`,
        `<test name="${xmlAttribute(testName)}" use-rounding="false">`,
        `  <viewport width="${available(root.available.width)}" height="${available(root.available.height)}"/>`,
        '  <input>',
        ...inputLines(root.box, '    '),
        '  </input>',
        ...(nodes
          ? ['  <expectations>', ...expectationLines(root.box, null, nodes, root.available.width, '    '), '  </expectations>']
          : ['  <expectations/>']),
        '</test>',
        '',
      ];
      files.push([`${nodes ? '' : 'x'}${testName}.xml`, lines.join('\n')]);
    });
  } catch (error) {
    if (error instanceof NotWritten) return { refused: error.message };
    throw error;
  }
  return { files };
}

/** A box and its children as input elements: a box with only text is a `text` leaf, Taffy's measured Ahem text. */
function inputLines(box: Box, indent: string, root = true): string[] {
  const elements = box.children.filter((c) => c.element);
  const texts = box.children.filter((c) => c.text !== undefined);
  if (texts.length && elements.length)
    throw new NotWritten(`${box.element!.tag} holds text beside elements; a Taffy test's text is a leaf`);
  const attrs = attributesOf(box.style, root)
    .map(([n, v]) => ` ${n}="${xmlAttribute(v)}"`)
    .join('');
  if (texts.length) {
    textInAhem(box);
    return [`${indent}<text${attrs}>${xmlText(texts.map((t) => t.text).join(' '))}</text>`];
  }
  if (!elements.length) return [`${indent}<div${attrs}/>`];
  return [`${indent}<div${attrs}>`, ...elements.flatMap((c) => inputLines(c, `${indent}  `, false)), `${indent}</div>`];
}

/** Taffy's harness measures a text leaf in Ahem at 10px with a line height of one em. */
function textInAhem(box: Box): void {
  const s = box.style;
  const size = s['font-size'];
  const lh = s['line-height'];
  const tenPx = typeof size === 'object' && size.unit === 'px' && size.n === 10;
  const oneEm = typeof lh === 'object' && ('number' in lh ? lh.number === 1 : lh.unit === 'px' && lh.n === 10);
  if (!tenPx || !oneEm || !s['font-family'].some((f) => f.toLowerCase() === 'ahem'))
    throw new NotWritten(`${box.element!.tag}'s text is not in Ahem at 10px with a line height of 1, which Taffy's harness measures`);
}

/** The majority's boxes of a box and its element children, each relative to its parent's border box. */
function expectationLines(box: Box, parent: MajorityNode | null, nodes: MajorityNode[], width: number | null, indent: string): string[] {
  const node = nodes[box.element!.index]!;
  const b = node.bounding;
  // A root sits at Taffy's origin; right-to-left, at the end of a definite space.
  const x = parent ? b.x - parent.bounding.x : box.style.direction === 'rtl' && width !== null ? width - b.w : 0;
  const y = parent ? b.y - parent.bounding.y : 0;
  const attrs = `x="${px(x)}" y="${px(y)}" width="${px(b.w)}" height="${px(b.h)}"`;
  const children = box.children.filter((c) => c.element);
  if (!children.length) return [`${indent}<node ${attrs}/>`];
  return [
    `${indent}<node ${attrs}>`,
    ...children.flatMap((c) => expectationLines(c, node, nodes, null, `${indent}  `)),
    `${indent}</node>`,
  ];
}

const length = (l: Length): string => (l.unit === '%' ? `${px(l.n)}%` : `${px(l.n)}px`);
const isZero = (v: Length | 'auto' | 'normal') => typeof v === 'object' && v.n === 0;

function size(s: Size): string {
  if (typeof s === 'string') return s;
  return 'fitContent' in s ? `fit-content(${length(s.fitContent)})` : length(s);
}

function breadth(b: Breadth): string {
  return typeof b === 'string' ? b : 'fr' in b ? `${b.fr}fr` : length(b);
}

function trackSize(t: TrackSize): string {
  if ('fitContent' in t) return `fit-content(${length(t.fitContent)})`;
  return breadth(t.min) === breadth(t.max) ? breadth(t.min) : `minmax(${breadth(t.min)},${breadth(t.max)})`;
}

const track = (t: Track): string => ('repeat' in t ? `repeat(${t.repeat}, ${t.tracks.map(trackSize).join(' ')})` : trackSize(t));
const line = (l: GridLine): string => (l === 'auto' ? 'auto' : 'span' in l ? `span ${l.span}` : String(l.line));

/** The computed style as Taffy's attributes, where it differs from Taffy's defaults; what Taffy cannot express is refused. */
function attributesOf(s: Style, root: boolean): [string, string][] {
  const out: [string, string][] = [];
  const put = (name: string, value: string, unless?: string) => {
    if (value !== unless) out.push([name, value]);
  };
  if (!['block', 'flow-root', 'flex', 'grid', 'none'].includes(s.display)) throw new NotWritten(`display: ${s.display} (not in Taffy)`);
  if (s['writing-mode'] !== 'horizontal-tb') throw new NotWritten(`writing-mode: ${s['writing-mode']} (not in Taffy)`);
  if (s.order !== 0) throw new NotWritten(`order: ${s.order} (not in Taffy)`);
  for (const axis of ['overflow-x', 'overflow-y'] as const)
    if (s[axis] === 'auto' || s[axis] === 'scroll') throw new NotWritten(`${axis}: ${s[axis]} (a scrollbar's width is the platform's)`);
  put('display', s.display);
  put('direction', s.direction);
  put('box-sizing', s['box-sizing'], 'border-box');
  // Taffy positions relative (its default) or absolute, in its parent; a fixed box is placed so only at the root.
  const positioned = s.position !== 'static';
  if (s.position === 'fixed' && !root) throw new NotWritten('position: fixed below the root (its containing block is the viewport)');
  if (s.position === 'absolute' || s.position === 'fixed') put('position', 'absolute');
  put('float', s.float, 'none');
  put('clear', s.clear, 'none');
  put('flex-direction', s['flex-direction'], 'row');
  put('flex-wrap', s['flex-wrap'], 'nowrap');
  put('overflow-x', s['overflow-x'], 'visible');
  put('overflow-y', s['overflow-y'], 'visible');
  if (/^-webkit-/.test(s['text-align'])) put('text-align', s['text-align']);
  for (const p of ['align-items', 'align-self', 'justify-items', 'justify-self', 'align-content', 'justify-content'] as const) {
    // legacy is justify-items' initial value, normal as far as Taffy's boxes go.
    if (['normal', 'auto', 'legacy'].includes(s[p])) continue;
    if (/\b(left|right|last|legacy)\b/.test(s[p])) throw new NotWritten(`${p}: ${s[p]} (not in Taffy)`);
    put(p, s[p]);
  }
  put('flex-grow', String(s['flex-grow']), '0');
  put('flex-shrink', String(s['flex-shrink']), '1');
  put('flex-basis', size(s['flex-basis']), 'auto');
  for (const p of ['width', 'height'] as const) put(p, size(s[p]), 'auto');
  // Taffy's harness reads the limits as a length, a percentage or auto (LengthPercentageAuto).
  for (const p of ['min-width', 'min-height', 'max-width', 'max-height'] as const) {
    const v = s[p];
    if (v === 'auto' || v === 'none') continue;
    if (typeof v === 'string' || 'fitContent' in v) throw new NotWritten(`${p}: ${size(v)} (a Taffy test's limits are lengths)`);
    put(p, length(v));
  }
  if (s['aspect-ratio'] !== 'auto') put('aspect-ratio', String(s['aspect-ratio']));
  for (const p of ['row-gap', 'column-gap'] as const) if (s[p] !== 'normal' && !isZero(s[p])) put(p, length(s[p] as Length));
  for (const side of ['top', 'left', 'bottom', 'right'] as const) {
    const margin = s[`margin-${side}`];
    if (!isZero(margin)) put(`margin-${side}`, margin === 'auto' ? 'auto' : length(margin));
  }
  for (const side of ['top', 'left', 'bottom', 'right'] as const)
    if (!isZero(s[`padding-${side}`])) put(`padding-${side}`, length(s[`padding-${side}`]));
  for (const side of ['top', 'left', 'bottom', 'right'] as const)
    if (!isZero(s[`border-${side}-width`])) put(`border-${side}`, length(s[`border-${side}-width`]));
  for (const side of ['top', 'left', 'bottom', 'right'] as const)
    if (positioned && s[side] !== 'auto') put(side, length(s[side] as Length));
  put('grid-auto-flow', s['grid-auto-flow'], 'row');
  for (const p of ['grid-template-rows', 'grid-template-columns'] as const) {
    const v = s[p];
    if (v !== 'none') put(p, v.map(track).join(' '));
  }
  for (const p of ['grid-auto-rows', 'grid-auto-columns'] as const) put(p, s[p].map(trackSize).join(' '), 'auto');
  for (const p of ['grid-row-start', 'grid-row-end', 'grid-column-start', 'grid-column-end'] as const) put(p, line(s[p]), 'auto');
  return out;
}
