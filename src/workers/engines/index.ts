// Engine name → adapter. The only place that knows which folder drives which engine.
import type { EngineName } from '../../protocol/schema.js';
import type { LaunchEngine } from '../engine.js';
import { launchChromium } from './chromium/index.js';
import { launchFirefox } from './firefox/index.js';
import { launchWebKit } from './webkit/index.js';

export const LAUNCHERS: Record<EngineName, LaunchEngine> = {
  chromium: launchChromium,
  firefox: launchFirefox,
  webkit: launchWebKit,
};
