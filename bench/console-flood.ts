// The oracle's peak memory through a console flood: one Chromium case whose script logs 30
// strings of 50 MB. A driver that receives console calls holds them (playwright-core's page
// session did: the oracle reached 1 GB); the oracle's CDP client is never sent them. The figure
// is the oracle process's peak resident set (VmHWM: its worker threads are in it), read once
// after a plain case (the baseline) and once after the flood.
//
//   npm run build && node dist/bench/console-flood.js
import { readFileSync } from 'node:fs';
import { OracleProcess } from '../test/support/oracle-process.js';

const FLOOD = "const s = 'x'.repeat(50e6); for (let i = 0; i < 30; i++) console.log(s + i);";

/** The peak resident set of `pid` so far, in MB. */
function peakMb(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]!;
  return Math.round(Number(kb) / 1024);
}

const oracle = new OracleProcess(['--engines=chromium', '--workers=1', '--pages=1', '--timeout-ms=120000']);
try {
  await oracle.ready();
  const plain = await oracle.request({ id: 'plain', html: '<p>plain</p>' });
  if (!plain.dumps?.chromium) throw new Error(`the plain case failed: ${JSON.stringify(plain).slice(0, 300)}`);
  const baseline = peakMb(oracle.pid);
  const flood = await oracle.request({ id: 'flood', html: '<p>flood</p>', script: FLOOD });
  if (!flood.dumps?.chromium) throw new Error(`the flood case failed: ${JSON.stringify(flood).slice(0, 300)}`);
  process.stdout.write(`oracle peak RSS: ${baseline} MB after a plain case, ${peakMb(oracle.pid)} MB after 30 console.log of 50 MB\n`);
} finally {
  await oracle.shutdown();
}
