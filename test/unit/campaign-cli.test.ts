// The campaign commands' parts that start no engine, through the real command line: --emit is
// deterministic byte for byte, and bad usage or input is one line on stderr with exit status 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkRequest } from '../../src/protocol/validate.js';
import { runCli } from '../support/campaign-process.js';

test('--generate N --seed S --emit prints the same bytes every time: N request lines, and another seed gives other cases', async () => {
  const emit = (seed: string) => runCli(['campaign', '--generate', '25', '--seed', seed, '--text', '--script', '--emit']);
  const [a, b, other] = await Promise.all([emit('7'), emit('7'), emit('8')]);
  for (const run of [a, b, other]) assert.deepEqual([run.code, run.stderr], [0, '']);
  assert.equal(a.stdout, b.stdout);
  assert.notEqual(a.stdout, other.stdout);
  const lines = a.stdout.split('\n');
  assert.equal(lines.pop(), '', 'every line ends in a newline');
  assert.equal(lines.length, 25);
  for (const [n, line] of lines.entries()) {
    const parsed = checkRequest(JSON.parse(line));
    assert.ok(parsed.ok, line);
    assert.equal(parsed.request.id, `gen-7-${n}`);
    assert.ok('script' in parsed.request);
  }
});

test("bad usage and bad input: one line on stderr in the oracle's form, exit status 2, nothing started", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'campaign-cli-test-'));
  try {
    writeFileSync(join(dir, 'text.sqlite'), 'not a database, just text long enough to be read as a header\n'.repeat(10));
    writeFileSync(join(dir, 'bad-expect.json'), JSON.stringify({ known: [{ id: 'x', engine: 'netscape' }] }));
    const db = join(dir, 'run.sqlite');
    const cases: [string[], RegExp][] = [
      [['campaign', '--db', db], /^browser-oracle: error: campaign: give either --corpus PATH or --generate N --seed S$/],
      [
        ['campaign', '--db', db, '--corpus', '-', '--generate', '3', '--seed', '1'],
        /^browser-oracle: error: campaign: give either --corpus PATH or --generate N --seed S$/,
      ],
      [['campaign', '--corpus', '-'], /^browser-oracle: error: campaign: give --db FILE, the journal$/],
      [['campaign', '--generate', '3', '--emit'], /^browser-oracle: error: campaign: --generate needs --seed S/],
      [
        ['campaign', '--emit', '--corpus', '-'],
        /^browser-oracle: error: campaign: --emit prints generated cases: give --generate N --seed S$/,
      ],
      [['campaign', '--db', db, '--corpus', '-', '--text'], /^browser-oracle: error: campaign: --text goes with --generate$/],
      [
        ['campaign', '--db', db, '--corpus', join(dir, 'missing.ndjson')],
        /^browser-oracle: error: campaign: --corpus .*missing\.ndjson: no such file or folder$/,
      ],
      [
        ['campaign', '--db', db, '--corpus', '-', '--expect', join(dir, 'bad-expect.json')],
        /^browser-oracle: error: campaign: --expect .*: field "known\[0\]\.engine"/,
      ],
      [
        ['campaign', '--db', join(dir, 'text.sqlite'), '--corpus', '-'],
        /^browser-oracle: error: campaign: --db .*text\.sqlite: not a browser-oracle journal/,
      ],
      [
        ['campaign', '--db', db, '--corpus', '-', '--workers', '0'],
        /^browser-oracle: error: option '--workers <n>' argument '0' is invalid\. --workers must be a whole number ≥ 1$/,
      ],
      [
        ['campaign', '--db', db, '--corpus', '-', '--fonts', 'comic'],
        /^browser-oracle: error: option '--fonts <set>' argument 'comic' is invalid\./,
      ],
      [['campaign', '--db', db, '--corpus', '-', '--bogus'], /^browser-oracle: error: unknown option '--bogus'$/],
      [
        ['summary', '--db', join(dir, 'text.sqlite')],
        /^browser-oracle: error: summary: --db .*text\.sqlite: not a browser-oracle journal \(not an SQLite database\)$/,
      ],
      [['summary', '--db', db], /^browser-oracle: error: summary: --db .*run\.sqlite: no such journal$/],
    ];
    const runs = await Promise.all(cases.map(([args]) => runCli(args, '')));
    for (const [i, run] of runs.entries()) {
      const [args, message] = cases[i]!;
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stdout, '', args.join(' '));
      assert.equal(run.stderr.split('\n').length, 2, `${args.join(' ')}: one line\n${run.stderr}`);
      assert.match(run.stderr.trimEnd(), message, args.join(' '));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
