// The engines' memory as the memory watch counts it (src/system/memory: each engine's processes'
// own memory, RssAnon + RssShmem, added up), on a real oracle with the default budget: idle, at its
// peak over the bench's layout corpus, at its peak over the largest cases the suite runs (the
// documents hostile-limits answers dump_too_large), and how fast one case can make each engine
// allocate, which is the sampling slack at the watch's rate. Then what one sample costs.
//
//   npm run build && node dist/bench/memory.js
import { loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import { ENGINE_NAMES, type EngineName } from '../src/protocol/schema.js';
import { ProcessTable } from '../src/system/memory/process-memory.js';
import { SAMPLE_MS } from '../src/workers/host/memory-watch.js';
import { layoutCorpus } from '../test/support/layout-corpus.js';
import { OracleProcess } from '../test/support/oracle-process.js';

const MiB = 1024 * 1024;
const LEADERS: Record<EngineName, RegExp> = { chromium: /chromium/, firefox: /firefox-esr/, webkit: /WebKitWebDriver/ };
/** The largest documents the suite sends (test/e2e/hostile-limits.test.ts). */
const HUGE = "const t='x'.repeat(200);let h='';for(let i=0;i<250000;i++)h+='<a'+t+'></a'+t+'>';document.body.innerHTML=h";
const FILL = 'window.keep = []; for (let i = 0; i < 24; i++) keep.push(new Uint8Array(64 << 20).fill(i + 1));';

const oracle = new OracleProcess(['--workers=1']);
const table = new ProcessTable();

/** The process groups of each engine below the oracle, by their leaders' command lines. */
function groups(): Map<number, EngineName> {
  const found = new Map<number, EngineName>();
  for (const pid of oracle.descendants()) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pid) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const engine = ENGINE_NAMES.find((e) => LEADERS[e].test(command.split('\0')[0]!));
      if (engine) found.set(pid, engine);
    } catch {
      // gone
    }
  }
  return found;
}

/** Each engine's own memory now, in bytes. */
function usage(): Record<EngineName, number> {
  const owners = groups();
  const total = { chromium: 0, firefox: 0, webkit: 0 };
  for (const p of table.read(new Set(owners.keys()))) total[owners.get(p.group)!] += p.own;
  return total;
}

/** Runs `work` while sampling every 50 ms; each engine's peak, and the samples. */
async function peaks(
  work: () => Promise<unknown>,
): Promise<{ peak: Record<EngineName, number>; samples: [number, Record<EngineName, number>][] }> {
  const samples: [number, Record<EngineName, number>][] = [];
  const timer = setInterval(() => samples.push([performance.now(), usage()]), 50);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  const peak = { chromium: 0, firefox: 0, webkit: 0 };
  for (const [, u] of samples) for (const e of ENGINE_NAMES) peak[e] = Math.max(peak[e], u[e]);
  return { peak, samples };
}

const show = (u: Record<EngineName, number>) => ENGINE_NAMES.map((e) => `${e} ${(u[e] / MiB).toFixed(0)} MiB`).join(', ');

try {
  await oracle.ready();
  process.stdout.write(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  await new Promise((resolve) => setTimeout(resolve, 2000));
  process.stdout.write(`idle (1 worker, 2 pages per engine): ${show(usage())}\n`);

  const corpus = layoutCorpus();
  const layout = await peaks(() => Promise.all(corpus.map((c, i) => oracle.request({ id: `c${i}`, html: c.html }))));
  process.stdout.write(`peak over ${corpus.length} layout cases: ${show(layout.peak)}\n`);

  const largest = await peaks(async () => {
    await oracle.request({ id: 'huge', html: '<p>', script: HUGE });
    await oracle.request({ id: 'many', html: '<i></i>'.repeat(300_000) });
  });
  process.stdout.write(`peak over the suite's largest documents (250 000 and 300 000 elements): ${show(largest.peak)}\n`);

  for (const engine of ENGINE_NAMES) {
    const { samples } = await peaks(() => oracle.request({ id: `fill-${engine}`, engines: [engine], html: '<p>x</p>', script: FILL }));
    // The fastest growth between two samples, over a 250 ms window: what the watch may miss between two reads.
    let fastest = 0;
    for (const [i, [t0, u0]] of samples.entries()) {
      const later = samples.slice(i + 1).find(([t]) => t - t0 >= SAMPLE_MS);
      if (later) fastest = Math.max(fastest, later[1][engine] - u0[engine]);
    }
    process.stdout.write(
      `${engine}: filling 1.5 GiB of typed arrays grew it by up to ${(fastest / MiB).toFixed(0)} MiB in ${SAMPLE_MS} ms\n`,
    );
  }

  const owners = groups();
  const wanted = new Set(owners.keys());
  // The watch's own table, after its first passes: the groups of known processes are remembered.
  const watch = new ProcessTable();
  const count = watch.read(wanted).length;
  watch.read(wanted);
  const rounds = 200;
  const before = process.cpuUsage();
  for (let i = 0; i < rounds; i++) watch.read(wanted);
  const spent = process.cpuUsage(before);
  const perSample = (spent.user + spent.system) / 1000 / rounds;
  process.stdout.write(
    `one sample of ${count} engine processes (${owners.size} groups): ${perSample.toFixed(2)} ms of CPU; ` +
      `${((perSample * (1000 / SAMPLE_MS)) / 10).toFixed(2)} % of a core at ${1000 / SAMPLE_MS} samples a second\n`,
  );
  process.stdout.write(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
} finally {
  await oracle.shutdown();
}
