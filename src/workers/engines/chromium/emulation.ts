// What playwright-core 1.60 set on a new page of `browser.newContext({ viewport: 800×600,
// deviceScaleFactor: 1 })` in headless Chromium, command for command (read from its protocol log,
// DEBUG=pw:protocol), so that pages lay out as they did when Playwright made every Chromium dump.
// Left out: what only fed Playwright's own machinery (Page/Runtime/Network/Log.enable, lifecycle
// events, its utility world, auto-attach, runIfWaitingForDebugger).
import { VIEWPORT } from '../../../protocol/common.js';

/** One command on the page's session. */
export interface PageCommand {
  method: string;
  params: object;
}

/** Headless Playwright sets the generic families to its Linux defaults (crPage.ts, platformToFontFamilies). */
const FONT_FAMILIES = {
  standard: 'Times New Roman',
  fixed: 'Monospace',
  serif: 'Times New Roman',
  sansSerif: 'Arial',
  cursive: 'Comic Sans MS',
  fantasy: 'Impact',
};

/** The 800×600 viewport and screen at scale 1, in `screenOrientation` (CDP's ScreenOrientation). */
export const deviceMetrics = (screenOrientation: { angle: number; type: string }): PageCommand => ({
  method: 'Emulation.setDeviceMetricsOverride',
  params: {
    mobile: false,
    width: VIEWPORT.width,
    height: VIEWPORT.height,
    screenWidth: VIEWPORT.width,
    screenHeight: VIEWPORT.height,
    deviceScaleFactor: 1,
    screenOrientation,
  },
});

/**
 * The page's emulation, in Playwright's order, then the locale every page runs in (the oracle's
 * --locale: headless Chromium's Intl follows no switch, see switches.ts); the window's size is
 * set beside it (windowBounds).
 */
export const pageEmulation = (locale: string): readonly PageCommand[] => [
  // document.hasFocus() and :focus as in a focused window.
  { method: 'Emulation.setFocusEmulationEnabled', params: { enabled: true } },
  deviceMetrics({ angle: 0, type: 'landscapePrimary' }),
  { method: 'Page.setFontFamilies', params: { fontFamilies: FONT_FAMILIES } },
  // Playwright's defaults for a context that names none: light, no-preference, none, no-preference.
  {
    method: 'Emulation.setEmulatedMedia',
    params: {
      media: '',
      features: [
        { name: 'prefers-color-scheme', value: 'light' },
        { name: 'prefers-reduced-motion', value: 'no-preference' },
        { name: 'forced-colors', value: 'none' },
        { name: 'prefers-contrast', value: 'no-preference' },
      ],
    },
  },
  { method: 'Emulation.setLocaleOverride', params: { locale } },
];

/** The headless window is resized to the viewport too (window.outerWidth and outerHeight say so); headless has no insets. */
export const WINDOW_BOUNDS = { width: VIEWPORT.width, height: VIEWPORT.height };
