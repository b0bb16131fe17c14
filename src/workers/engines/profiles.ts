// Launch profiles: what each engine is launched with beyond its base settings, per profile.
// `default` adds nothing, so geometry dumps keep their meaning; `media` gives every engine a
// fake camera and microphone that getUserMedia may use without a prompt.
import type { ProfileName } from '../../protocol/schema.js';

export interface ProfileSettings {
  chromiumArgs: string[];
  firefoxPrefs: Record<string, string | number | boolean>;
  /** Granted on the Playwright context (Chromium, and Playwright's own WebKit build). */
  permissions: string[];
  /** WebKitGTK's MiniBrowser: each WebKitSettings property is a switch. */
  miniBrowserArgs: string[];
}

export const PROFILES: Record<ProfileName, ProfileSettings> = {
  default: { chromiumArgs: [], firefoxPrefs: {}, permissions: [], miniBrowserArgs: [] },
  media: {
    // The fake-UI flag answers the prompt, but getUserMedia still rejects with NotAllowedError
    // unless the context also holds the permissions.
    chromiumArgs: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', '--enable-unsafe-swiftshader'],
    firefoxPrefs: {
      'media.navigator.streams.fake': true,
      'media.navigator.permission.disabled': true,
      // WebGL on software rendering (observed to create a context here, docs/protocol.md).
      'webgl.disable-fail-if-major-performance-caveat': true,
    },
    permissions: ['camera', 'microphone'],
    miniBrowserArgs: ['--enable-media-stream=true', '--enable-mock-capture-devices=true'],
  },
};
