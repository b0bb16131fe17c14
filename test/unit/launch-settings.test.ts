// The launch resolution alone (src/coordinator/launch-settings.ts): what the options resolve to
// for the workers and their adapters, every option but the host's reaching the adapters as given,
// and the options that cannot be used refused as one-line ConfigErrors before anything starts.
// Nothing here launches an engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultOptions, dumpLimits, resolveLaunch } from '../../src/coordinator/launch-settings.js';
import { FONT_SETS } from '../../src/fonts/font-sets.js';
import { fontconfigFileOf } from '../../src/fonts/fontconfig-file.js';
import { ConfigError } from '../../src/protocol/errors.js';
import { LaunchOptionsSchema, type OracleOptions } from '../../src/protocol/launch-options.js';
import { cLocaleName, localeCacheDir } from '../../src/system/locales.js';
import { HOST_OPTIONS } from '../../src/worker-contract/launch.js';

/** A launch option's name, as HOST_OPTIONS lists them. */
const isHostOption = (key: string) => (HOST_OPTIONS as readonly string[]).includes(key);

const GiB = 1024 * 1024 * 1024;

test('the defaults resolve to the farm of the host options, and each adapter gets the rest with the resolved locale, fonts and executables', async () => {
  const options: OracleOptions = { ...defaultOptions(), workers: 3, engines: ['chromium', 'webkit'], maxEngineMemory: '3GiB' };
  const plan = await resolveLaunch(options);
  assert.deepEqual(plan, {
    engines: ['chromium', 'webkit'],
    workers: 3,
    pages: options.pages,
    maxBatch: options.maxBatch,
    window: options.window,
    timeoutMs: options.timeoutMs,
    limits: dumpLimits(options),
    maxEngineMemory: 3 * GiB,
    launch: {
      // Every option but the host's, as given: profile, locale, timezone, browsers, display, paths, extra…
      ...Object.fromEntries(Object.entries(options).filter(([key]) => !isHostOption(key))),
      cLocale: { name: cLocaleName('en-US'), dir: localeCacheDir() },
      fontconfigFile: FONT_SETS.liberation.fontconfigFile,
      fontDirs: FONT_SETS.liberation.dirs,
    },
  });
  assert.equal(plan.limits.maxBytes, Math.floor(options.maxAnswerBytes / 2), "the answer's bytes are shared by its two engines");
});

test('every launch option but the host’s reaches the adapters as given, so a new one needs no word between its flag and its adapter', async () => {
  const options: OracleOptions = {
    ...defaultOptions(),
    profile: 'media',
    fonts: 'square',
    timezone: 'Asia/Tokyo',
    browsers: 'system',
    display: ':99',
    paths: { chromium: '/bin/true', webkitDriver: 'relative/not/checked' },
    extra: { chromiumArgs: ['--lang=de'], miniBrowserArgs: ['--enable-webgl=true'] },
    engines: ['chromium'],
  };
  const { launch } = await resolveLaunch(options);
  for (const key of Object.keys(LaunchOptionsSchema.properties)) {
    if (isHostOption(key)) assert.ok(!(key in launch), `${key} is the host's, not the adapters'`);
    else assert.ok(key in launch, `${key} reaches the adapters`);
  }
  assert.equal(launch.profile, 'media');
  assert.equal(launch.timezone, 'Asia/Tokyo');
  assert.equal(launch.browsers, 'system');
  assert.equal(launch.display, ':99');
  assert.deepEqual(launch.extra, options.extra);
  // Only the launched engines' executables, checked: WebKit's is left out.
  assert.deepEqual(launch.paths, { chromium: '/bin/true' });
  assert.equal(launch.fontconfigFile, fontconfigFileOf('square'));
  assert.deepEqual(launch.fontDirs, FONT_SETS.square.dirs);
});

test('options that cannot be used are one-line ConfigErrors naming the option', async () => {
  const cases: [Partial<OracleOptions>, RegExp][] = [
    [{ paths: { chromium: '/nonexistent/chrome' } }, /^paths\.chromium \(--chromium\): \/nonexistent\/chrome does not exist$/],
    [{ timezone: 'Mars/Olympus_Mons' }, /^--timezone=Mars\/Olympus_Mons: not an IANA time zone name/],
    [{ maxEngineMemory: '100MiB' }, /^maxEngineMemory: 100 MiB is below the least, 512 MiB$/],
    [{ locale: 'xx-XX' }, /^--locale=xx-XX: the C library has no locale xx_XX/],
  ];
  for (const [wrong, message] of cases) {
    await assert.rejects(
      resolveLaunch({ ...defaultOptions(), ...wrong }),
      (error: unknown) => error instanceof ConfigError && message.test(error.message) && !error.message.includes('\n'),
      JSON.stringify(wrong),
    );
  }
});
