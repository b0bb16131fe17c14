// A screenshot's header is read without trusting it: signature, IHDR, its CRC.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { pngSize } from '../../src/protocol/png.js';

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

test('pngSize refuses a header whose CRC does not hold, or whose IHDR is not 13 bytes', () => {
  const forged = png(800, 600);
  forged[19] = 0xff; // a width that is not the one the CRC covers
  assert.equal(pngSize(forged), null);
  const long = png(800, 600);
  long[11] = 14;
  assert.equal(pngSize(long), null);
});
