// node dist/bench/triage.js [--cases=N] [--seed=S] [--workers=W] [--pages=P] (the last of `npm run bench`)
//
// What triage costs per finding: a generated campaign (the square font, the default) into a fresh
// journal, then `browser-oracle triage` on it to the end. Printed: the disagreements, the findings
// and how their cases were placed (reduced, or by a template's instance), the wall time and the CPU
// of every process of the triage (the oracle, its engines; read from this process's reaped
// children), each per finding, and the load average beside them (absolute figures drift on a
// shared machine).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Summary } from '../src/campaign/journal/summary.js';
import { readJournal, runCli } from '../test/support/campaign-process.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const cases = flag('cases', 40);
const seed = flag('seed', 2026);
const farmArgs = args.filter((a) => a.startsWith('--workers=') || a.startsWith('--pages='));

/** CPU ms of this process's reaped children so far (cutime and cstime, 10 ms ticks). */
function childrenCpuMs(): number {
  const stat = readFileSync(`/proc/${process.pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) * 10;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-triage-'));
const db = join(dir, 'run.sqlite');
try {
  const campaign = await runCli(['campaign', '--db', db, '--generate', String(cases), '--seed', String(seed), '--quiet', ...farmArgs]);
  if (campaign.code !== 0) throw new Error(`campaign failed (exit ${campaign.code}):\n${campaign.stderr}`);
  const load = loadavg()[0]!;
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const triage = await runCli(['triage', '--db', db, ...farmArgs]);
  const seconds = (performance.now() - started) / 1000;
  const cpu = (childrenCpuMs() - cpuBefore) / 1000;
  if (triage.code !== 0) throw new Error(`triage failed (exit ${triage.code}):\n${triage.stderr}`);
  const summary = await runCli(['summary', '--db', db, '--json']);
  const s = JSON.parse(summary.stdout) as Summary;
  const findings = s.findings ?? [];
  const how = readJournal(db, (sql) =>
    sql.prepare<[], { how: string; n: number }>('SELECT how, COUNT(*) AS n FROM finding_members GROUP BY how').all(),
  );
  const placed = Object.fromEntries(how.map((h) => [h.how, h.n]));
  const members = findings.reduce((n, f) => n + f.members.length, 0);
  const per = (x: number) => (findings.length ? (x / findings.length).toFixed(1) : '-');
  process.stdout.write(
    `triage of ${cases} generated cases (seed ${seed}, ${farmArgs.join(' ') || 'default farm'}), load ${load.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}\n` +
      `  ${members + (s.untriaged?.length ?? 0)} disagreeing cases: ${findings.length} findings holding ${members} ` +
      `(${placed.reduced ?? 0} reduced, ${placed.instance ?? 0} by a template's instance), ${s.untriaged?.length ?? 0} untriaged\n` +
      `  elements of the reduced cases: ${findings.map((f) => f.elements).join(' ') || '-'}\n` +
      `  ${seconds.toFixed(1)} s, ${cpu.toFixed(1)} CPU s in all; per finding ${per(seconds)} s, ${per(cpu)} CPU s\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
