// Diagnostics go to stderr: stdout is the protocol channel.
import { threadId } from 'node:worker_threads';

export function log(message: string): void {
  process.stderr.write(`browser-oracle[worker ${threadId}]: ${message}\n`);
}
