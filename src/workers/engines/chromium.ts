// Chromium over CDP: Debian's /usr/bin/chromium, or Playwright's build where installed.
import { chromium } from 'playwright-core';
import type { LaunchEngine } from '../engine.js';
import { browserEnv, useBundled } from './bundled.js';
import { launchPlaywright } from './playwright-browser.js';
import { chromiumIsolationArgs } from './network-isolation.js';
import { PROFILES } from './profiles.js';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox', // the oracle runs as root on the build machines
  '--force-device-scale-factor=1',
  // This network refuses every outside connection; without these Chromium keeps dialling out.
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // Each case is a fresh document on an opaque origin; without these, every navigation
  // swaps renderer process (≈70 ms instead of ≈30 ms per case, measured).
  '--disable-site-isolation-trials',
  '--disable-features=IsolateSandboxedIframes,site-per-process,BackForwardCache,RenderDocument,ProactivelySwapBrowsingInstance',
];

export const launchChromium: LaunchEngine = (options) =>
  launchPlaywright(
    'chromium',
    chromium,
    {
      executablePath: useBundled(chromium, options) ? undefined : SYSTEM_CHROMIUM,
      args: [...ARGS, ...chromiumIsolationArgs(options.proxyUrl), ...PROFILES[options.profile].chromiumArgs],
      env: browserEnv(options),
    },
    PROFILES[options.profile].permissions,
  );
