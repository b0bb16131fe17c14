// How every engine is launched: settings the coordinator chooses once and each worker applies
// to the browsers it owns.
import type { FontSetName } from '../protocol/font-sets.js';
import type { ProfileName } from '../protocol/schema.js';

export interface LaunchOptions {
  profile: ProfileName;
  /** X display for engines that need one (WebKitGTK's MiniBrowser). */
  display: string | undefined;
  /** The fonts every engine sees (src/fonts/font-sets.ts): its FONTCONFIG_FILE. */
  fonts: FontSetName;
  /** The refusing proxy every non-loopback request is sent to (network isolation). */
  proxyUrl: string;
  /** `auto` prefers Playwright's own browser builds when they are installed. */
  browsers: 'auto' | 'system' | 'bundled';
}
