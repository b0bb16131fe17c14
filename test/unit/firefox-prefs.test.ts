// Firefox's prefs for a launch: its content sandbox is told where the font set's fonts are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FONT_SETS } from '../../src/fonts/font-sets.js';
import { firefoxPrefs } from '../../src/workers/engines/firefox/prefs.js';
import { launchOptions } from '../support/direct-engines.js';

const launch = launchOptions('http://127.0.0.1:9/', {
  browsers: 'system',
  fontconfigFile: FONT_SETS.square.fontconfigFile,
  fontDirs: FONT_SETS.square.dirs,
});
const WHITELIST = 'security.sandbox.content.read_path_whitelist';

test("content processes may read every folder of the launch's font set, each as a whole folder", () => {
  assert.equal(firefoxPrefs(launch)[WHITELIST], `${FONT_SETS.square.dirs[0]}/`);
  assert.equal(firefoxPrefs({ ...launch, fontDirs: ['/a/fonts/', '/b'] })[WHITELIST], '/a/fonts/,/b/');
});

test('a pref the user gives wins over the font folders, as over every other pref of the oracle', () => {
  assert.equal(firefoxPrefs({ ...launch, extra: { firefoxPrefs: { [WHITELIST]: '/mine/' } } })[WHITELIST], '/mine/');
});

test("Firefox's built-in add-ons stay off: the application scope they install from is not enabled", () => {
  const APPLICATION_SCOPE = 4; // AddonManager.SCOPE_APPLICATION
  assert.equal(Number(firefoxPrefs(launch)['extensions.enabledScopes']) & APPLICATION_SCOPE, 0);
});
