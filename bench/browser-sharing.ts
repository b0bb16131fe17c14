// node dist/bench/browser-sharing.js chromium|firefox — the farm-shape question, measured: two
// worker threads that each launch their own browser, against two that connect to one shared
// browser (launchServer + connect), each with two pages, on the bench corpus (fast path, one
// round trip per case). Timed from the moment every worker is ready, side by side in one run.
// WebKitGTK is not measured: one WebKitWebDriver serves one session, so it cannot be shared.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { chromium, firefox, type BrowserServer, type BrowserType, type LaunchOptions } from 'playwright-core';
import { layoutCorpus } from '../test/support/layout-corpus.js';
import { WALK_FIXED_ARGS, WALK_FUNCTION_SOURCE } from '../src/page/walk.js';
import { writeThenCall } from '../src/workers/script-free.js';
import { SYSTEM_CHROMIUM } from '../src/workers/engines/chromium.js';
import { SYSTEM_FIREFOX } from '../src/workers/engines/firefox.js';

type Engine = 'chromium' | 'firefox';
const TYPES: Record<Engine, BrowserType> = { chromium, firefox };
const OPTIONS: Record<Engine, LaunchOptions> = {
  chromium: {
    executablePath: SYSTEM_CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic'],
  },
  firefox: { channel: 'moz-firefox', executablePath: SYSTEM_FIREFOX },
};
const CALL = `(${writeThenCall(WALK_FUNCTION_SOURCE)})`;
const FIXED = WALK_FIXED_ARGS.map((a) => JSON.stringify(a)).join(', ');

async function measure(engine: Engine, shared: boolean): Promise<number> {
  const corpus = layoutCorpus().map((c) => c.html);
  const server: BrowserServer | undefined = shared ? await TYPES[engine].launchServer(OPTIONS[engine]) : undefined;
  const workers = [0, 1].map(
    (w) =>
      new Worker(new URL(import.meta.url), {
        workerData: { engine, ws: server?.wsEndpoint(), cases: corpus.filter((_, i) => i % 2 === w) },
      }),
  );
  await Promise.all(workers.map((w) => new Promise((r) => w.once('message', r))));
  const start = performance.now();
  const done = workers.map((w) => new Promise((r) => w.once('message', r)));
  for (const w of workers) w.postMessage('go');
  await Promise.all(done);
  const rate = corpus.length / ((performance.now() - start) / 1000);
  await Promise.all(workers.map((w) => w.terminate()));
  await server?.close();
  return rate;
}

async function work({ engine, ws, cases }: { engine: Engine; ws?: string; cases: string[] }): Promise<void> {
  const browser = ws ? await TYPES[engine].connect(ws) : await TYPES[engine].launch(OPTIONS[engine]);
  const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
  const pages = await Promise.all([context.newPage(), context.newPage()]);
  parentPort!.postMessage('ready');
  await new Promise((r) => parentPort!.once('message', r));
  let next = 0;
  await Promise.all(
    pages.map(async (page) => {
      while (next < cases.length) await page.evaluate(`${CALL}(${JSON.stringify(cases[next++])}, null, ${FIXED})`);
    }),
  );
  await browser.close();
  parentPort!.postMessage('done');
}

if (isMainThread) {
  const engine = (process.argv[2] ?? 'firefox') as Engine;
  for (let round = 1; round <= 2; round++) {
    const own = await measure(engine, false);
    const shared = await measure(engine, true);
    console.log(
      `${engine} round ${round}: own browser per worker ${own.toFixed(1)} cases/s, one shared browser ${shared.toFixed(1)} cases/s`,
    );
  }
} else {
  await work(workerData);
}
