// The relayout check in a campaign: the generator asks for it on --script cases, the record keeps
// each engine that failed it as a bucket of its own, the journal counts and finds those buckets,
// and the report shows the failing node's two walks side by side. The failing check is derived
// from a recording (one box narrowed, as a layout from scratch would give it).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { columnarFromDump } from '../../src/comparator/columnar.js';
import { checkRelayout } from '../../src/comparator/relayout.js';
import { generateCase } from '../../src/campaign/generator/generator.js';
import { requestLine } from '../../src/campaign/generator/emit.js';
import { generatedCorpus } from '../../src/campaign/corpus/generated-corpus.js';
import { votedRecord, wireRequest } from '../../src/campaign/loop/case-record.js';
import { Journal } from '../../src/campaign/journal/journal.js';
import { reportInput } from '../../src/report/from-journal.js';
import { renderReport } from '../../src/report/render.js';
import type { Dump } from '../../src/protocol/schema.js';
import { dump, response } from '../fixtures/dumps/load.js';
import { answered } from '../support/answers.js';
import { runCli } from '../support/campaign-process.js';

const root = mkdtempSync(join(tmpdir(), 'relayout-campaign-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** The recording `agree` with node 5 narrower by 2 px, box and computed width. */
function narrowed(d: Dump): Dump {
  const copy = structuredClone(d);
  const node = copy.nodes[5]!;
  node.bounding.w -= 2;
  for (const r of node.rects) r.w -= 2;
  node.style.width = `${Number.parseFloat(node.style.width) - 2}px`;
  return copy;
}

const walked = dump('agree', 'webkit');
const same = (engine: 'chromium' | 'firefox') =>
  checkRelayout(columnarFromDump(dump('agree', engine)), columnarFromDump(dump('agree', engine)));
const answer = answered({
  ...response('agree'),
  relayout: {
    chromium: same('chromium'),
    firefox: same('firefox'),
    webkit: checkRelayout(columnarFromDump(walked), columnarFromDump(narrowed(walked))),
  },
});

test('the generator asks for the relayout check on --script cases, unless told not to; script-free cases go without', async () => {
  assert.equal(generateCase(23, 9, { script: true }).relayout, true);
  assert.equal(generateCase(23, 9, { script: true, relayout: false }).relayout, undefined);
  assert.equal(generateCase(23, 9).relayout, undefined);
  const line = JSON.parse(requestLine(generateCase(23, 9, { script: true })));
  assert.deepEqual(Object.keys(line), ['id', 'html', 'script', 'relayout']);
  const { value: item } = await generatedCorpus({ count: 1, seed: 23, script: true }).items().next();
  assert.ok(item?.ok);
  assert.equal(item.given, requestLine(generateCase(23, 0, { script: true })));
  assert.equal((wireRequest(item.request).request as { relayout?: boolean }).relayout, true, 'the vote request carries it');
});

test('campaign --generate --script --emit asks for the check; --no-relayout leaves it out, and goes with --generate only', async () => {
  const emit = (...flags: string[]) => runCli(['campaign', '--generate', '2', '--seed', '23', ...flags, '--emit']);
  const [on, off, plain, stray] = await Promise.all([
    emit('--script'),
    emit('--script', '--no-relayout'),
    emit(),
    runCli(['campaign', '--db', join(root, 'stray.sqlite'), '--corpus', '-', '--no-relayout']),
  ]);
  const lines = (out: string) =>
    out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { relayout?: boolean });
  assert.deepEqual(
    lines(on.stdout).map((l) => l.relayout),
    [true, true],
  );
  assert.deepEqual(
    lines(off.stdout).map((l) => l.relayout),
    [undefined, undefined],
  );
  assert.deepEqual(
    lines(plain.stdout).map((l) => l.relayout),
    [undefined, undefined],
  );
  assert.deepEqual([stray.code, stray.stderr], [2, 'browser-oracle: error: campaign: --no-relayout goes with --generate\n']);
});

test('a record keeps each engine that failed its check, with its own signature; the journal buckets and finds it', () => {
  const item = {
    ok: true as const,
    id: 'mutated',
    hash: 'h1',
    given: '{}',
    request: { id: 'mutated', html: '<div></div>', relayout: true },
  };
  const record = votedRecord(item, answer, { startedAt: Date.UTC(2026, 0, 1), elapsedMs: 1, attempts: 1 });
  assert.equal(record.signature, null, 'the engines agree with each other');
  assert.deepEqual(
    record.selfChecks?.map((s) => [s.engine, s.signature]),
    [['webkit', 'self webkit | relayout | DIV | width']],
  );
  const journal = Journal.open(join(root, 'run.sqlite'));
  journal.startRun({ command: ['test'], engines: ['chromium', 'firefox', 'webkit'], versions: {}, fonts: 'liberation' });
  assert.ok(journal.record(record));
  assert.ok(journal.record({ ...record, id: 'again', hash: 'h2' }));
  assert.deepEqual(journal.summary().buckets, [{ signature: 'self webkit | relayout | DIV | width', count: 2, example: 'mutated' }]);
  const first = journal.firstInBucket('self webkit | relayout | DIV | width')!;
  assert.equal(first.id, 'mutated');
  assert.deepEqual(first.selfChecks, record.selfChecks);
  journal.close();
});

test("the report shows a relayout bucket's failing node, both walks side by side", async () => {
  const journal = Journal.open(join(root, 'run.sqlite'), { mustExist: true });
  const input = await reportInput(journal, async () => ({ images: {} }), '2026-01-01T00:00:00Z');
  journal.close();
  const example = input.examples.get('self webkit | relayout | DIV | width')!;
  assert.equal(example.relayout?.engine, 'webkit');
  const page = renderReport(input);
  assert.match(page, /Relayout check: <strong>webkit fails<\/strong>/);
  assert.match(page, /Failing node #5 <code>DIV<\/code> · size, fragment/);
  assert.match(page, /<tr><td>bounding<\/td><td>25, 25 · 88 × 30<\/td><td>25, 25 · 86 × 30<\/td><\/tr>/);
  assert.match(page, /<tr><td><code>width<\/code><\/td><td><code>88px<\/code><\/td><td><code>86px<\/code><\/td><\/tr>/);
});
