// Launch options from every source: the library's call, browser-oracle.config.json and the
// command line's flags, merged in that order of strength, and the executables checked before
// anything starts. Nothing here launches an engine.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { CONFIG_FILE, configFileFor, readConfigFile } from '../../src/api/config-file.js';
import { defaultOptions, withDefaults } from '../../src/coordinator/launch-settings.js';
import { addEngineOptions, launchOptionsOf } from '../../src/cli/engine-options.js';
import { ConfigError } from '../../src/protocol/errors.js';
import { checkLaunchOptions } from '../../src/protocol/validate.js';
import { checkExecutables } from '../../src/system/executables.js';
import { LOG_LEVEL_ENV } from '../../src/system/log.js';

const dir = mkdtempSync(join(tmpdir(), 'launch-options-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string, mode = 0o644): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

const fakeChromium = file('builds/chrome', '#!/bin/sh\n', 0o755);
const fakeDriver = file('builds/WebKitWebDriver', '#!/bin/sh\n', 0o755);

test('a config file: checked, with its executable paths taken relative to its folder', () => {
  const config = file(
    'project/browser-oracle.config.json',
    JSON.stringify({
      engines: ['chromium', 'webkit'],
      workers: 3,
      fonts: 'square',
      paths: { chromium: '../builds/chrome', webkitDriver: fakeDriver },
      extra: { chromiumArgs: ['--lang=de'], firefoxPrefs: { 'intl.accept_languages': 'de', 'layout.css.devPixelsPerPx': '1.0' } },
    }),
  );
  assert.deepEqual(readConfigFile(config), {
    engines: ['chromium', 'webkit'],
    workers: 3,
    fonts: 'square',
    paths: { chromium: fakeChromium, webkitDriver: fakeDriver },
    extra: { chromiumArgs: ['--lang=de'], firefoxPrefs: { 'intl.accept_languages': 'de', 'layout.css.devPixelsPerPx': '1.0' } },
  });
});

test('a config file that cannot be used is a one-line ConfigError naming the file and the field', () => {
  const cases: [string, RegExp][] = [
    ['{"workers": 0}', /bad\.json: field "workers": expected integer to be greater or equal to 1$/],
    ['{"engines": ["presto"]}', /bad\.json: field "engines\[0\]": must be one of "chromium", "firefox", "webkit"$/],
    ['{"paths": {"chrome": "/x"}}', /bad\.json: field "paths\.chrome": unknown field$/],
    ['{"extra": {"firefoxPrefs": {"a": null}}}', /bad\.json: field "extra\.firefoxPrefs\.a": must be a string or a number or a boolean$/],
    ['{"timeoutMs": "30s"}', /bad\.json: field "timeoutMs": expected integer$/],
    ['[]', /bad\.json: must be a JSON object$/],
    ['{"workers": 2,}', /bad\.json: not JSON \(/],
  ];
  for (const [text, message] of cases) {
    const bad = file('bad.json', text);
    assert.throws(
      () => readConfigFile(bad),
      (error: unknown) => error instanceof ConfigError && message.test(error.message) && !error.message.includes('\n'),
      text,
    );
  }
  assert.throws(() => readConfigFile(join(dir, 'none.json')), /none\.json: cannot read it: no such file or directory$/);
});

test('the config file read: --config when given, else ./browser-oracle.config.json when present', () => {
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  assert.equal(configFileFor(undefined, empty), undefined);
  assert.equal(configFileFor('/elsewhere.json', empty), '/elsewhere.json');
  const present = file(`with-config/${CONFIG_FILE}`, '{}');
  assert.equal(configFileFor(undefined, join(dir, 'with-config')), present);
});

test('library options: checked like a config file, a field left undefined keeps its default', () => {
  assert.throws(() => checkLaunchOptions({ pages: 0 }, 'launch options'), /^ConfigError: launch options: field "pages": /);
  assert.throws(() => checkLaunchOptions({ browser: 'auto' }, 'launch options'), /field "browser": unknown field/);
  assert.deepEqual(withDefaults({ workers: undefined, pages: 5 }), { ...defaultOptions(), pages: 5 });
});

/** A command with the engine options, parsed from `args`, and the launch options it resolves. */
function resolved(args: string[]) {
  const defaults = { ...defaultOptions(), workers: 1 };
  const command = addEngineOptions(new Command().exitOverride(), defaults).action(() => {});
  command.parse(args, { from: 'user' });
  return launchOptionsOf(command, defaults);
}

test('flags override the config file, which overrides the command defaults', () => {
  const config = file(
    'precedence.json',
    JSON.stringify({
      workers: 4,
      pages: 3,
      profile: 'media',
      paths: { chromium: fakeChromium, firefox: '/opt/firefox/firefox' },
      extra: { miniBrowserArgs: ['--enable-webgl=true'] },
    }),
  );
  const options = resolved(['--config', config, '--pages=5', '--firefox=builds/firefox', '--engines=chromium,firefox']);
  assert.deepEqual(options, {
    ...defaultOptions(),
    engines: ['chromium', 'firefox'],
    workers: 4,
    pages: 5,
    profile: 'media',
    paths: { chromium: fakeChromium, firefox: join(process.cwd(), 'builds/firefox') },
    extra: { miniBrowserArgs: ['--enable-webgl=true'] },
  });
  assert.deepEqual(resolved(['--config', config, '--webkit-driver', fakeDriver, '--minibrowser', fakeDriver]).paths, {
    chromium: fakeChromium,
    firefox: '/opt/firefox/firefox',
    webkitDriver: fakeDriver,
    miniBrowser: fakeDriver,
  });
  // No config file, no flags: the command's own defaults.
  assert.deepEqual(resolved(['--config', file('empty.json', '{}')]), { ...defaultOptions(), workers: 1 });
});

test('--chromium-build picks the Chromium build, and --browsers, its old name, still does; --help shows the new name only', () => {
  assert.equal(resolved(['--chromium-build=system']).browsers, 'system');
  assert.equal(resolved(['--browsers=system']).browsers, 'system');
  assert.equal(resolved(['--browsers', 'bundled']).browsers, 'bundled');
  assert.equal(resolved([]).browsers, defaultOptions().browsers);
  assert.throws(() => resolved(['--chromium-build=system', '--browsers=bundled']), /cannot be used with/);
  const help = addEngineOptions(new Command(), defaultOptions()).helpInformation();
  assert.match(help, /--chromium-build <which>\s+which Chromium/);
  assert.doesNotMatch(help, /--browsers\b/);
});

test('--quiet and --log-level set the level workers start with', () => {
  const before = process.env[LOG_LEVEL_ENV];
  after(() => {
    if (before === undefined) delete process.env[LOG_LEVEL_ENV];
    else process.env[LOG_LEVEL_ENV] = before;
  });
  resolved(['--quiet']);
  assert.equal(process.env[LOG_LEVEL_ENV], 'error');
  resolved(['--log-level=debug']);
  assert.equal(process.env[LOG_LEVEL_ENV], 'debug');
  assert.throws(() => resolved(['--quiet', '--log-level=warn']), /--quiet and --log-level set the same thing/);
  resolved(['--quiet']);
  assert.equal(process.env[LOG_LEVEL_ENV], 'error', '--quiet wins over the level in the environment');
});

test('executables are checked at start: each launched engine’s must be an executable file', () => {
  const plain = file('builds/not-executable', 'data', 0o644);
  const folder = join(dir, 'builds');
  assert.deepEqual(checkExecutables({ chromium: fakeChromium, firefox: '/nonexistent' }, ['chromium']), { chromium: fakeChromium });
  const cases: [Parameters<typeof checkExecutables>[0], RegExp][] = [
    [{ chromium: '/nonexistent/chrome' }, /^paths\.chromium \(--chromium\): \/nonexistent\/chrome does not exist$/],
    [{ webkitDriver: folder }, /^paths\.webkitDriver \(--webkit-driver\): .*builds is not a file$/],
    [{ miniBrowser: plain }, /^paths\.miniBrowser \(--minibrowser\): .*not-executable is not executable$/],
  ];
  for (const [paths, message] of cases) {
    assert.throws(
      () => checkExecutables(paths, ['chromium', 'webkit']),
      (error: unknown) => error instanceof ConfigError && message.test(error.message),
    );
  }
});
