// --fonts=square on the three real engines, through the stdio oracle: ping reports the set, and
// text in any family is set in the square font, so a run of n characters at s px is n × s px
// wide in every engine, face and size, its inline box s px high, and its line as high as
// line-height says (under Liberation the widths differ per family and engine).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { OracleProcess, type Line } from '../support/oracle-process.js';

const FAMILIES = ['serif', 'sans-serif', 'monospace', "'Whatever Unknown'", "'Times New Roman'"];
/** Latin, accented, Greek and Cyrillic letters, digits and a space: 12 characters. */
const TEXT = 'Hxgé ΩжQ0123';
const SIZE = 20;

let oracle: OracleProcess;

before(async () => {
  oracle = new OracleProcess(['--fonts=square', '--workers=1', '--pages=1']);
  await oracle.ready();
});

after(async () => {
  await oracle.shutdown();
});

test('ping reports the square font set', async () => {
  const ping = await oracle.request({ id: 'ping', op: 'ping' });
  assert.equal(ping.fonts, 'square');
  assert.deepEqual(ping.engines, [...ENGINE_NAMES]);
});

test('under --fonts=square, n characters at 20px are n × 20 px wide in every family and engine', async () => {
  const spans = FAMILIES.flatMap((family) =>
    ['normal', 'italic'].map(
      (style) => `<div style="font:${style} ${SIZE}px ${family}"><span style="white-space:pre">${TEXT}</span></div>`,
    ),
  );
  const response = await oracle.request({ id: 'square', html: `<!doctype html><body style="margin:0">${spans.join('')}</body>` });
  assert.equal(response.errors, undefined);
  for (const engine of ENGINE_NAMES) {
    const widths = (response.dumps[engine].nodes as Line[]).filter((n) => n.tag === 'SPAN').map((n) => n.bounding.w);
    assert.deepEqual(
      widths,
      spans.map(() => [...TEXT].length * SIZE),
      `${engine}: every span is ${[...TEXT].length} em wide`,
    );
  }
});

/** Every whole size from 8 to 32 px, in two documents so that neither overflows the viewport. */
const SIZE_GROUPS = [
  [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
  [21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32],
];
/** Regular, bold and italic: each is a face of its own, so none is synthesized. */
const FACES = ['font-weight:normal', 'font-weight:bold', 'font-style:italic'];
/** Six characters: Latin, accented, a space, Greek and Cyrillic. */
const RUN = 'Hxé Ωж';
/** line-height: normal is 1.2 em rounded in every engine (the font's line gap, src/fonts/square-font.ts); 1 is the em. */
const LINE_HEIGHTS = [
  { css: 'normal', box: (size: number) => Math.round(1.2 * size) },
  { css: '1', box: (size: number) => size },
];

test('at every size from 8 to 32 px, regular, bold and italic, a run of n glyphs is n × s px wide, s px high, in a line box all engines agree on', async () => {
  for (const [group, sizes] of SIZE_GROUPS.entries()) {
    const rows = sizes.map((size) => {
      const boxes = LINE_HEIGHTS.flatMap(({ css }) =>
        FACES.map(
          (face) => `<div style="font:${size}px serif;${face};line-height:${css}"><span style="white-space:pre">${RUN}</span></div>`,
        ),
      );
      return `<div style="display:flex;align-items:flex-start">${boxes.join('')}</div>`;
    });
    const response = await oracle.request({
      id: `sizes-${group}`,
      html: `<!doctype html><meta charset="utf-8"><body style="margin:0">${rows.join('')}</body>`,
    });
    assert.equal(response.errors, undefined);
    const expected = sizes.flatMap((size) =>
      LINE_HEIGHTS.flatMap(({ css, box }) =>
        FACES.map((face) => `${size}px ${face} line-height:${css}: span ${[...RUN].length * size}×${size} in a ${box(size)} px line`),
      ),
    );
    for (const engine of ENGINE_NAMES) {
      const nodes = response.dumps[engine].nodes as Line[];
      const spans = nodes.filter((n) => n.tag === 'SPAN');
      const measured = spans.map((span, i) => {
        const line = nodes[span.parent];
        return expected[i]!.replace(/span .*/, `span ${span.bounding.w}×${span.bounding.h} in a ${line.bounding.h} px line`);
      });
      assert.deepEqual(measured, expected, engine);
    }
  }
});
