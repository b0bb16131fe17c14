// wpt-parity end to end on the three real engines: the check-layout fixture tree
// (test/fixtures/wpt-authored, with its own check-layout-th.js and the real testharness.js)
// imported by both routes of wpt-import, each run by a campaign, and the two journals compared.
// Every file but one agrees in every engine, a failing expectation included (multi.html fails on
// both sides); css-align/phases.html checks one element twice, changed between the calls, so the
// harness fails its first phase while the walk reads the last: a disagreement in all three, tagged
// multi-call, with the failing subtest named.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ParityResult } from '../../src/tools/parity/parity.js';
import { runCli } from '../support/campaign-process.js';
import { authoredCheckout } from '../support/wpt-checkout.js';

const tree = authoredCheckout();
const root = mkdtempSync(join(tmpdir(), 'wpt-parity-e2e-'));
after(() => {
  tree.remove();
  rmSync(root, { recursive: true, force: true });
});
const FARM = ['--workers=1', '--pages=1', '--timeout-ms=60000'];

/** The route's requests for the tree's css folder, written to a corpus file. */
async function imported(route: 'layout' | 'harness'): Promise<string> {
  const run = await runCli(['wpt-import', tree.dir, 'css', ...(route === 'layout' ? ['--layout'] : [])]);
  assert.equal(run.code, 0, run.stderr);
  const corpus = join(root, `${route}.ndjson`);
  writeFileSync(corpus, run.stdout);
  return corpus;
}

test('both routes through the real oracle, then wpt-parity: 15 of 18 pairs agree; phases.html is multi-call in all three', async () => {
  const [layoutCorpus, harnessCorpus] = await Promise.all([imported('layout'), imported('harness')]);
  const layout = join(root, 'layout.sqlite');
  const harness = join(root, 'harness.sqlite');
  const runs = await Promise.all([
    runCli(['campaign', '--db', layout, '--corpus', layoutCorpus, ...FARM]),
    runCli(['campaign', '--db', harness, '--corpus', harnessCorpus, ...FARM]),
  ]);
  for (const run of runs) assert.equal(run.code, 0, run.stderr);

  const json = await runCli(['wpt-parity', '--layout', layout, '--harness', harness, '--json']);
  assert.equal(json.code, 0, json.stderr);
  const r = JSON.parse(json.stdout) as ParityResult;
  assert.deepEqual(r.files, { layout: 6, paired: 6 });
  assert.deepEqual(r.skipped, {});
  assert.deepEqual([r.pairs, r.agreeing], [18, 15]);
  assert.deepEqual(r.by_directory['css/css-flexbox'], { pairs: 15, agreeing: 15, ratio: 1 }, 'multi.html fails on both sides');
  assert.deepEqual(r.by_directory['css/css-align'], { pairs: 3, agreeing: 0, ratio: 0 });
  for (const d of r.disagreements) {
    assert.equal(d.id, 'css/css-align/phases.html');
    assert.equal(d.cause, 'multi-call');
    assert.deepEqual(d.harness, { verdict: 'fail', status: 'OK', subtests: 2, failing: [{ name: '#box 1', status: 'FAIL' }] }, d.engine);
    assert.deepEqual(d.authored, { verdict: 'pass', pass: 1, fail: 0, failures: [] }, d.engine);
  }
  assert.deepEqual(
    r.disagreements.map((d) => d.engine),
    ['chromium', 'firefox', 'webkit'],
  );

  const below = await runCli(['wpt-parity', '--layout', layout, '--harness', harness, '--min', '0.95']);
  assert.equal(below.code, 1, below.stderr);
  assert.match(below.stdout, /\(file, engine\) pairs: 18, agreeing 15: 83\.3 %/);
  assert.match(
    below.stdout,
    /css\/css-align\/phases\.html {2}webkit {2}multi-call\n {2}harness fail: status OK, 2 subtest\(s\), 1 not PASS\n {4}"#box 1" FAIL/,
  );
});
