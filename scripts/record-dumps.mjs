#!/usr/bin/env node
// Records the comparator's test fixtures from the real engines: each case of
// test/fixtures/dumps/requests.ts (read from its build) goes through one oracle process and its
// response line is saved verbatim as test/fixtures/dumps/<name>.json.
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
const requests = `${root}dist/test/fixtures/dumps/requests.js`;

for (const built of [oracle, requests]) {
  if (!existsSync(built)) {
    process.stderr.write(`record-dumps: ${built} is missing; build first with \`npx tsc -p .\`\n`);
    process.exit(2);
  }
}
const { DUMP_REQUESTS: CASES } = await import(requests);
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
