// The browser-process helper the Chromium and Firefox adapters share, on a stand-in browser (a
// shell that forks a helper into its process group, as a browser forks its zygote or content
// processes): the exit waits for the whole group and removes the folder, and a failed start is
// one line with the browser's last words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startBrowser, type BrowserSpec } from '../../src/workers/engines/browser-process.js';
import { survivors } from '../support/processes.js';

/** A browser that is `script`, run by sh with its folder as $1; its helper is a sleep in its group. */
const standIn = (script: string, overrides: Partial<BrowserSpec> = {}): BrowserSpec => ({
  executable: '/bin/sh',
  debianPackage: 'dash',
  folderKind: 'test',
  args: (folder) => ['-c', script, 'sh', folder],
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  ...overrides,
});

/** A helper that is never killed would leave a test waiting on `exited`: it fails instead. */
const BOUNDED = { timeout: 30_000 };

/** Resolves once the stand-in has written `line` on stderr. */
const said = (browser: { stderr: NodeJS.EventEmitter }, line: string) =>
  new Promise<void>((resolve) => browser.stderr.on('line', (l: string) => l === line && resolve()));

test('kill: exited resolves once no process of the group is alive, and the folder is gone', BOUNDED, async () => {
  const browser = await startBrowser(standIn('sleep 300 & echo up >&2; wait'));
  await said(browser, 'up');
  const folder = (await readFile(`/proc/${browser.pid}/cmdline`, 'utf8')).split('\0')[4]!;
  assert.ok(existsSync(folder));
  assert.equal(survivors(browser.pid).length, 2, 'the shell and its helper');
  browser.kill();
  await browser.exited;
  assert.deepEqual(survivors(browser.pid), []);
  assert.equal(existsSync(folder), false);
});

test('what the browser writes to its temporary folder is inside its own folder, and goes with it', BOUNDED, async () => {
  const browser = await startBrowser(standIn('mkdir "$TMPDIR/org.example.Singleton" && echo "$TMPDIR" >&2; sleep 300'));
  const temp = await new Promise<string>((resolve) => browser.stderr.once('line', resolve));
  const folder = (await readFile(`/proc/${browser.pid}/cmdline`, 'utf8')).split('\0')[4]!;
  assert.equal(temp, folder);
  assert.ok(existsSync(join(folder, 'org.example.Singleton')));
  browser.kill();
  await browser.exited;
  assert.equal(existsSync(folder), false);
});

test('a browser that exits takes its helpers with it; its failure is its exit and its last five stderr lines', BOUNDED, async () => {
  const browser = await startBrowser(standIn('sleep 300 & for i in 1 2 3 4 5 6 7; do echo line $i >&2; done; exit 3'));
  await browser.exited;
  assert.deepEqual(survivors(browser.pid), [], 'the helper was killed with the group');
  assert.equal(await browser.failure(), 'it exited (code 3) (its last words: line 3 | line 4 | line 5 | line 6 | line 7)');
  assert.equal(
    await browser.failure('no address within 1 ms'),
    'no address within 1 ms (its last words: line 3 | line 4 | line 5 | line 6 | line 7)',
  );
});

test('once started, its stderr is no longer kept', BOUNDED, async () => {
  const browser = await startBrowser(standIn("trap 'echo late >&2; exit 1' USR1; echo early >&2; while :; do sleep 1; done"));
  await said(browser, 'early');
  browser.started();
  const late = said(browser, 'late');
  process.kill(browser.pid, 'SIGUSR1');
  await late;
  await browser.exited;
  assert.equal(await browser.failure(), 'it exited (code 1)');
});

test('what the browser reads at start is written into its folder first', BOUNDED, async () => {
  const browser = await startBrowser(
    standIn('cat "$1/user.js" >&2; exit 0', { prepare: (folder) => writeFile(join(folder, 'user.js'), 'user_pref("a", 1);') }),
  );
  await browser.exited;
  assert.equal(await browser.failure(), 'it exited (code 0) (its last words: user_pref("a", 1);)');
});

test('a missing executable is named, with the package that provides it; its folder is removed', BOUNDED, async () => {
  let folder = '';
  const browser = await startBrowser(
    standIn('', {
      executable: '/nonexistent/browser',
      prepare: async (f) => {
        folder = f;
      },
    }),
  );
  assert.equal(await browser.failure(), '/nonexistent/browser not found (apt-get install dash)');
  assert.notEqual(folder, '');
  assert.equal(existsSync(folder), false);
});

test('close: a browser that does not answer its close is killed, group and all; a second close is the same close', BOUNDED, async () => {
  const browser = await startBrowser(standIn('sleep 300 & echo up >&2; wait'));
  await said(browser, 'up');
  const asked: string[] = [];
  const ask = () => {
    asked.push('close');
    return new Promise<never>(() => {});
  };
  const closing = browser.close(ask, 10);
  assert.equal(browser.close(ask, 10), closing);
  await closing;
  assert.deepEqual(asked, ['close'], 'asked once');
  assert.deepEqual(survivors(browser.pid), []);
});
