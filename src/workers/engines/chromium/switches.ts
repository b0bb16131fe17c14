// Chromium's own launch switches, by concern (Playwright keeps a chromiumSwitches.ts the same way).
import type { ProfileName } from '../../../protocol/schema.js';

/**
 * playwright-core 1.60's own --disable-features list (its chromiumSwitches.ts). Chromium keeps
 * only the last --disable-features switch, so the oracle tells Playwright to leave its switch out
 * (ignoreDefaultArgs) and passes one switch with both lists. A test reads the launched command
 * line: a playwright-core version with another list would show two switches and fail it.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
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
];

const BASE = [
  '--no-sandbox', // the oracle runs as root on the build machines
  '--force-device-scale-factor=1',
  // This network refuses every outside connection; without these Chromium keeps dialling out.
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-domain-reliability',
  '--no-pings',
  '--disable-site-isolation-trials',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...ORACLE_DISABLED_FEATURES].join(',')}`,
];

/** Every request goes to the oracle's proxy, loopback included, so a case reaches no port but its own documents'. */
function isolation(proxyUrl: string): string[] {
  return [`--proxy-server=${proxyUrl}`, '--proxy-bypass-list=<-loopback>', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp'];
}

/** Launch profiles (docs/protocol.md, "Launch profiles"): `media` gives a fake camera and microphone. */
const PROFILE_ARGS: Record<ProfileName, string[]> = {
  default: [],
  media: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', '--enable-unsafe-swiftshader'],
};

/** Granted on every context; the fake-UI flag answers the prompt, but getUserMedia still rejects without them. */
export const PROFILE_PERMISSIONS: Record<ProfileName, string[]> = { default: [], media: ['camera', 'microphone'] };

/** The oracle's switches, the profile's, the user's (`extra`), then network isolation's, which none may undo (Chromium takes a switch's last value). */
export function chromiumArgs(proxyUrl: string, profile: ProfileName, extra: readonly string[] = []): string[] {
  return [...BASE, ...PROFILE_ARGS[profile], ...extra, ...isolation(proxyUrl)];
}
