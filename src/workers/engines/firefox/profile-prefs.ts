// What each launch profile adds to Firefox's prefs. `default` adds nothing, so geometry dumps keep
// their meaning; `media` gives getUserMedia a fake camera and microphone without a prompt;
// `devices` lets a trace add a virtual authenticator (through Marionette, marionette.ts).
import type { ProfileName } from '../../../protocol/schema.js';
import type { Prefs } from './pref-map.js';

export const PROFILE_PREFS: Record<ProfileName, Prefs> = {
  default: {},
  media: {
    'media.navigator.streams.fake': true,
    'media.navigator.permission.disabled': true,
    // WebGL on software rendering (observed to create a context here, docs/protocol.md).
    'webgl.disable-fail-if-major-performance-caveat': true,
  },
  devices: {
    // WebAuthn goes to the software token, where Marionette's virtual authenticators live, and
    // never waits for a USB key (measured: without these, create() waited for one).
    'security.webauth.webauthn_enable_softtoken': true,
    'security.webauth.webauthn_enable_usbtoken': false,
    // Marionette on a port of its choosing, written to the profile's MarionetteActivePort.
    'marionette.port': 0,
  },
};
