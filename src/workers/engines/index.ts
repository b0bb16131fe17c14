// Engine name → adapter. The only place that knows which folder drives which engine.
import type { EngineName } from '../../protocol/schema.js';
import type { LaunchEngine } from '../engine.js';
import { launchChromium } from './chromium/index.js';
import { launchWebKit } from './webkit/index.js';

// WIP: the direct WebDriver BiDi adapter for Firefox lands from the firefox-bidi branch.
const launchFirefox: LaunchEngine = async () => {
  throw new Error('the Firefox adapter is being rewritten on another branch');
};

export const LAUNCHERS: Record<EngineName, LaunchEngine> = {
  chromium: launchChromium,
  firefox: launchFirefox,
  webkit: launchWebKit,
};
