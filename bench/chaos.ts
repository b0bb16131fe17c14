// npm run chaos [cases] [--soak] — thousands of cases under random browser kills and periodic
// hangs; with --soak, no kills, to watch resident memory over a long run. Not part of npm test
// (a shorter run of the same checks is: test/e2e/chaos.test.ts).
import { SingleBar, Presets } from 'cli-progress';
import { runChaos } from '../test/support/chaos.js';

const args = process.argv.slice(2);
const cases = Number(args.find((a) => /^\d+$/.test(a)) ?? 3000);
const soak = args.includes('--soak');
const bar = new SingleBar(
  { format: 'chaos {bar} {value}/{total} cases', stream: process.stderr, hideCursor: true },
  Presets.shades_classic,
);
bar.start(cases, 0);
const report = await runChaos({
  cases,
  killEvery: soak ? null : { range: [2_000, 8_000], unit: 'ms' },
  hangEvery: 300,
  timeoutMs: 5_000,
  window: 16,
  onProgress: (n) => bar.update(n),
});
bar.stop();
console.log(JSON.stringify(report, null, 2));
const ok = report.lost === 0 && report.duplicates === 0 && report.orphans.length === 0 && report.exitCode === 0;
console.log(ok ? 'chaos: every case answered exactly once; nothing left running' : 'chaos: FAILED');
process.exitCode = ok ? 0 : 1;
