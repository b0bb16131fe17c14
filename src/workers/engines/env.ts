// The environment every browser the oracle starts runs in.
import type { LaunchOptions } from '../../farm/launch.js';
import { ownedEnv } from '../../system/processes.js';

/** The oracle's owner mark, the font set's fontconfig file and the display, over the oracle's own environment. */
export function browserEnv(options: LaunchOptions): Record<string, string> {
  const env = ownedEnv();
  env.FONTCONFIG_FILE = options.fontconfigFile;
  if (options.display) env.DISPLAY = options.display;
  return env;
}
