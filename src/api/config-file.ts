// browser-oracle.config.json: launch options in a file, with the fields of Oracle.launch's options
// (src/protocol/launch-options.ts). The command line reads it; a program may too.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../protocol/errors.js';
import type { LaunchOptions } from '../protocol/launch-options.js';
import { checkLaunchOptions } from '../protocol/validate.js';
import { fsErrorText } from '../system/fs-errors.js';

/** The file the command line reads from its working directory when no --config is given. */
export const CONFIG_FILE = 'browser-oracle.config.json';

/** Reads and checks a config file; its executable paths are taken relative to its folder. A ConfigError names the file and the field. */
export function readConfigFile(file: string): LaunchOptions {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot read it: ${fsErrorText(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not JSON (${(error as Error).message})`);
  }
  const options = checkLaunchOptions(value, file);
  if (!options.paths) return options;
  const folder = dirname(resolve(file));
  return { ...options, paths: Object.fromEntries(Object.entries(options.paths).map(([key, path]) => [key, resolve(folder, path)])) };
}

/** The config file to read: `given` (--config) when there is one, else browser-oracle.config.json in `cwd` when it exists. */
export function configFileFor(given: string | undefined, cwd = process.cwd()): string | undefined {
  if (given !== undefined) return given;
  const found = resolve(cwd, CONFIG_FILE);
  return existsSync(found) ? found : undefined;
}
