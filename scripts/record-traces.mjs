#!/usr/bin/env node
// Records the trace comparator's test fixtures from the real engines: each trace request below
// goes through one oracle process and its response line is saved verbatim as
// test/fixtures/traces/<name>.json. Tests derive any variant they need from these recordings.
//
//   npx tsc -p . && node scripts/record-traces.mjs
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = `${root}test/fixtures/traces`;

/** name → trace request (without id and op). */
const CASES = {
  // Event bubble order and promise settlement order: every engine records the same.
  agree: {
    html: '<div id=outer><b id=inner>x</b></div>',
    script:
      "for (const t of [window, document, outer, inner]) trace.event(t, 'click'); inner.click(); trace.settle('p', Promise.resolve(1)); queueMicrotask(() => trace.value('micro', 2)); setTimeout(() => trace.done(), 0);",
  },
  // A canvas readback of solid rectangles: a pixel buffer the engines agree on.
  canvas: {
    html: '<canvas id=c width=4 height=2></canvas>',
    script:
      "const g = c.getContext('2d'); g.fillStyle = 'rgb(200, 100, 50)'; g.fillRect(0, 0, 2, 2); trace.value('pixels', g.getImageData(0, 0, 4, 2)); trace.done();",
  },
  // A function's own keys: Firefox lists `prototype` first, Blink and WebKit last.
  outlier: { script: "trace.value('fn', function f(a, b) {}); trace.done();" },
  // The user agent differs in every engine.
  split: { script: "trace.value('ua', navigator.userAgent); trace.done();" },
  // One record per enumerable navigator property: the counts differ.
  count: { script: 'for (const k in navigator) trace.value(k, typeof navigator[k]); trace.done();' },
  // Two engines only: never enough for a vote.
  insufficient: { script: "trace.value('x', 1); trace.done();", engines: ['chromium', 'firefox'] },
};

mkdirSync(outDir, { recursive: true });
const child = spawn(process.execPath, [`${root}dist/src/cli/main.js`, '--workers=1'], { stdio: ['pipe', 'pipe', 'inherit'] });
for (const [id, request] of Object.entries(CASES)) child.stdin.write(JSON.stringify({ id, op: 'trace', ...request }) + '\n');
child.stdin.end();

const pending = new Set(Object.keys(CASES));
for await (const line of createInterface({ input: child.stdout })) {
  const response = JSON.parse(line);
  if (!pending.delete(response.id) || !response.traces) throw new Error(`unexpected response line: ${line.slice(0, 200)}`);
  writeFileSync(`${outDir}/${response.id}.json`, line + '\n');
  const counts = Object.entries(response.traces).map(([e, t]) => `${e} ${t.records.length} records`);
  process.stdout.write(`${response.id}: ${counts.join(', ')}\n`);
}
if (pending.size) throw new Error(`no response for ${[...pending].join(', ')}`);
