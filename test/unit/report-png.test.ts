// Screenshots go in as data: URLs (their size is read by src/protocol/png.ts: png.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { pngDataUrl } from '../../src/report/png.js';

const png = (width: number, height: number) => new Uint8Array(PNG.sync.write(new PNG({ width, height })));

test('pngDataUrl is base64 of exactly the bytes', () => {
  const bytes = png(2, 2);
  const url = pngDataUrl(bytes);
  assert.match(url, /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
  assert.deepEqual(new Uint8Array(Buffer.from(url.split(',')[1]!, 'base64')), bytes);
});
