// The miniature web-platform-tests checkout of test/fixtures/wpt, made whole for a test: copied
// to a temporary folder, with the real testharness.js (wpt-runner 7.0.0's, which
// scripts/setup.sh fetches) at resources/testharness.js, where a checkout has it.
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Compiled as dist/test/support/wpt-checkout.js; the fixtures and the cache stay in the source tree. */
const ROOT = new URL('../../../', import.meta.url);
export const TESTHARNESS = fileURLToPath(new URL('.cache/wpt-runner-7.0.0/testharness.js', ROOT));
const FIXTURE = fileURLToPath(new URL('test/fixtures/wpt/', ROOT));

/** A fresh copy of the fixture checkout; `remove()` deletes it. */
export function fixtureCheckout(): { dir: string; remove(): void } {
  if (!existsSync(TESTHARNESS)) throw new Error(`${TESTHARNESS} is missing: run scripts/setup.sh (npm test does), which fetches it`);
  const dir = mkdtempSync(join(tmpdir(), 'browser-oracle-wpt-'));
  cpSync(FIXTURE, dir, { recursive: true });
  mkdirSync(join(dir, 'resources'), { recursive: true });
  copyFileSync(TESTHARNESS, join(dir, 'resources', 'testharness.js'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
