// node dist/bench/firefox-bidi.js [--pages=2] [--rounds=3]
//
// Fidelity and cost of the Firefox adapter (src/workers/engines/firefox, a direct WebDriver BiDi
// client) against playwright-core 1.60's Firefox, which made every Firefox dump before it. Both
// drive the same firefox-esr with the same profile prefs through the same proxy, load the same
// blank page, and run the same `batch` program on the bench corpus, 1 and 16 cases per call: the
// adapter in its sandbox, Playwright through page.evaluate in the main world. Every dump must be
// byte-identical to Playwright's one-per-call dump. CPU is read from /proc: the Firefox process
// tree (its parent process apart), and this Node process.
import { WALK, launchOptions } from '../test/support/direct-engines.js';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { firefox } from 'playwright-core';
import type { EngineLaunch } from '../src/worker-contract/launch.js';
import { PROGRAMS } from '../src/page/sources.js';
import type { WalkOptions } from '../src/page/walk.js';
import { dumpJson } from '../src/protocol/dump.js';
import type { RawWalk } from '../src/protocol/page-output.js';
import { descendantsOf } from '../src/system/processes.js';
import { VIEWPORT } from '../src/protocol/common.js';
import { browserEnv } from '../src/workers/engines/env.js';
import { launchFirefox } from '../src/workers/engines/firefox/index.js';
import { firefoxPrefs } from '../src/workers/engines/firefox/prefs.js';
import { SYSTEM_FIREFOX } from '../src/workers/engines/firefox/process.js';
import { layoutCorpus } from '../test/support/layout-corpus.js';
import { engineProcesses } from '../test/support/processes.js';

const flag = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const PAGES = flag('pages', 2);
const ROUNDS = flag('rounds', 3);
const corpus = layoutCorpus();
/** Generous: every case of a call is walked in the call it was sent in. */
const BUDGET_MS = 60_000;

/** The oracle's blank page (its CSP lets no page script run), behind a proxy that serves nothing else. */
async function startBlankProxy(): Promise<{ server: Server; proxyUrl: string; blankUrl: string }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const blankUrl = `http://localhost:${port}/blank`;
  server.on('request', (req, res) => {
    if (req.url !== blankUrl) return void res.writeHead(403).end();
    res
      .writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': "sandbox allow-scripts; script-src 'unsafe-eval'",
      })
      .end('<!doctype html><title>browser-oracle</title>');
  });
  return { server, proxyUrl: `http://127.0.0.1:${port}`, blankUrl };
}

/** Runs the batch program on one page; resolves with its JSON text. */
type BatchCall = (args: { blankUrl: string; htmls: string[]; walk: WalkOptions; budgetMs: number }) => Promise<string>;

interface Launched {
  version: string;
  pages: BatchCall[];
  close(): Promise<void>;
}

type Driver = (options: EngineLaunch, blankUrl: string) => Promise<Launched>;

const bidi: Driver = async (options, blankUrl) => {
  const browser = await launchFirefox(options);
  const pages = await Promise.all(
    Array.from({ length: PAGES }, async () => {
      const page = await browser.newPage({ freshStorage: true });
      await page.load(blankUrl, 30_000);
      return page;
    }),
  );
  return {
    version: browser.version,
    pages: pages.map((page) => (args) => page.run({ program: 'batch', args })),
    close: () => browser.close(),
  };
};

const playwright: Driver = async (options, blankUrl) => {
  const browser = await firefox.launch({
    channel: 'moz-firefox',
    executablePath: SYSTEM_FIREFOX,
    headless: true,
    firefoxUserPrefs: firefoxPrefs(options),
    env: browserEnv(options),
  });
  const pages = await Promise.all(
    Array.from({ length: PAGES }, async () => {
      const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(blankUrl, { waitUntil: 'load' });
      return page;
    }),
  );
  return {
    version: browser.version(),
    pages: pages.map(
      (page) => (args) =>
        page.evaluate(`new Promise((resolve) => (${PROGRAMS.batch})(${JSON.stringify(args)}, resolve))`) as Promise<string>,
    ),
    close: () => browser.close(),
  };
};

const TICK_MS = 1000 / 100; // CLK_TCK

/** ms of CPU of `root` itself and of all its descendants, living or reaped by them. */
function treeCpu(root: number): { parent: number; rest: number } {
  const cpuOf = (pid: number) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS;
    } catch {
      return 0;
    }
  };
  return { parent: cpuOf(root), rest: descendantsOf(root).reduce((sum, pid) => sum + cpuOf(pid), 0) };
}

