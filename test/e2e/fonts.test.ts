// --fonts=square on the three real engines, through the stdio oracle: ping reports the set, and
// text in any family is set in the square font, so a run of n characters at 20px is n × 20 px
// wide in every engine (under Liberation the widths differ per family and engine).
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
