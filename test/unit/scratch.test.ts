// The oracle's temporary folders carry their maker's pid, so those of an oracle killed hard are
// removed by the next one, and no live process's folder ever is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownedFolder, removeStrayFolders } from '../../src/system/scratch.js';

test('the folders of a process that is gone are removed; those of live processes and others are kept', () => {
  const outer = process.env.TMPDIR;
  process.env.TMPDIR = mkdtempSync(join(tmpdir(), 'scratch-test-'));
  const sleeper = spawn('sleep', ['300'], { stdio: 'ignore' });
  try {
    const gone = spawnSync('true').pid;
    const mine = ownedFolder('chromium');
    assert.match(mine, new RegExp(`/browser-oracle-${process.pid}-chromium-[^/]+$`));
    const stray = join(tmpdir(), `browser-oracle-${gone}-firefox-x1`);
    mkdirSync(join(stray, 'profile'), { recursive: true });
    writeFileSync(join(stray, 'profile', 'lock'), '');
    const otherLive = join(tmpdir(), `browser-oracle-${sleeper.pid}-webkit-x2`);
    const notOurs = [join(tmpdir(), 'browser-oracle-fontconfig-0123abcd'), join(tmpdir(), `other-${gone}-x`)];
    for (const folder of [otherLive, ...notOurs]) mkdirSync(folder);

    assert.equal(removeStrayFolders(), 1);
    assert.equal(existsSync(stray), false);
    for (const folder of [mine, otherLive, ...notOurs]) assert.ok(existsSync(folder), folder);
    assert.equal(removeStrayFolders(), 0);
  } finally {
    sleeper.kill();
    rmSync(tmpdir(), { recursive: true, force: true });
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
  }
});
