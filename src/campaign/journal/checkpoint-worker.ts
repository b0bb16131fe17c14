// The checkpoint thread (checkpointer.ts): a second connection to the journal that moves the
// WAL's committed pages into the database file every interval, with the fsyncs that takes.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { CheckpointerMessage } from './checkpointer.js';

const { path, intervalMs } = workerData as { path: string; intervalMs: number };
const port = parentPort!;
let db: Database.Database | undefined;
let timer: NodeJS.Timeout | undefined;

const fail = (e: unknown) => {
  clearInterval(timer);
  port.postMessage({ type: 'error', message: (e as Error).message } satisfies CheckpointerMessage);
};

try {
  const open = new Database(path, { fileMustExist: true });
  open.pragma('busy_timeout = 5000');
  db = open;
  timer = setInterval(() => {
    try {
      open.pragma('wal_checkpoint(PASSIVE)');
    } catch (e) {
      fail(e);
    }
  }, intervalMs);
} catch (e) {
  fail(e);
}

// Closing the port lets the thread end once its connection is closed.
port.once('message', () => {
  clearInterval(timer);
  db?.close();
  port.close();
});
