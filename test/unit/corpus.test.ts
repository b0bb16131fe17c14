// Corpus readers on temporary files and folders, and on a stream standing in for stdin.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { openCorpus, type CorpusItem } from '../../src/campaign/corpus/corpus.js';
import { contentHash } from '../../src/campaign/corpus/case-hash.js';
import { CampaignError } from '../../src/campaign/campaign-error.js';

const root = mkdtempSync(join(tmpdir(), 'corpus-test-'));
after(() => rmSync(root, { recursive: true, force: true }));
const temp = () => mkdtempSync(join(root, 'case-'));

async function all(items: AsyncGenerator<CorpusItem>): Promise<CorpusItem[]> {
  const out: CorpusItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const summary = (items: CorpusItem[]) => items.map((i) => (i.ok ? [i.id, 'ok'] : [i.id, i.error]));

const LINES = [
  '{"id":"a","html":"<p>a</p>"}',
  '',
  '{"html":"<p>no id</p>"}',
  '   ',
  '{"id":"t","op":"trace","script":"trace.done()"}\r',
  'not json',
  '{"id":"bad","html":"x","engines":["netscape"]}',
  '{"id":"p","op":"ping"}',
  '{"op":"reflect","probes":[{"selector":"#a","attr":"x"}]}',
  '[1,2]',
  '{"id":"last","op":"vote","html":"<b>x</b>"}',
  '{"id":"pic","op":"screenshot","html":"<b>x</b>"}',
];

test('an NDJSON file: ids, line keys, invalid lines with the oracle’s error text', async () => {
  const dir = temp();
  const file = join(dir, 'cases.ndjson');
  writeFileSync(file, LINES.join('\n')); // no final newline: the last line still counts
  const corpus = await openCorpus(file);
  const items = await all(corpus.items());
  // JSON.parse's own words vary with the Node version.
  const v8Message = (text: string) => text.replace(/^(invalid_json: the line is not JSON) \(.+\)$/, '$1 (…)');
  assert.deepEqual(
    summary(items).map(([id, error]) => [id, v8Message(error!)]),
    [
      ['a', 'ok'],
      ['line:3', 'ok'],
      ['t', 'ok'],
      ['line:6', 'invalid_json: the line is not JSON (…)'],
      ['bad', 'invalid_request: field "engines[0]": must be one of "chromium", "firefox", "webkit"'],
      ['p', 'invalid_request: field "op": "ping" is not a case (a corpus holds geometry, vote, reflect and trace requests)'],
      ['line:9', 'ok'],
      ['line:10', 'invalid_request: the line must be a JSON object'],
      ['last', 'ok'],
      ['pic', 'invalid_request: field "op": "screenshot" is not a case (a corpus holds geometry, vote, reflect and trace requests)'],
    ],
  );
  assert.equal(await corpus.count(), items.length);
  const noId = items[1]!;
  assert.ok(noId.ok);
  assert.deepEqual(noId.request, { id: 'line:3', html: '<p>no id</p>' });
  assert.equal(noId.given, '{"html":"<p>no id</p>"}', 'the request is recorded as given');
  assert.equal(items[2]!.given, LINES[4]!.slice(0, -1), 'a CRLF line ends before its CR');
  assert.deepEqual(summary(await all((await openCorpus(file)).items())), summary(items), 'a second pass gives the same order');
});

test('the content hash ignores the id and key order, and nothing else', () => {
  const hash = contentHash({ id: 'x', html: '<p>', engines: ['webkit'] });
  assert.equal(contentHash({ engines: ['webkit'], html: '<p>', id: 'y' }), hash);
  assert.notEqual(contentHash({ id: 'x', html: '<p> ', engines: ['webkit'] }), hash);
  assert.notEqual(contentHash({ id: 'x', html: '<p>', engines: ['webkit'], script: '' }), hash);
  assert.match(hash, /^[0-9a-f]{64}$/);
});

test('a line that is not UTF-8 is invalid, as on stdio; stdin has no count', async () => {
  const stdin = new PassThrough();
  const corpus = await openCorpus('-', stdin);
  const bytes = Buffer.concat([
    Buffer.from('{"id":"u","html":"'),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('"}\n{"id":"ok",'),
    Buffer.from('"html":"é"}\n'),
  ]);
  // Written in pieces that split a line and a multi-byte character.
  stdin.write(bytes.subarray(0, 7));
  stdin.write(bytes.subarray(7, bytes.length - 4));
  stdin.end(bytes.subarray(bytes.length - 4));
  assert.equal(await corpus.count(), null);
  const items = await all(corpus.items());
  assert.deepEqual(summary(items), [
    ['u', 'invalid_json: the line is not valid UTF-8'],
    ['ok', 'ok'],
  ]);
  assert.deepEqual(items[1]!.ok && items[1].request, { id: 'ok', html: 'é' });
});

test('a folder: .html files at any depth, id = relative path, sorted', async () => {
  const dir = temp();
  mkdirSync(join(dir, 'b'));
  mkdirSync(join(dir, 'a', 'deep'), { recursive: true });
  writeFileSync(join(dir, 'b', 'one.html'), '<p>b1</p>');
  writeFileSync(join(dir, 'a', 'deep', 'two.html'), '<p>a2</p>');
  writeFileSync(join(dir, 'a.html'), '<p>a</p>');
  writeFileSync(join(dir, 'notes.txt'), 'not a case');
  writeFileSync(join(dir, 'latin1.html'), Buffer.from([0x3c, 0x70, 0x3e, 0xe9]));
  const corpus = await openCorpus(dir + '/');
  const items = await all(corpus.items());
  assert.deepEqual(summary(items), [
    ['a.html', 'ok'],
    ['a/deep/two.html', 'ok'],
    ['b/one.html', 'ok'],
    ['latin1.html', 'invalid_request: the file is not valid UTF-8'],
  ]);
  assert.equal(await corpus.count(), 4);
  const first = items[0]!;
  assert.ok(first.ok);
  assert.deepEqual(first.request, { id: 'a.html', html: '<p>a</p>' });
  assert.equal(first.hash, contentHash({ html: '<p>a</p>' }));
});

test('a corpus path that does not exist is a one-line error', async () => {
  await assert.rejects(openCorpus(join(temp(), 'missing.ndjson')), (e: unknown) => {
    assert.ok(e instanceof CampaignError);
    assert.match(e.message, /^--corpus .*missing\.ndjson: no such file or folder$/);
    return true;
  });
});

/** The bytes of a name as the file system holds it: `parts` joined, strings as UTF-8, numbers as raw bytes. */
const rawName = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

test('a folder: a file whose name is not UTF-8 is an invalid item with its reason, and the files after it run', async () => {
  const dir = temp();
  writeFileSync(join(dir, 'a.html'), '<p>a</p>');
  // Buffer paths: the names are bytes, not text.
  writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), rawName('b', [0xff, 0x5c], '.html')]), '<p>b</p>');
  mkdirSync(Buffer.concat([Buffer.from(`${dir}/`), rawName('c', [0xe9])]));
  writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), rawName('c', [0xe9], '/d.html')]), '<p>d</p>');
  writeFileSync(join(dir, 'z.html'), '<p>z</p>');
  const corpus = await openCorpus(dir);
  const items = await all(corpus.items());
  const bad =
    'invalid_request: the file name is not valid UTF-8 (its id shows each byte of it past ASCII, and each backslash, as \\xHH); rename it';
  assert.deepEqual(summary(items), [
    ['a.html', 'ok'],
    ['b\\xff\\x5c.html', bad],
    ['c\\xe9/d.html', bad],
    ['z.html', 'ok'],
  ]);
  assert.equal(await corpus.count(), 4);
  assert.deepEqual(
    (await all((await openCorpus(dir)).items())).map((i) => [i.id, i.hash]),
    items.map((i) => [i.id, i.hash]),
    'the same keys on a resume',
  );
});

