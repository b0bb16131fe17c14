// Text in the reference candidates: runs in a square font (Ahem from the case's own @font-face, or
// any family under --fonts=square) measured exactly, breaking only at spaces and zero-width
// spaces; anything else unsupported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildBoxes, type Box } from '../../src/candidate-reference/web/boxes.js';
import { cascade } from '../../src/candidate-reference/web/cascade.js';
import { parseDocument } from '../../src/candidate-reference/web/document.js';
import { computeStyles } from '../../src/candidate-reference/web/style.js';
import { lineBox, measureText, type FontMode } from '../../src/candidate-reference/web/text.js';
import { Unsupported } from '../../src/candidate-reference/web/unsupported.js';
import { USER_AGENT_SHEET } from '../../src/candidate-reference/web/user-agent.js';

const AHEM = `@font-face { font-family: Ahem; src: url(data:font/woff2;base64,AAAA) }`;

/** The first text run of the body's first element, measured. */
function measured(style: string, text: string, mode: FontMode = 'square', css = '') {
  const document = parseDocument(`<!doctype html><style>body { margin: 0 } ${css}</style><div style="${style}">${text}</div>`);
  const cascaded = cascade(document, USER_AGENT_SHEET);
  const html = buildBoxes(document.root, computeStyles(document, cascaded), { keepContents: false });
  const find = (b: Box): Box | undefined => (b.text !== undefined ? b : b.children.map(find).find(Boolean));
  return measureText(find(html)!, { mode, fontFaces: cascaded.fontFaces });
}

const refused = (run: () => unknown, message: RegExp) =>
  assert.throws(run, (e: Error) => e instanceof Unsupported && message.test(e.message));

test('a run is words an em per character wide, with the breaks between them', () => {
  const text = measured('font-size: 10px; line-height: 1', 'HH&#8203;HHH  HH\n');
  assert.deepEqual(text.words, [20, 30, 20]);
  assert.deepEqual(text.breaks, [0, 10, 0], 'a zero-width space breaks with no width; collapsed spaces with one em');
  assert.equal(text.lineHeight, 10);
});

test('lines fill greedily; min-content is the widest word, max-content one line', () => {
  const text = measured('font-size: 10px; line-height: 1', 'HH&#8203;HHH HH');
  assert.deepEqual(lineBox(text, 45), { width: 30, height: 30 }, 'HH | HHH | HH');
  assert.deepEqual(
    lineBox(text, 60),
    { width: 50, height: 20 },
    'HH and HHH across the zero-width space (the space after them hangs) | HH',
  );
  assert.deepEqual(lineBox(text, 0), { width: 30, height: 30 });
  assert.deepEqual(lineBox(text, Number.POSITIVE_INFINITY), { width: 80, height: 10 });
  const nowrap = measured('font-size: 10px; line-height: 1; white-space: nowrap', 'HH HH');
  assert.deepEqual(lineBox(nowrap, 0), { width: 50, height: 10 });
});

test('line heights: numbers, lengths and percentages; normal only where it is exact', () => {
  assert.equal(measured('font-size: 20px; line-height: 1.5', 'H').lineHeight, 30);
  assert.equal(measured('font-size: 20px; line-height: 7px', 'H').lineHeight, 7);
  assert.equal(measured('font-size: 20px; line-height: 150%', 'H').lineHeight, 30);
  assert.equal(measured('font-size: 13px', 'H').lineHeight, 16, 'the square font: round(1.2 em)');
  refused(() => measured('font-size: 12.5px', 'H'), /^line-height: normal/);
  refused(() => measured('font-family: ahem; font-size: 10px', 'H', 'liberation', AHEM), /^line-height: normal \(with Ahem\)/);
});

test('which fonts are square: Ahem from the case, or any family under --fonts=square', () => {
  assert.deepEqual(measured('font-family: ahem; font-size: 10px; line-height: 1', 'HH', 'liberation', AHEM).words, [20]);
  refused(() => measured('font-family: serif; line-height: 1', 'HH', 'liberation'), /^font-family: serif/);
  refused(
    () =>
      measured(
        'font-family: Other; line-height: 1',
        'HH',
        'square',
        `@font-face { font-family: Other; src: url(data:font/ttf;base64,AAAA) }`,
      ),
    /web font other than Ahem/,
  );
  // A face whose font no browser gets defines nothing: the family falls back as any other does.
  const unloaded = `@font-face { font-family: Ahem; src: local(Ahem), url(x) } @font-face { font-family: Other; src: url(x) }`;
  refused(() => measured('font-family: ahem; line-height: 1', 'HH', 'liberation', unloaded), /^font-family: ahem \(text is measured only/);
  assert.deepEqual(measured('font-family: Other; font-size: 10px; line-height: normal', 'HH', 'square', unloaded).lineHeight, 12);
  refused(
    () => measured('font-family: ahem; line-height: 1; font-weight: bold', 'HH', 'liberation', AHEM),
    /^font-weight: 700 \(with Ahem\)/,
  );
  assert.deepEqual(measured('font-weight: bold; line-height: 1', 'HH', 'square').words, [32], 'the square font has a bold face');
});

test('text whose lines are not exact is unsupported', () => {
  refused(() => measured('line-height: 1', 'HH-HH'), /^text: "-"/);
  refused(() => measured('line-height: 1; white-space: pre', 'HH'), /^white-space: pre \(with text\)/);
  refused(() => measured('line-height: 1; letter-spacing: 2px', 'HH'), /^letter-spacing: 2px/);
  refused(() => measured('line-height: 1', '&#8203;HH'), /an empty word/);
});
