// How long a host waits before trying again after failures in a row (a relaunch, a page that
// would not open): doubling from half a second, so a broken engine is not hammered, capped so
// that one that recovers is back within half a minute.
import { setTimeout as sleep } from 'node:timers/promises';

const FIRST_MS = 500;
const MAX_MS = 30_000;

/** Waits out the pause before the next try, after `failures` failures in a row (none: no wait). */
export async function backOff(failures: number): Promise<void> {
  if (failures > 0) await sleep(Math.min(MAX_MS, FIRST_MS * 2 ** (failures - 1)));
}