const firefoxPids = () => new Set(engineProcesses(descendantsOf(process.pid), 'firefox'));

interface Measured {
  dumps: Map<string, string>;
  seconds: number;
  parentMs: number;
  restMs: number;
  nodeMs: number;
}

async function measure(driver: Driver, perCall: number, options: EngineLaunch, blankUrl: string): Promise<Measured> {
  const running = firefoxPids();
  const launched = await driver(options, blankUrl);
  const pid = [...firefoxPids()].find((p) => !running.has(p))!;
  const args = (htmls: string[]) => ({ blankUrl, htmls, walk: WALK, budgetMs: BUDGET_MS });
  try {
    // Warm-up, not measured: the first call of a page compiles the program.
    await Promise.all(launched.pages.map((call) => call(args([corpus[0]!.html]))));
    const queue = Array.from({ length: Math.ceil(corpus.length / perCall) }, (_, i) => corpus.slice(i * perCall, (i + 1) * perCall));
    const dumps = new Map<string, string>();
    const cpuBefore = treeCpu(pid);
    const nodeBefore = process.cpuUsage();
    const start = performance.now();
    await Promise.all(
      launched.pages.map(async (call) => {
        for (let batch = queue.shift(); batch; batch = queue.shift()) {
          const answer = JSON.parse(await call(args(batch.map((c) => c.html)))) as {
            walks?: RawWalk[];
            failed?: string;
            elsewhere?: string;
          };
          if (!answer.walks || answer.failed) throw new Error(`the batch failed: ${JSON.stringify(answer).slice(0, 200)}`);
          answer.walks.forEach((walk, i) => {
            dumps.set(batch[i]!.id, String(dumpJson('firefox', launched.version, walk)));
          });
          if (answer.walks.length < batch.length) queue.push(batch.slice(answer.walks.length));
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const node = process.cpuUsage(nodeBefore);
    const cpuAfter = treeCpu(pid);
    return {
      dumps,
      seconds,
      parentMs: cpuAfter.parent - cpuBefore.parent,
      restMs: cpuAfter.rest - cpuBefore.rest,
      nodeMs: (node.user + node.system) / 1000,
    };
  } finally {
    await launched.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const VARIANTS: { label: string; driver: Driver; perCall: number }[] = [
  { label: 'Playwright 1.60, 1 per call', driver: playwright, perCall: 1 },
  { label: 'Playwright 1.60, 16 per call', driver: playwright, perCall: 16 },
  { label: 'BiDi adapter, 1 per call', driver: bidi, perCall: 1 },
  { label: 'BiDi adapter, 16 per call', driver: bidi, perCall: 16 },
];

const { server, proxyUrl, blankUrl } = await startBlankProxy();
const options: EngineLaunch = launchOptions(proxyUrl, { browsers: 'system' });
const results = new Map<string, Measured[]>(VARIANTS.map((v) => [v.label, []]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of VARIANTS) {
      process.stderr.write(`round ${round + 1}/${ROUNDS}: ${variant.label}\n`);
      results.get(variant.label)!.push(await measure(variant.driver, variant.perCall, options, blankUrl));
    }
  }
} finally {
  server.close();
}

const reference = results.get(VARIANTS[0]!.label)![0]!.dumps;
console.log(
  `${corpus.length} cases, ${PAGES} pages, ${ROUNDS} rounds; dumps compared with ${VARIANTS[0]!.label} (round 1); medians per case:`,
);
console.log('| variant | identical dumps | FF parent ms | FF rest ms | FF total ms | Node ms | FF+Node ms | cases/s |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
const fixed = (n: number) => n.toFixed(2);
for (const { label } of VARIANTS) {
  const runs = results.get(label)!;
  const identical = Math.min(...runs.map((run) => corpus.filter((c) => run.dumps.get(c.id) === reference.get(c.id)).length));
  const per = (pick: (m: Measured) => number) => median(runs.map((m) => pick(m) / corpus.length));
  const parent = per((m) => m.parentMs);
  const rest = per((m) => m.restMs);
  const node = per((m) => m.nodeMs);
  const total = per((m) => m.parentMs + m.restMs);
  console.log(
    `| ${label} | ${identical}/${corpus.length} | ${fixed(parent)} | ${fixed(rest)} | ${fixed(total)} | ${fixed(node)} | ${fixed(per((m) => m.parentMs + m.restMs + m.nodeMs))} | ${median(runs.map((m) => corpus.length / m.seconds)).toFixed(0)} |`,
  );
}
