// The memory budget against the real engines (issue 23, finding 3): a case that allocates past
// --max-engine-memory is answered memory_exceeded in every engine, by whichever of its processes
// holds the memory (a renderer, a content process, WebKit's web process, WebKit's network process
// holding a Blob's bytes), the next case is answered as usual, and no process of the oracle ever
// holds more than the budget and its slack (docs/protocol.md, "Memory").
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ENGINE_NAMES, type EngineName } from '../../src/protocol/schema.js';
import { MemoryCgroup } from '../../src/system/memory/cgroup.js';
import { CGROUP_LIMIT } from '../../src/workers/host/memory-watch.js';
import { OracleProcess, type Line } from '../support/oracle-process.js';

const MiB = 1024 * 1024;
/** Above every engine's idle footprint with two pages (Firefox's, about 400 MiB, is the largest), far below what the cases allocate. */
const BUDGET = 768 * MiB;
/** What a process's VmRSS counts beyond what the kernel's limit holds: its share of the browser's code (up to about 170 MiB here) and the pages it had before it was moved into its engine's cgroup. */
const MAPPED = 256 * MiB;

/** Scripts that allocate 4 GiB unless stopped: far past the budget, so only a kill ends them. */
const TYPED_ARRAYS = 'window.keep = []; for (let i = 0; i < 64; i++) keep.push(new Uint8Array(64 << 20).fill(i + 1));';
const PLAIN_ARRAYS = 'window.keep = []; for (let i = 0; i < 512; i++) keep.push(new Array(1 << 20).fill(i + 0.5));';
/**
 * Each Blob copies the chunk's bytes, which WebKit's web process sends to its network process to
 * keep. Sent in a tight loop, they can pile up in the web process's outgoing messages while a busy
 * machine keeps the network process from reading them, and the web process is then the biggest; so
 * a byte of each Blob is read back (a synchronous load, which the network process serves once it
 * holds the Blob) before the next is made.
 */
const BLOBS =
  'const chunk = new Uint8Array(8 << 20).fill(7); window.keep = []; for (let i = 0; i < 512; i++) {' +
  " const blob = new Blob([chunk]); keep.push(blob); const read = new XMLHttpRequest(); read.open('GET', URL.createObjectURL(blob.slice(0, 1)), false); read.send(); }";

const code = (answer: Line, engine: EngineName) => String(answer.errors?.[engine] ?? '').split(':')[0];

interface Peak {
  name: string;
  /** VmRSS, and RssAnon + RssShmem, in bytes. */
  rss: number;
  own: number;
  /** Whether it ran in an engine's cgroup. */
  limited: boolean;
}

/** Reads what every process below the oracle holds, ten times a second, and keeps each one's peak. */
class Sampler {
  readonly peaks = new Map<number, Peak>();
  readonly cgroups = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pids: () => number[]) {
    this.timer = setInterval(() => this.sample(), 100);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    for (const pid of this.pids()) {
      let status: string;
      let cgroup: string;
      try {
        status = readFileSync(`/proc/${pid}/status`, 'utf8');
        cgroup = readFileSync(`/proc/${pid}/cgroup`, 'utf8');
      } catch {
        continue;
      }
      const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) * 1024;
      const memory = cgroup.split('\n').find((line) => line.split(':')[1]?.split(',').includes('memory'));
      const limited = memory?.includes('/browser-oracle-') ?? false;
      if (limited) this.cgroups.add(memory!.split(':')[2]!.split('/').pop()!);
      const seen = this.peaks.get(pid);
      const now = {
        name: /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '?',
        rss: field('VmRSS'),
        own: field('RssAnon') + field('RssShmem'),
        limited,
      };
      this.peaks.set(pid, {
        ...now,
        rss: Math.max(now.rss, seen?.rss ?? 0),
        own: Math.max(now.own, seen?.own ?? 0),
        limited: now.limited || (seen?.limited ?? false),
      });
    }
  }
}

