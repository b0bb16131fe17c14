// Every pref a Firefox profile is created with, and the user.js text that carries them.
import type { EngineLaunch } from '../../../worker-contract/launch.js';
import { networkPrefs } from './network-prefs.js';
import type { Prefs } from './pref-map.js';
import { PLAYWRIGHT_PREFS } from './playwright-prefs.js';
import { PROFILE_PREFS } from './profile-prefs.js';

/** The oracle's own prefs on top of Playwright's. */
const ORACLE_PREFS: Prefs = {
  'layout.css.devPixelsPerPx': '1.0',
  // A hung case is ended by the oracle's own timeout, not by a slow-script dialog.
  'dom.max_script_run_time': 0,
  // Remote settings (blocklists and the like) fetched at start: nothing a case asked for.
  'services.settings.server': 'data:,#remote-settings-dummy/v1',
  // Firefox's remote agent re-sends a command whose document went away to the next document in
  // the same window. After a content crash that is an about:blank in the parent process: a
  // case's busy script, re-run there, wedged the whole browser (measured). A call is never
  // retried on another document; the page says it is gone instead.
  'remote.retry-on-abort': false,
  // Headless Firefox paints at 60 Hz whatever changed, and a batch changes the document every few
  // milliseconds: a third of Firefox's CPU per script-free case went to painting frames no one
  // sees (measured: parent process 4.5 -> 3.2 ms per case). Layout never waits for a frame; a
  // script's requestAnimationFrame runs at 10 Hz.
  'layout.frame_rate': 10,
  // Scrollbars that take no layout width, as Chromium's --hide-scrollbars and WebKitGTK's overlay
  // theme already give: a page taller than the viewport is laid out in all 800 px, and an
  // overflow:scroll box keeps its width (788 and 188 px before, with GTK's 12 px bars). Always
  // visible, as WPT's own Firefox runs set it, so a picture does not depend on a fade.
  'ui.useOverlayScrollbars': 1,
  'layout.testing.overlay-scrollbars.always-visible': true,
  // Firefox's built-in add-ons (webcompat, formautofill, picture-in-picture, newtab, search
  // detection, ipp-activator) are installed from the application scope (4), which Playwright's 5
  // enables: with the profile's scope alone none starts, and neither does the WebExtensions
  // process they ran in. They act on sites and forms a case never is, and cost Firefox's
  // parent about 2 ms of CPU per script-free case (docs/benchmarks.md, "Levers").
  'extensions.enabledScopes': 1,
  'extensions.formautofill.addresses.enabled': false,
  'extensions.formautofill.creditCards.enabled': false,
  'media.videocontrols.picture-in-picture.enabled': false,
  'media.videocontrols.picture-in-picture.video-toggle.enabled': false,
};

/**
 * Firefox's content processes may read only the folders its sandbox allows, system font folders
 * among them; a trailing slash allows a whole folder. The square font is built under dist/, so
 * without this Firefox listed it (fontconfig runs in the parent) but could not open it where text
 * is laid out: every glyph was a missing-glyph box, at least 13 px wide, with the metrics of the
 * only font it could read, its own Twemoji Mozilla (measured with firefox-esr 153).
 */
function fontPrefs(fontDirs: readonly string[]): Prefs {
  return { 'security.sandbox.content.read_path_whitelist': fontDirs.map((dir) => `${dir.replace(/\/+$/, '')}/`).join(',') };
}

/**
 * The language every page runs in: navigator.language from the accepted languages, Intl from the
 * C library's locale (LANG, src/system/locales.ts). The requested UI locale alone changes
 * neither: firefox-esr ships en-US and no other translation (measured).
 */
function languagePrefs(locale: string): Prefs {
  return { 'intl.locale.requested': locale, 'intl.accept_languages': locale, 'intl.regional_prefs.use_os_locales': true };
}

/** Playwright's defaults, then the oracle's (fonts and language included), the launch profile's, the user's (`extra`) and network isolation's, which none may undo: later ones win. */
export function firefoxPrefs(options: EngineLaunch): Prefs {
  return {
    ...PLAYWRIGHT_PREFS,
    ...ORACLE_PREFS,
    ...fontPrefs(options.fontDirs),
    ...languagePrefs(options.locale),
    ...PROFILE_PREFS[options.profile],
    ...options.extra.firefoxPrefs,
    ...networkPrefs(options.proxyUrl),
  };
}

/** user.js: one user_pref line per pref, as Playwright writes it. */
export function userJs(prefs: Prefs): string {
  return Object.entries(prefs)
    .map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});\n`)
    .join('');
}
