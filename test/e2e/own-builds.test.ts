// A fuzzing user's own builds: every engine's executable given at another path (here a launcher
// script that runs the system build), and a config file with extra switches and prefs per engine,
// whose effect each page shows. ping reports the executables the engines run.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM_CHROMIUM } from '../../src/workers/engines/chromium/executable.js';
import { SYSTEM_FIREFOX } from '../../src/workers/engines/firefox/process.js';
import { MINIBROWSER, WEBKIT_DRIVER } from '../../src/workers/engines/webkit/minibrowser.js';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { OracleProcess } from '../support/oracle-process.js';

const dir = mkdtempSync(join(tmpdir(), 'own-builds-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A launcher at a path of the test's own that runs `target` with the arguments it was given. */
function launcher(name: string, target: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\nexec ${target} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

test('executables at other paths run, ping names them, and each engine gets the extra switches and prefs of a config file', async () => {
  const paths = {
    chromium: launcher('my-chromium', SYSTEM_CHROMIUM),
    firefox: launcher('my-firefox', SYSTEM_FIREFOX),
    webkitDriver: launcher('my-webkit-driver', WEBKIT_DRIVER),
    miniBrowser: launcher('my-minibrowser', MINIBROWSER),
  };
  const config = join(dir, 'browser-oracle.config.json');
  writeFileSync(
    config,
    JSON.stringify({
      extra: {
        chromiumArgs: ['--user-agent=own-chromium'],
        firefoxPrefs: { 'general.useragent.override': 'own-firefox' },
        miniBrowserArgs: ['--user-agent=own-webkit'],
      },
    }),
  );
  const oracle = new OracleProcess([
    '--workers=1',
    '--pages=1',
    `--config=${config}`,
    `--chromium=${paths.chromium}`,
    `--firefox=${paths.firefox}`,
    `--webkit-driver=${paths.webkitDriver}`,
    `--minibrowser=${paths.miniBrowser}`,
  ]);
  try {
    const ping = await oracle.ready();
    assert.deepEqual(ping.engines, [...ENGINE_NAMES]);
    assert.deepEqual(ping.paths, paths);
    const answer = await oracle.request({ id: 'ua', op: 'trace', script: "trace.value('ua', navigator.userAgent); trace.done();" });
    for (const engine of ENGINE_NAMES) {
      assert.deepEqual(
        answer.traces[engine].records.map((r: { label: string; value: unknown }) => [r.label, r.value]),
        [['ua', `own-${engine}`]],
        engine,
      );
    }
    // The cases themselves are served as ever.
    const geometry = await oracle.request({ id: 'g', html: '<p>x</p>' });
    assert.deepEqual(Object.keys(geometry.dumps), [...ENGINE_NAMES], JSON.stringify(geometry.errors));
  } finally {
    await oracle.shutdown();
  }
});
