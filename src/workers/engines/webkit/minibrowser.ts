// WebKitGTK's MiniBrowser and its WebDriver server: where they are, and how MiniBrowser is told
// what the oracle needs (each WebKitSettings property is a switch of its own).
import { existsSync } from 'node:fs';
import type { Executables } from '../../../protocol/launch-options.js';
import type { ProfileName } from '../../../protocol/schema.js';

export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
export const MINIBROWSER =
  ['x86_64-linux-gnu', 'aarch64-linux-gnu'].map((arch) => `/usr/lib/${arch}/webkit2gtk-4.1/MiniBrowser`).find((path) => existsSync(path)) ??
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

// Chromium and Firefox use serif for text that names no family (or only unknown ones);
// WebKitGTK's default is sans-serif.
const BASE = ['--automation', '--default-font-family=serif'];

/** Every request goes to the oracle's proxy, loopback included (no --ignore-host), so a case reaches no port but its own documents'. */
const isolation = (proxyUrl: string) => [`--proxy=${proxyUrl}`];

/** Launch profiles: `media` turns on the mock capture devices. */
const PROFILE_ARGS: Record<ProfileName, string[]> = {
  default: [],
  media: ['--enable-media-stream=true', '--enable-mock-capture-devices=true'],
  // MiniBrowser has no virtual authenticator and no Web Bluetooth to set up.
  devices: [],
};

/** The oracle's switches, the profile's, the user's (`extra`), then network isolation's, which none may undo. */
export function miniBrowserArgs(proxyUrl: string, profile: ProfileName, extra: readonly string[] = []): string[] {
  return [...BASE, ...PROFILE_ARGS[profile], ...extra, ...isolation(proxyUrl)];
}

/** The WebDriver server and the MiniBrowser it starts: the given ones, else Debian's. */
export function webkitExecutables(paths: Executables): Required<Pick<Executables, 'webkitDriver' | 'miniBrowser'>> {
  return { webkitDriver: paths.webkitDriver ?? WEBKIT_DRIVER, miniBrowser: paths.miniBrowser ?? MINIBROWSER };
}
