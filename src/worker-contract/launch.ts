// How every engine is launched: settings the coordinator chooses once and each worker applies
// to the browsers it owns.
import type { BrowserSource, Executables, LaunchExtras } from '../protocol/launch-options.js';
import type { ProfileName } from '../protocol/schema.js';

/** The launch settings each worker applies, resolved once from the user's LaunchOptions (src/protocol/launch-options.ts). */
export interface EngineLaunch {
  profile: ProfileName;
  /** The language every engine runs in (language-REGION): its switches and prefs, and the C library's locale. */
  locale: string;
  /** The C library's locale for `locale` (LANG, LC_ALL) and the folder it is compiled in (LOCPATH): src/system/locales.ts. */
  cLocale: { name: string; dir: string };
  /** The IANA time zone every engine runs in (TZ). */
  timezone: string;
  /** X display for engines that need one (WebKitGTK's MiniBrowser). */
  display: string | undefined;
  /** Every engine's FONTCONFIG_FILE, which pins the fonts it sees (src/fonts/fontconfig-file.ts). */
  fontconfigFile: string;
  /** The folders holding those fonts (FontSet.dirs), for engines whose sandbox must be told. */
  fontDirs: readonly string[];
  /** The oracle's own server, which every request of every engine is sent to (network isolation). */
  proxyUrl: string;
  /** `auto` prefers Playwright's own browser builds when they are installed. */
  browsers: BrowserSource;
  /**
   * Executables given by flag or config file, checked to exist and be executable. A given one is
   * launched instead of both Playwright's build and the system package (so the engine's
   * system-package path is taken: CDP for chromium, BiDi for firefox, WebKitWebDriver + MiniBrowser
   * for webkit), whatever `browsers` says.
   */
  paths: Executables;
  /**
   * Switches and prefs added after the oracle's own and the profile's (a pref given here wins over
   * theirs), but before network isolation's, which no setting may undo.
   */
  extra: LaunchExtras;
}
