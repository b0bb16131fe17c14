// How every engine is launched: settings the coordinator resolves once (src/coordinator/launch-settings.ts)
// and each worker applies to the browsers it owns.
import type { OracleOptions } from '../protocol/launch-options.js';

/** The launch options every worker's engine hosts read as they were given (WorkerConfig). */
export const WORKER_OPTIONS = ['engines', 'pages', 'maxBatch', 'timeoutMs'] as const satisfies readonly (keyof OracleOptions)[];

/**
 * The launch options the coordinator and the engine hosts read themselves (`fonts` reaches the
 * adapters as its files); every other one reaches each adapter as it was given, after its
 * default, so that a new one needs no word here.
 */
export const HOST_OPTIONS = [
  ...WORKER_OPTIONS,
  'workers',
  'window',
  'maxNodes',
  'maxAnswerBytes',
  'maxEngineMemory',
  'allowMissingEngines',
  'fonts',
] as const satisfies readonly (keyof OracleOptions)[];

/**
 * What each adapter launches its browser with: the user's options but the host's, and what the
 * coordinator resolved from them. `paths` are checked to exist and be executable, and made
 * absolute; a given one is launched instead of both Playwright's build and the system package,
 * whatever `browsers` says. `extra` comes after the oracle's own switches and prefs and the
 * profile's (a pref given there wins over theirs), but before network isolation's, which no
 * setting may undo.
 */
export type EngineLaunch = Omit<OracleOptions, (typeof HOST_OPTIONS)[number]> & {
  /** The C library's locale for `locale` (LANG, LC_ALL) and the folder it is compiled in (LOCPATH): src/system/locales.ts. */
  cLocale: { name: string; dir: string };
  /** Every engine's FONTCONFIG_FILE, which pins the fonts it sees (src/fonts/fontconfig-file.ts): the font set's. */
  fontconfigFile: string;
  /** The folders holding those fonts (FontSet.dirs), for engines whose sandbox must be told. */
  fontDirs: readonly string[];
  /** The oracle's own server, which every request of every engine is sent to (network isolation). */
  proxyUrl: string;
};
