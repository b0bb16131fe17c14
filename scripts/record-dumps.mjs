#!/usr/bin/env node
// Records the comparator's test fixtures from the real engines: each case below goes through
// one oracle process and its response line is saved verbatim as test/fixtures/dumps/<name>.json.
// Fixtures are never hand-typed; tests derive any variant they need from these recordings.
//
//   npx tsc -p . && node scripts/record-dumps.mjs
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const oracle = `${root}dist/src/cli/main.js`;
const outDir = `${root}test/fixtures/dumps`;

const page = (body) => `<!doctype html><html><head><style>body{margin:8px}</style></head><body>${body}</body></html>`;

// The rigid pair differs only in `left`/`top` of #mover: same shape, same sizes, one subtree
// shifted. Inside it, a display:none element and a display:contents one have no box (a zeroed
// placeholder); neither they nor the <u> laid out inside the contents element count as moved.
const rigid = (shift) =>
  page(
    `<div style="width:300px"><div id="mover" style="position:relative;${shift}">` +
      `<div style="width:50px;height:20px"></div><div style="display:none"><i></i></div>` +
      `<div style="display:contents"><u style="display:block;height:5px"></u></div>` +
      `<div style="padding:4px"><b style="display:block;height:10px"></b></div></div>` +
      `<div style="height:10px"></div></div>`,
  );

/** name → request (without id). What each one exercises is in the comment above it. */
const CASES = {
  // Explicit sizes only, no text: all three engines agree.
  agree: {
    html: page(
      `<div style="width:200px;height:100px;padding:10px;border:2px solid;box-sizing:border-box"><div style="width:50%;height:30px;margin:5px"></div><div style="height:20px"></div></div>`,
    ),
  },
  // One line of default serif text: Gecko's line is 19px, Blink's and WebKit's 18px.
  'text-line': { html: page(`<p>Hello world</p>`) },
  // An inline element wrapping into three fragments in every engine; WebKit fits one more
  // word on the first line than Blink and Gecko, so the fragment widths differ.
  'inline-wrap': {
    html: page(`<div style="width:143.1px;font:16px/20px sans-serif"><span>The quick brown fox jumps over the lazy dog</span></div>`),
  },
  // The same width and font with less text: one line in WebKit, two in Blink and Gecko.
  'fragment-count': { html: page(`<div style="width:143.1px;font:16px/20px sans-serif"><span>The quick brown fox</span></div>`) },
  // A fractional width every engine lays out within tolerance but serializes differently in
  // getComputedStyle (Blink rounds to 3 decimals): geometry agrees, styles do not.
  'style-only': { html: page(`<div style="width:100.3px;height:10px"></div>`) },
  // Shrink-to-fit text at an odd size: three different widths, no two engines agree.
  split: { html: page(`<div style="display:inline-block;font:17.3px sans-serif">Wavy AVA fi ffl text</div>`) },
  // Taller than the viewport: every engine reports overflowed.
  overflow: { html: page(`<div style="height:2000px"></div>`) },
  'rigid-base': { html: rigid('') },
  'rigid-moved': { html: rigid('left:13px;top:7px') },
  // Same document as shape-b but one element fewer, so the node sequences diverge.
  'shape-a': { html: page(`<div><p style="height:10px"></p></div><div style="height:5px"></div>`) },
  'shape-b': { html: page(`<div><p style="height:10px"></p><p style="height:10px"></p></div><div style="height:5px"></div>`) },
  // Firefox's script throws, so the response carries an error instead of its dump.
  'engine-error': {
    html: page(`<p style="height:10px"></p>`),
    script: `if (navigator.userAgent.includes('Firefox')) throw new Error('recorded failure')`,
  },
};

if (!existsSync(oracle)) {
  process.stderr.write(`record-dumps: ${oracle} is missing; build first with \`npx tsc -p .\`\n`);
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

const child = spawn(process.execPath, [oracle, '--workers=1'], { stdio: ['pipe', 'pipe', 'inherit'] });
for (const [id, request] of Object.entries(CASES)) child.stdin.write(JSON.stringify({ id, ...request }) + '\n');
child.stdin.end();

const pending = new Set(Object.keys(CASES));
for await (const line of createInterface({ input: child.stdout })) {
  const response = JSON.parse(line);
  if (!pending.delete(response.id)) throw new Error(`unexpected response line: ${line.slice(0, 200)}`);
  if (response.error) throw new Error(`${response.id}: the oracle rejected the request: ${response.error}`);
  writeFileSync(`${outDir}/${response.id}.json`, line + '\n');
  const engines = Object.entries(response.dumps).map(([e, d]) => `${e} ${d.nodes.length} nodes${d.overflowed ? ' overflowed' : ''}`);
  const errors = Object.entries(response.errors ?? {}).map(([e, message]) => `${e} error (${message})`);
  process.stdout.write(`${response.id}: ${[...engines, ...errors].join(', ')}\n`);
}
if (pending.size) throw new Error(`no response for ${[...pending].join(', ')}`);
