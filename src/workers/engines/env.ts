// The environment every browser the oracle starts runs in.
import type { EngineLaunch } from '../../worker-contract/launch.js';
import { ownedEnv } from '../../system/processes.js';

/**
 * The oracle's owner mark, the font set's fontconfig file, the display, the time zone and the
 * language, over the oracle's own environment. The machine's own language settings go: LANGUAGE
 * and each LC_* would otherwise win over LANG somewhere (gettext, one category of the C library).
 */
export function browserEnv(options: EngineLaunch): Record<string, string> {
  const env = ownedEnv();
  for (const key of Object.keys(env)) if (key === 'LANGUAGE' || key.startsWith('LC_')) delete env[key];
  env.FONTCONFIG_FILE = options.fontconfigFile;
  if (options.display) env.DISPLAY = options.display;
  env.TZ = options.timezone;
  env.LANG = options.cLocale.name;
  env.LC_ALL = options.cLocale.name;
  env.LOCPATH = options.cLocale.dir;
  return env;
}
