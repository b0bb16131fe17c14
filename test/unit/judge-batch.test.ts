// `vote` and `compare` on batches: NDJSON files and stdin `-`, one answer line per input line,
// an error line for a line that cannot be used, and the documented exit status. The real
// executable runs in a child process (these commands start no engine).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineName } from '../../src/protocol/schema.js';
import { dump, fixturePath, type FixtureName } from '../fixtures/dumps/load.js';
import { reflectFixturePath } from '../fixtures/reflect/load.js';
import { fixturePath as anyFixturePath } from '../fixtures/load.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function cli(args: string[], stdin = '') {
  const run = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', input: stdin });
  const lines = run.stdout ? run.stdout.trimEnd().split('\n') : [];
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, lines: lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const dir = mkdtempSync(join(tmpdir(), 'judge-batch-'));
after(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}
const recorded = (path: string) => readFileSync(path, 'utf8').trim();
const geometry = (name: FixtureName) => recorded(fixturePath(name));
const dumpLine = (name: FixtureName, engine: EngineName) => JSON.stringify(dump(name, engine));

test('vote on an NDJSON file: one line per response, in order, with its line number and id', () => {
  const batch = file('mixed.ndjson', [geometry('agree'), geometry('text-line'), recorded(reflectFixturePath('outlier'))].join('\n') + '\n');
  const run = cli(['vote', batch]);
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.stderr, '');
  assert.deepEqual(
    run.lines.map((l) => [l.line, l.id, l.verdict, l.outlier]),
    [
      [1, 'agree', 'unanimous', null],
      [2, 'text-line', 'outlier', 'firefox'],
      [3, 'outlier', 'outlier', 'chromium'],
    ],
  );
  assert.ok('observations' in run.lines[2]!, 'the reflect response is voted per observation');
});

test('vote - reads stdin; all unanimous exits 0; blank lines are skipped but counted', () => {
  const stdin = [geometry('agree'), '', recorded(anyFixturePath('traces', 'agree'))].join('\n') + '\n';
  const run = cli(['vote', '-'], stdin);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(
    run.lines.map((l) => [l.line, l.id, l.verdict]),
    [
      [1, 'agree', 'unanimous'],
      [3, 'agree', 'unanimous'],
    ],
  );
});

test('a line that cannot be used is answered by an error line, the batch goes on, and the exit status is 2', () => {
  const stdin = [geometry('agree'), '{"id": "cut', JSON.stringify({ id: 'no-dumps' }), geometry('text-line')].join('\n');
  const run = cli(['vote', '-'], stdin);
  assert.equal(run.code, 2);
  assert.equal(run.stderr, '');
  assert.equal(run.lines.length, 4);
  assert.equal(run.lines[0]!.verdict, 'unanimous');
  assert.deepEqual(Object.keys(run.lines[1]!), ['line', 'error']);
  assert.match(String(run.lines[1]!.error), /^not JSON \(/);
  assert.equal(run.lines[2]!.id, 'no-dumps');
  assert.match(String(run.lines[2]!.error), /^stdin is not an oracle geometry response: \/dumps: /);
  assert.equal(run.lines[3]!.outlier, 'firefox');
});

test('a vote response is answered with the vote it carries', () => {
  const carried = { id: 'v', vote: JSON.parse(cli(['vote', fixturePath('text-line')]).stdout) };
  const run = cli(['vote', file('vote-response.json', JSON.stringify(carried))]);
  assert.equal(run.code, 1);
  assert.deepEqual(run.lines[0], carried.vote);
});

test('a pretty-printed single document is still one input, answered by one object without a line number', () => {
  const pretty = file('pretty.json', JSON.stringify(JSON.parse(geometry('agree')), null, 2));
  const run = cli(['vote', pretty]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.lines.length, 1);
  assert.equal(run.lines[0]!.verdict, 'unanimous');
  assert.equal('line' in run.lines[0]!, false);
});

test('compare on two NDJSON files pairs them record by record; a record without a partner is an error line', () => {
  const a = file('a.ndjson', [dumpLine('agree', 'chromium'), dumpLine('text-line', 'chromium'), dumpLine('agree', 'firefox')].join('\n'));
  const b = file('b.ndjson', [dumpLine('agree', 'webkit'), dumpLine('text-line', 'firefox')].join('\n'));
  const run = cli(['compare', a, b]);
  assert.equal(run.code, 2);
  assert.deepEqual(
    run.lines.map((l) => [l.line, l.a, l.b, l.verdict]),
    [
      [1, 'chromium', 'webkit', 'pass'],
      [2, 'chromium', 'firefox', 'fail'],
      [3, undefined, undefined, undefined],
    ],
  );
  assert.equal(run.lines[2]!.error, `${b} has no record to pair with ${a} line 3`);
  const agreeing = cli(['compare', a, file('a-again.ndjson', readFileSync(a, 'utf8'))]);
  assert.equal(agreeing.code, 0, agreeing.stderr);
  assert.deepEqual(
    agreeing.lines.map((l) => l.verdict),
    ['pass', 'pass', 'pass'],
  );
});

test('compare --candidate with candidates (any engine name) in a file and responses on stdin', () => {
  const mine = (engine: EngineName) => JSON.stringify({ ...dump('text-line', engine), engine: 'mine' });
  const candidates = file('candidates.ndjson', [mine('webkit'), mine('firefox'), '{}'].join('\n'));
  const run = cli(['compare', '--candidate', candidates, '-'], `${geometry('text-line')}\n`.repeat(3));
  assert.equal(run.code, 2, run.stderr);
  assert.deepEqual(
    run.lines.map((l) => [l.line, l.candidate, l.verdict]),
    [
      [1, 'mine', 'pass'],
      [2, 'mine', 'fail'],
      [3, undefined, undefined],
    ],
  );
  assert.match(String(run.lines[2]!.error), /candidates\.ndjson is not a candidate dump: \/engine: /);
});

test('--pretty on a batch heads each summary with its line and id', () => {
  const run = spawnSync(process.execPath, [MAIN, 'vote', '--pretty', '-'], {
    encoding: 'utf8',
    input: `${geometry('text-line')}\n${geometry('agree')}\n`,
  });
  assert.equal(run.status, 1);
  assert.match(run.stdout, /^line 1 \(text-line\):\n {2}vote: outlier \(firefox\)\n/);
  assert.match(run.stdout, /\nline 2 \(agree\):\n {2}vote: unanimous\n/);
});

test('inputs that cannot be paired or read: exit 2, one line on stderr, nothing on stdout', () => {
  const single = file('single.json', dumpLine('agree', 'chromium'));
  const batch = file('two.ndjson', [dumpLine('agree', 'chromium'), dumpLine('agree', 'webkit')].join('\n'));
  const cases: [string, string[], RegExp][] = [
    ['one single document and one batch', ['compare', single, batch], /holds one document, but .*two\.ndjson is a batch/],
    ['stdin twice', ['compare', '-', '-'], /only one input can be stdin/],
    ['a missing file', ['vote', join(dir, 'missing.ndjson')], /cannot read .*missing\.ndjson: no such file or directory/],
  ];
  for (const [what, args, message] of cases) {
    const run = cli(args);
    assert.equal(run.code, 2, what);
    assert.equal(run.stdout, '', what);
    assert.match(run.stderr, message, what);
    assert.match(run.stderr, /^browser-oracle: error: [^\n]*\n$/, what);
  }
});
