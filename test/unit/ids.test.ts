// Request ids on every way in (a line, a value, a corpus line): well-formed ones survive byte for
// byte through the journal and the summary; one with a lone surrogate, which UTF-8 (the journal's
// text, an answer line) cannot carry, is refused with the field named.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkRequest, checkRequestOf, parseRequestLine } from '../../src/protocol/validate.js';
import { openCorpus, type CorpusItem } from '../../src/campaign/corpus/corpus.js';
import { invalidRecord } from '../../src/campaign/loop/case-record.js';
import { Journal } from '../../src/campaign/journal/journal.js';
import { renderSummary } from '../../src/campaign/journal/summary.js';

const root = mkdtempSync(join(tmpdir(), 'ids-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Ids with lone surrogates, as a client writes them in JSON (escapes) — each refused. */
const LONE = [
  ['x\\ud800', '\\ud800 at index 1'],
  ['\\udfff', '\\udfff at index 0'],
  ['a\\udc00\\ud800b', '\\udc00 at index 1'],
  ['\\ud83d\\ude00\\ud83d', '\\ud83d at index 2'],
] as const;

/** UTF-8 has a form for it: encoding and decoding gives it back. */
const wellFormed = (text: string) => Buffer.from(text, 'utf8').toString('utf8') === text;

/** Ids that are well-formed however odd: each survives. */
const ODD = ['😀', 'x\u0000y', '\uffff\u2028\u2029', 'a\\b"c', ' ', 'é\u0301'];

test('an id with a lone surrogate is refused, by line, by value and by a library call, naming the field and where', () => {
  for (const [escaped, where] of LONE) {
    const line = `{"id":"${escaped}","html":"<p>x</p>"}`;
    const value = JSON.parse(line) as { id: string };
    // A library call's request is checked as its method's op, with no line before it.
    const ways = [
      parseRequestLine(line),
      parseRequestLine(Buffer.from(line)),
      checkRequest(value),
      checkRequestOf('geometry', value, value.id),
    ];
    for (const parsed of ways) {
      assert.equal(parsed.ok, false, escaped);
      if (parsed.ok) continue;
      // The id cannot be echoed: it is not one.
      assert.equal(parsed.id, null);
      assert.equal(
        parsed.error.wireText,
        `invalid_request: field "id": holds a lone surrogate (${where}), which UTF-8 cannot carry; send well-formed Unicode`,
      );
    }
  }
});

test('well-formed ids are taken as they are', () => {
  for (const id of ODD) {
    const parsed = parseRequestLine(JSON.stringify({ id, html: 'x' }));
    assert.ok(parsed.ok, id);
    assert.equal(parsed.request.id, id);
  }
});

async function items(path: string): Promise<CorpusItem[]> {
  const out: CorpusItem[] = [];
  for await (const item of (await openCorpus(path)).items()) out.push(item);
  return out;
}

test('in a corpus, a line with a lone-surrogate id is an invalid item keyed by its line; the journal and the summary show every id as given', async () => {
  const file = join(root, 'ids.ndjson');
  const lines = [
    ...LONE.map(([escaped]) => `{"id":"${escaped}","html":"<p>x</p>"}`),
    ...ODD.map((id) => JSON.stringify({ id, op: 'nope' })),
  ];
  writeFileSync(file, lines.join('\n'));
  const read = await items(file);
  assert.deepEqual(
    read.map((i) => i.id),
    [...LONE.map((_, n) => `line:${n + 1}`), ...ODD],
  );
  assert.ok(read.every((i) => !i.ok));
  assert.deepEqual(
    read.slice(0, LONE.length).map((i) => i.given),
    lines.slice(0, LONE.length),
    'recorded as given',
  );

  const db = join(root, 'ids.sqlite');
  const journal = Journal.open(db);
  journal.startRun({ command: ['test'], engines: ['chromium'], versions: {}, fonts: null });
  for (const item of read) if (!item.ok) assert.ok(journal.record(invalidRecord(item, 0)));
  journal.close();

  const again = Journal.open(db, { mustExist: true });
  try {
    for (const item of read) {
      const [recorded] = again.casesWithId(item.id);
      assert.equal(recorded?.id, item.id, JSON.stringify(item.id));
      assert.equal(recorded?.request, item.given);
      assert.ok(again.has(item), 'found again, so a resume skips it');
    }
    const summary = again.summary();
    assert.ok(
      summary.buckets.every((b) => wellFormed(b.example)),
      'no id read back is ill-formed',
    );
    const text = renderSummary(summary);
    assert.ok(!text.includes('\uFFFD'), text);
  } finally {
    again.close();
  }
});