test('a folder: a file that cannot be read when its turn comes is an invalid item with the reason, and the run goes on', async () => {
  const dir = temp();
  for (const name of ['a', 'gone', 'now-a-folder', 'now-a-fifo', 'z']) writeFileSync(join(dir, `${name}.html`), `<p>${name}</p>`);
  const corpus = await openCorpus(dir);
  rmSync(join(dir, 'gone.html'));
  rmSync(join(dir, 'now-a-folder.html'));
  mkdirSync(join(dir, 'now-a-folder.html'));
  rmSync(join(dir, 'now-a-fifo.html'));
  execFileSync('mkfifo', [join(dir, 'now-a-fifo.html')]);
  // A FIFO with no writer would block a read forever: it is looked at, never read.
  assert.deepEqual(summary(await all(corpus.items())), [
    ['a.html', 'ok'],
    ['gone.html', 'invalid_request: the file cannot be read: no such file or directory'],
    ['now-a-fifo.html', 'invalid_request: the file cannot be read: it is no longer a regular file (a FIFO)'],
    ['now-a-folder.html', 'invalid_request: the file cannot be read: it is no longer a regular file (a folder)'],
    ['z.html', 'ok'],
  ]);
});

test('a folder: links inside it are followed, links that leave it, FIFOs and other non-regular files are skipped, counted and named', async () => {
  const outside = temp();
  writeFileSync(join(outside, 'secret.html'), '<p>outside</p>');
  const dir = temp();
  mkdirSync(join(dir, 'real', 'deep'), { recursive: true });
  writeFileSync(join(dir, 'real', 'deep', 'x.html'), '<p>x</p>');
  writeFileSync(join(dir, 'plain.txt'), 'not a case');
  symlinkSync('real/deep/x.html', join(dir, 'file-link.html'));
  symlinkSync('real', join(dir, 'folder-link'));
  symlinkSync('..', join(dir, 'real', 'up')); // back to the corpus folder: a cycle
  symlinkSync(join(outside, 'secret.html'), join(dir, 'leaves.html'));
  symlinkSync(outside, join(dir, 'leaves-folder'));
  symlinkSync('nowhere.html', join(dir, 'dangling.html'));
  execFileSync('mkfifo', [join(dir, 'pipe.html')]);
  const corpus = await openCorpus(dir);
  assert.deepEqual(summary(await all(corpus.items())), [
    ['file-link.html', 'ok'],
    ['folder-link/deep/x.html', 'ok'],
    ['real/deep/x.html', 'ok'],
  ]);
  assert.equal(await corpus.count(), 3);
  assert.deepEqual(
    [...(corpus.skipped ?? [])].sort((a, b) => (a.id < b.id ? -1 : 1)),
    [
      { id: 'dangling.html', why: 'a link to nothing (no such file or directory)' },
      { id: 'folder-link/up', why: 'a link to a folder it is in (a cycle)' },
      { id: 'leaves-folder', why: `a link that leaves the corpus folder (to ${outside})` },
      { id: 'leaves.html', why: `a link that leaves the corpus folder (to ${join(outside, 'secret.html')})` },
      { id: 'pipe.html', why: 'not a regular file (a FIFO)' },
      { id: 'real/up', why: 'a link to a folder it is in (a cycle)' },
    ],
  );
});
