#!/usr/bin/env node
// Records the reflection vote's test fixtures from the real engines: each case below runs
// through one oracle process (the reflect-corpus runner) and its response is saved as
// test/fixtures/reflect/<name>.json. Never hand-typed; tests derive variants from these.
//
//   npx tsc -p . && node scripts/record-reflect.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CORPUS, readCorpus, runCorpus } from '../dist/src/cli/reflect-commands.js';

const outDir = fileURLToPath(new URL('../test/fixtures/reflect/', import.meta.url));

// Fixture name → corpus case, chosen for the verdict it was measured to give.
const FROM_CORPUS = {
  // Every observation agrees.
  unanimous: 'num-colspan-limits',
  // Chromium alone maps an invalid and a missing `preload` to "metadata".
  outlier: 'enum-media-preload',
  // WebKit lacks two IDL properties, Chromium differs on a third: no engine agrees throughout.
  split: 'enum-newer-attributes',
};

const corpus = new Map(readCorpus(DEFAULT_CORPUS).map((r) => [r.id, r]));
const requests = Object.entries(FROM_CORPUS).map(([name, id]) => ({ ...corpus.get(id), id: name }));
// WebKit has no `closedBy`, so only its script throws: two states and one error.
requests.push({
  id: 'engine-error',
  op: 'reflect',
  html: '<!doctype html><dialog id=a closedby=any></dialog>',
  script: "document.getElementById('a').closedBy.toUpperCase();",
  probes: [{ selector: '#a', attr: 'closedby', idl: 'closedBy' }],
});

mkdirSync(outDir, { recursive: true });
for (const { response, vote } of await runCorpus(requests)) {
  writeFileSync(`${outDir}${response.id}.json`, JSON.stringify(response) + '\n');
  process.stdout.write(`${response.id}: ${vote.verdict}${vote.outlier ? ` (${vote.outlier})` : ''}\n`);
}
