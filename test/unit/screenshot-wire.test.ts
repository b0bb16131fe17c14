// A screenshot's way out: the page's answers and bytes are decoded as untrusted input in the
// worker, travel as msgpack binary, and become base64 only in the answer line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { decodeScreenshot, decodeSettledText } from '../../src/protocol/page-output.js';
import { answerLine, packResult, unpackResult } from '../../src/protocol/wire.js';
import { OracleError } from '../../src/protocol/errors.js';

const png = (width: number, height: number) => new Uint8Array(PNG.sync.write(new PNG({ width, height })));

const tampered = (error: unknown) => error instanceof OracleError && error.code === 'page_tampered';

test('bytes cross the thread hop as bytes, and the answer line holds them as base64', () => {
  const bytes = png(8, 6);
  const crossed = unpackResult<{ images: { webkit: Uint8Array } }>(packResult({ images: { webkit: bytes } }));
  assert.ok(crossed.images.webkit instanceof Uint8Array);
  assert.deepEqual(new Uint8Array(crossed.images.webkit), bytes);
  const line = answerLine({ id: 's', images: { webkit: crossed.images.webkit } }).join('');
  assert.ok(line.endsWith('}\n') && !line.slice(0, -1).includes('\n'));
  const parsed = JSON.parse(line) as { images: { webkit: string } };
  assert.deepEqual(new Uint8Array(Buffer.from(parsed.images.webkit, 'base64')), bytes);
  // A view into a larger buffer is encoded as its own bytes only.
  const inside = new Uint8Array(20).fill(7);
  assert.equal(JSON.parse(answerLine({ b: inside.subarray(2, 5) }).join('')).b, Buffer.from([7, 7, 7]).toString('base64'));
});

test('decodeScreenshot reads a PNG header, and calls anything else page_tampered', () => {
  const shot = decodeScreenshot(png(800, 600));
  assert.deepEqual([shot.width, shot.height], [800, 600]);
  assert.throws(() => decodeScreenshot(new TextEncoder().encode('<svg onload="alert(1)"></svg> padded to be long enough')), tampered);
  assert.throws(() => decodeScreenshot('iVBORw0KGgo='), tampered, 'base64 text is not bytes');
  assert.throws(() => decodeScreenshot(null), tampered);
});

test('decodeSettledText: settled, or where the page is, or the script error; anything else is page_tampered', () => {
  assert.equal(decodeSettledText('{"settled":true}'), null);
  assert.deepEqual(decodeSettledText('{"elsewhere":"about:blank"}'), { elsewhere: 'about:blank' });
  assert.deepEqual(decodeSettledText('{"scriptError":"Error: x"}'), { scriptError: 'Error: x' });
  for (const bad of ['{"settled":false}', '{"settled":true,"x":1}', '{"failed":"the page replaced push"}', 'not json', 42])
    assert.throws(() => decodeSettledText(bad), tampered, String(bad));
});
