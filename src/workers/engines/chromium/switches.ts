// Chromium's launch switches, by concern (Playwright keeps a chromiumSwitches.ts the same way):
// what playwright-core 1.60 passed, which made every Chromium dump before this adapter, then the
// oracle's own.
import type { EngineLaunch } from '../../../worker-contract/launch.js';
import type { ProfileName } from '../../../protocol/schema.js';

/**
 * playwright-core 1.60's own --disable-features list (its chromiumSwitches.ts). Chromium keeps
 * only the last --disable-features switch, so the oracle passes one switch with both lists.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'BoundaryEventDispatchTracksNodeRemoval',
  'DestroyProfileOnBrowserClose',
  'DialMediaRouteProvider',
  'GlobalMediaControls',
  'HttpsUpgrades',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'Translate',
  'AutoDeElevate',
  'RenderDocument',
  'OptimizationHints',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/** playwright-core 1.60's own --enable-features list; one switch carries it with the profile's (Chromium keeps the last). */
const PLAYWRIGHT_ENABLED_FEATURES = ['CDPScreenshotNewSurface'];

/**
 * playwright-core 1.60's chromiumSwitches() but its --disable-features and --enable-features (above), in its order,
 * then what its launch added for `headless: true` without a sandbox (chromium.ts
 * _innerDefaultArgs). Its one repeated switch (--disable-search-engine-choice-screen) is passed once.
 */
const PLAYWRIGHT_SWITCHES = [
  '--disable-field-trial-config',
  '--disable-background-networking',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-back-forward-cache',
  '--disable-breakpad',
  '--disable-client-side-phishing-detection',
  '--disable-component-extensions-with-background-pages',
  '--disable-component-update',
  '--no-default-browser-check',
  '--disable-default-apps',
  '--disable-dev-shm-usage',
  '--disable-edgeupdater',
  '--disable-extensions',
  '--allow-pre-commit-input',
  '--disable-hang-monitor',
  '--disable-ipc-flooding-protection',
  '--disable-popup-blocking',
  '--disable-prompt-on-repost',
  '--disable-renderer-backgrounding',
  '--force-color-profile=srgb',
  '--metrics-recording-only',
  '--no-first-run',
  '--password-store=basic',
  '--use-mock-keychain',
  '--no-service-autorun',
  '--export-tagged-pdf',
  '--disable-search-engine-choice-screen',
  '--unsafely-disable-devtools-self-xss-warnings',
  '--edge-skip-compat-layer-relaunch',
  '--disable-infobars',
  '--disable-sync',
  '--enable-unsafe-swiftshader',
  '--headless',
  '--hide-scrollbars',
  '--mute-audio',
  '--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4',
  '--no-sandbox', // the oracle runs as root on the build machines
];

const ORACLE_DISABLED_FEATURES = [
  // Each case is a fresh document on an opaque origin; without these, every navigation swaps
  // renderer process (≈70 ms instead of ≈30 ms per case, measured).
  'IsolateSandboxedIframes',
  'site-per-process',
  'BackForwardCache',
  'ProactivelySwapBrowsingInstance',
  // Background requests nothing asked for: each would be a refused request on stderr.
  'NetworkTimeServiceQuerying',
  'OptimizationGuideModelDownloading',
  'OptimizationHintsFetching',
  'CertificateTransparencyComponentUpdater',
  'AutofillServerCommunication',
  'InterestFeedContentSuggestions',
  'PrivacySandboxSettings4',
  // The omnibox's WebUI popups (chrome://omnibox-popup.top-chrome/ and its AI Mode page), which
  // every new browser context's window preloads in a renderer of its own: about half of a fresh
  // page's CPU (≈480 → ≈230 ms per page opened and closed, measured). No page ever shows them.
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
];

const ORACLE_SWITCHES = [
  '--force-device-scale-factor=1',
  // This network refuses every outside connection; without these (and Playwright's
  // --disable-background-networking, --disable-component-update, --disable-sync) Chromium keeps dialling out.
  '--disable-gpu',
  '--disable-quic',
  '--disable-domain-reliability',
  '--no-pings',
  '--disable-site-isolation-trials',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...ORACLE_DISABLED_FEATURES].join(',')}`,
];

/**
 * The language every page runs in: the UI language and navigator.language. Headless Chromium's
 * Intl keeps the language of its only translation (Debian ships en-US alone) whatever these say,
 * so every page also gets Emulation.setLocaleOverride (emulation.ts).
 */
const language = (locale: string) => [`--lang=${locale}`, `--accept-lang=${locale}`];

/** Every request goes to the oracle's proxy, loopback included, so a case reaches no port but its own documents'. */
function isolation(proxyUrl: string): string[] {
  return [`--proxy-server=${proxyUrl}`, '--proxy-bypass-list=<-loopback>', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp'];
}

/**
 * Launch profiles (docs/protocol.md, "Launch profiles"): `media` gives a fake camera and microphone;
 * `devices` turns Web Bluetooth on, whose adapter a trace may then simulate (BluetoothEmulation
 * answers without it, and requestDevice() says the adapter is not available).
 */
const PROFILE_ARGS: Record<ProfileName, string[]> = {
  default: [],
  media: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', '--enable-unsafe-swiftshader'],
  devices: [],
};
const PROFILE_FEATURES: Record<ProfileName, string[]> = { default: [], media: [], devices: ['WebBluetooth'] };

/**
 * Granted on every browser context, as CDP names them (Playwright's `camera` and `microphone`);
 * the fake-UI flag answers the prompt, but getUserMedia still rejects without them.
 */
export const PROFILE_PERMISSIONS: Record<ProfileName, string[]> = { default: [], media: ['videoCapture', 'audioCapture'], devices: [] };

/**
 * Playwright's switches, the oracle's (one --enable-features with the profile's features among
 * them), the language's, the profile's, the user's (`extra`), then network isolation's, which none
 * may undo (Chromium takes a switch's last value). The transport's (--user-data-dir,
 * --remote-debugging-pipe, --no-startup-window) are the process's to add.
 */
export function chromiumArgs({
  proxyUrl,
  profile,
  locale,
  extra,
}: Pick<EngineLaunch, 'proxyUrl' | 'profile' | 'locale' | 'extra'>): string[] {
  return [
    ...PLAYWRIGHT_SWITCHES,
    ...ORACLE_SWITCHES,
    `--enable-features=${[...PLAYWRIGHT_ENABLED_FEATURES, ...PROFILE_FEATURES[profile]].join(',')}`,
    ...language(locale),
    ...PROFILE_ARGS[profile],
    ...(extra.chromiumArgs ?? []),
    ...isolation(proxyUrl),
  ];
}
