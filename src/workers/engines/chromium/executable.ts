// Which Chromium runs: the path the user gave, else Playwright's own build where one is installed
// (--chromium-build=auto, the default, or bundled), else Debian's binary (not its /usr/bin/chromium
// wrapper, which adds host-dependent switches and Google API keys).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import type { EngineLaunch } from '../../../worker-contract/launch.js';

export const SYSTEM_CHROMIUM = '/usr/lib/chromium/chromium';

/** Loading playwright-core takes seconds on a busy machine; past this, no bundled build is assumed. */
const LOOKUP_TIMEOUT_MS = 60_000;

let bundled: Promise<string | undefined> | undefined;

/**
 * Where playwright-core 1.60 installs its Chromium (its chromium.executablePath()), if a build is
 * there. Asked of a Node process of its own, once per thread: playwright-core loads its whole
 * driver with it, about 85 MB that the oracle's process would carry for one path (measured).
 */
function bundledChromium(): Promise<string | undefined> {
  const module = createRequire(import.meta.url).resolve('playwright-core');
  bundled ??= promisify(execFile)(
    process.execPath,
    ['-e', `process.stdout.write(require(${JSON.stringify(module)}).chromium.executablePath())`],
    { timeout: LOOKUP_TIMEOUT_MS },
  ).then(
    ({ stdout }) => (stdout && existsSync(stdout) ? stdout : undefined),
    () => undefined,
  );
  return bundled;
}

/** The executable to launch; throws when `--chromium-build=bundled` asks for a build that is not installed. */
export async function chromiumExecutable(options: EngineLaunch): Promise<string> {
  if (options.paths.chromium) return options.paths.chromium;
  if (options.browsers === 'system') return SYSTEM_CHROMIUM;
  const found = await bundledChromium();
  if (found) return found;
  if (options.browsers === 'bundled')
    throw new Error("--chromium-build=bundled, but Playwright's chromium build is not installed (npx playwright install chromium)");
  return SYSTEM_CHROMIUM;
}
