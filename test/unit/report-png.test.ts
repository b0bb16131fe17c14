// Screenshots go in as data: URLs; their size is read from the PNG header.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { pngDataUrl, pngSize } from '../../src/report/png.js';

const png = (width: number, height: number) => new Uint8Array(PNG.sync.write(new PNG({ width, height })));

test('pngSize reads the IHDR size, and refuses what is not a PNG', () => {
  assert.deepEqual(pngSize(png(800, 600)), { width: 800, height: 600 });
  assert.deepEqual(pngSize(png(3, 70000)), { width: 3, height: 70000 });
  assert.equal(pngSize(new TextEncoder().encode('<svg onload="alert(1)"></svg>, long enough to pass')), null);
  assert.equal(pngSize(png(8, 8).subarray(0, 20)), null, 'cut before the size');
  const offset = png(5, 7);
  const inside = new Uint8Array(offset.length + 3);
  inside.set(offset, 3);
  assert.deepEqual(pngSize(inside.subarray(3)), { width: 5, height: 7 }, 'a view into a larger buffer');
});

test('pngDataUrl is base64 of exactly the bytes', () => {
  const bytes = png(2, 2);
  const url = pngDataUrl(bytes);
  assert.match(url, /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
  assert.deepEqual(new Uint8Array(Buffer.from(url.split(',')[1]!, 'base64')), bytes);
});
