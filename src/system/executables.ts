// A user's own browser builds are checked before any worker starts, so a wrong path is one clear
// line instead of a launch failure in every worker.
import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EngineName } from '../protocol/common.js';
import { ConfigError } from '../protocol/errors.js';
import { EXECUTABLES, type ExecutableKey, type Executables } from '../protocol/launch-options.js';

/**
 * The executables of the engines in `engines`, made absolute; throws a ConfigError naming the
 * first one that is not an executable file. Paths of engines not launched are left out, unchecked.
 */
export function checkExecutables(paths: Executables, engines: readonly EngineName[]): Executables {
  const checked: Executables = {};
  for (const [key, given] of Object.entries(paths) as [ExecutableKey, string | undefined][]) {
    if (given === undefined || !engines.includes(EXECUTABLES[key].engine)) continue;
    const path = resolve(given);
    const problem = executableProblem(path);
    if (problem) throw new ConfigError(`paths.${key} (${EXECUTABLES[key].flag}): ${path} ${problem}`);
    checked[key] = path;
  }
  return checked;
}

function executableProblem(path: string): string | undefined {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch {
    return 'does not exist';
  }
  if (!isFile) return 'is not a file';
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return 'is not executable';
  }
  return undefined;
}