describe('a memory budget per engine', () => {
  let oracle: OracleProcess;
  let sampler: Sampler;
  before(async () => {
    oracle = new OracleProcess(['--workers=1', '--pages=2', `--max-engine-memory=${BUDGET / MiB}MiB`, '--timeout-ms=60000']);
    await oracle.ready();
    sampler = new Sampler(() => oracle.descendants());
  });
  after(async () => {
    sampler.stop();
    await oracle.shutdown();
  });

  const overBudget = async (id: string, script: string, engines: readonly EngineName[]) => {
    const answer = await oracle.request({ id, html: '<p>x</p>', script, engines });
    for (const engine of engines) {
      assert.equal(code(answer, engine), 'memory_exceeded', `${engine}: ${JSON.stringify(answer.errors)}`);
      // Whichever bound the allocation met first: the watch, which samples four times a second,
      // or (where there is a v1 memory cgroup) the kernel's limit a quarter above the budget, which
      // a fast allocation on a loaded machine reaches between two samples.
      assert.match(
        answer.errors[engine],
        new RegExp(
          `^memory_exceeded: ${engine} (used \\d+(\\.\\d)? (MiB|GiB), over 768 MiB \\(--max-engine-memory\\); its .+ process was killed|` +
            `reached its kernel limit of 960 MiB \\(--max-engine-memory 768 MiB, and a quarter\\); the kernel killed one of its processes)$`,
        ),
      );
    }
    // The same page pool serves the next case, a fresh page in place of the killed one.
    const next = await oracle.request({ id: `${id}-next`, html: '<p>after</p>', engines, script: '' });
    assert.equal(next.errors, undefined, JSON.stringify(next.errors));
    for (const engine of engines) assert.ok(next.dumps[engine], engine);
    return answer;
  };

  test('typed arrays filled past the budget: memory_exceeded in every engine, and the next case is answered', async () => {
    await overBudget('typed-arrays', TYPED_ARRAYS, ENGINE_NAMES);
  });

  test('plain arrays of numbers grown past the budget: memory_exceeded in every engine, and the next case is answered', async () => {
    await overBudget('plain-arrays', PLAIN_ARRAYS, ENGINE_NAMES);
  });

  test('WebKit: Blobs whose bytes its network process holds: memory_exceeded, and the next case is answered', async () => {
    const answer = await overBudget('blobs', BLOBS, ['webkit']);
    // The watch kills the biggest of the engine's processes: the one that held the bytes. (The
    // kernel's message, when its limit came first, does not name the process it chose.)
    if (!answer.errors.webkit.includes('kernel limit')) assert.match(answer.errors.webkit, /its WebKitNetworkPr process was killed$/);
  });

  test('cases within the budget are answered as usual beside it', async () => {
    const answer = await oracle.request({ id: 'within', html: '<p>x</p>', script: 'window.keep = new Uint8Array(128 << 20).fill(1);' });
    assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
  });

  test('no process of the oracle held more than the budget and its slack, and the cgroups went with the oracle', async () => {
    const engineProcesses = [...sampler.peaks.values()].filter((p) => p.name !== 'Xvfb');
    assert.ok(engineProcesses.length >= 10, `${engineProcesses.length} processes sampled`);
    const probe = MemoryCgroup.create('probe', BUDGET);
    if (typeof probe === 'string') {
      // No v1 memory cgroup here: the watcher alone bounds the engines, a sample at a time.
      assert.equal(sampler.cgroups.size, 0);
      for (const p of engineProcesses) assert.ok(p.own < 2 * BUDGET, `${p.name} held ${p.own / MiB} MiB`);
      return;
    }
    probe.remove();
    assert.deepEqual(
      new Set([...sampler.cgroups].map((name) => name.replace(/-\d+-(\w+)$/, '-$1'))),
      new Set(ENGINE_NAMES.map((engine) => `browser-oracle-${oracle.pid}-${engine}`)),
    );
    const limit = BUDGET * CGROUP_LIMIT;
    for (const p of engineProcesses) {
      // A process big enough to matter ran in its engine's cgroup (one is moved there at the first sample after it starts).
      if (p.own > 128 * MiB) assert.ok(p.limited, `${p.name} never ran in its engine's cgroup`);
      assert.ok(p.rss <= limit + MAPPED, `${p.name}: ${p.rss / MiB} MiB resident, over ${(limit + MAPPED) / MiB} MiB`);
    }
    const peak = Math.max(...engineProcesses.map((p) => p.rss));
    process.stderr.write(
      `memory test: the largest process peaked at ${(peak / MiB).toFixed(0)} MiB resident (budget ${BUDGET / MiB} MiB)\n`,
    );
    assert.equal(await oracle.shutdown(), 0);
    const folder = dirname(probe.path);
    assert.deepEqual(
      readdirSync(folder).filter((name) => name.startsWith(`browser-oracle-${oracle.pid}-`)),
      [],
      'the oracle removed its cgroups',
    );
    assert.ok(existsSync(folder));
  });
});
