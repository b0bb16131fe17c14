// The miniature web-platform-tests checkout of test/fixtures/wpt, made whole for a test: copied
// to a temporary folder, with the real testharness.js (wpt-runner 7.0.0's, which
// scripts/setup.sh fetches) at resources/testharness.js, where a checkout has it.
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Compiled as dist/test/support/wpt-checkout.js; the fixtures and the cache stay in the source tree. */
const ROOT = new URL('../../../', import.meta.url);
export const TESTHARNESS = fileURLToPath(new URL('.cache/wpt-runner-7.0.0/testharness.js', ROOT));
const FIXTURE = fileURLToPath(new URL('test/fixtures/wpt/', ROOT));

/** A fresh copy of the fixture checkout; `remove()` deletes it. */
export function fixtureCheckout(): { dir: string; remove(): void } {
  return copied(FIXTURE, 'browser-oracle-wpt-');
}

/** A copy of the fixture tree at `fixture` in a new temporary folder, with the real testharness.js where a checkout has it. */
function copied(fixture: string, prefix: string): { dir: string; remove(): void } {
  if (!existsSync(TESTHARNESS)) throw new Error(`${TESTHARNESS} is missing: run scripts/setup.sh (npm test does), which fetches it`);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(fixture, dir, { recursive: true });
  mkdirSync(join(dir, 'resources'), { recursive: true });
  copyFileSync(TESTHARNESS, join(dir, 'resources', 'testharness.js'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fresh copy of the check-layout fixture tree (test/fixtures/wpt-authored: its pages and its own
 * resources/check-layout-th.js), with the real testharness.js, as fixtureCheckout.
 */
export function authoredCheckout(): { dir: string; remove(): void } {
  return copied(fileURLToPath(new URL('test/fixtures/wpt-authored/', ROOT)), 'browser-oracle-wpt-authored-');
}

const LAYOUT_FIXTURE = fileURLToPath(new URL('test/fixtures/wpt-layout/', ROOT));
/** The project's square font (npm run build writes it), Ahem's metrics: the fixture's fonts/Ahem.ttf. */
const SQUARE_FONT = fileURLToPath(new URL('dist/fonts/BrowserOracleSquare-Regular.otf', ROOT));

/** A solid green PNG of `width` × `height`, made here rather than committed as bytes. */
export function greenPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([0, 128, 0]))]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * A fresh copy of the layout route's fixture checkout (test/fixtures/wpt-layout), with its two
 * binary files written here (and the real testharness.js, as fixtureCheckout): fonts/Ahem.ttf, the project's square font (Ahem's metrics: every
 * glyph a one-em square), and css/css-demo/support/green.png, 60 × 60.
 */
export function layoutCheckout(): { dir: string; remove(): void } {
  const tree = copied(LAYOUT_FIXTURE, 'browser-oracle-wpt-layout-');
  copyFileSync(SQUARE_FONT, join(tree.dir, 'fonts', 'Ahem.ttf'));
  mkdirSync(join(tree.dir, 'css', 'css-demo', 'support'), { recursive: true });
  writeFileSync(join(tree.dir, 'css', 'css-demo', 'support', 'green.png'), greenPng(60, 60));
  return tree;
}
