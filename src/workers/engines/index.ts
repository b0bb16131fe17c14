// Engine name → adapter. The only place that knows which module drives which engine.
import type { EngineName } from '../../protocol/schema.js';
import type { LaunchEngine } from '../engine.js';
import { launchChromium } from './chromium.js';
import { launchFirefox } from './firefox.js';
import { launchWebKit } from './webkit.js';

export const LAUNCHERS: Record<EngineName, LaunchEngine> = {
  chromium: launchChromium,
  firefox: launchFirefox,
  webkit: launchWebKit,
};
