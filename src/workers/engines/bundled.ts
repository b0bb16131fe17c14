// Where Playwright's own browser builds are installed (an ordinary workstation), they are
// preferred; on the Debian build machines only the system packages exist.
import { existsSync } from 'node:fs';
import type { BrowserType } from 'playwright-core';
import type { LaunchOptions } from '../../farm/launch.js';
import { ownedEnv } from '../../system/processes.js';

export function bundledBuildPath(browserType: BrowserType): string | undefined {
  try {
    const path = browserType.executablePath();
    return path && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** True when this launch should use Playwright's build; throws when `bundled` is forced but absent. */
export function useBundled(browserType: BrowserType, options: LaunchOptions): boolean {
  if (options.browsers === 'system') return false;
  const found = bundledBuildPath(browserType) !== undefined;
  if (options.browsers === 'bundled' && !found) {
    throw new Error(
      `--browsers=bundled, but Playwright's ${browserType.name()} build is not installed (npx playwright install ${browserType.name()})`,
    );
  }
  return found;
}

export function browserEnv(options: LaunchOptions): Record<string, string> {
  const env = ownedEnv();
  env.FONTCONFIG_FILE = options.fontconfigFile;
  if (options.display) env.DISPLAY = options.display;
  return env;
}
