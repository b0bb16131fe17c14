// What each launch profile adds to Firefox's prefs. `default` adds nothing, so geometry dumps keep
// their meaning; `media` gives getUserMedia a fake camera and microphone without a prompt.
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
};
