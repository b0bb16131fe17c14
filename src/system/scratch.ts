// The oracle's folders in the temporary directory (a browser's profile, WebKit's home, a queue
// worker's config). Each is named after the pid of the process that made it, so one left behind
// by an oracle that was killed hard (an orderly close removes its own) is found by the next
// oracle to start, and removed, as its processes are killed (processes.ts).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pidAlive } from './processes.js';

const OWNED = /^browser-oracle-(\d+)-/;

/** A new folder of this process's for `kind` (a word), in the temporary directory. */
export function ownedFolder(kind: string): string {
  return mkdtempSync(join(tmpdir(), `browser-oracle-${process.pid}-${kind}-`));
}

/** Removes the folders whose maker is gone; returns how many. */
export function removeStrayFolders(): number {
  let removed = 0;
  for (const name of readdirSync(tmpdir())) {
    const owner = OWNED.exec(name)?.[1];
    if (owner === undefined || pidAlive(Number(owner))) continue;
    // A process killed a moment ago may still hold a file open; rm retries what is busy.
    rmSync(join(tmpdir(), name), { recursive: true, force: true, maxRetries: 3 });
    removed++;
  }
  return removed;
}
