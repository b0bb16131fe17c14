// `diff` without engines: the classification table, the pairing of repeated ids, the builds named
// where a vote flipped, the plain table's encoding of journal strings, and the command line on real
// journal files written here (and on files that are not journals: one line, exit 2, nothing printed).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { classify, diffRows, pairCases, type DiffRow, type DiffSide, type JournalSide } from '../../src/campaign/diff/diff.js';
import { diffJournals } from '../../src/campaign/diff/read.js';
import { renderDiff } from '../../src/campaign/diff/render.js';
import { Journal } from '../../src/campaign/journal/journal.js';
import { MIGRATIONS } from '../../src/campaign/journal/journal-schema.js';
import type { CandidateVerdict } from '../../src/comparator/candidate.js';
import { runCli } from '../support/campaign-process.js';
import { journalOf, type Recorded } from './support/journals.js';

const root = mkdtempSync(join(tmpdir(), 'diff-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

const side = (vote: DiffSide['vote'], candidate?: CandidateVerdict, more: Partial<DiffSide> = {}): DiffSide => ({
  hash: 'h',
  vote,
  outlier: vote === 'outlier' ? 'firefox' : null,
  signature: vote === 'unanimous' ? null : `${vote} | size | DIV | width`,
  candidate: candidate ? { verdict: candidate, signature: candidate === 'pass' ? null : `candidate c | ${candidate}` } : null,
  ...more,
});

test('classify: pass to fail or parse_divergence is newly failing, the reverse newly passing, any other difference changed', () => {
  const u = 'unanimous' as const;
  assert.equal(classify(side(u, 'pass'), side(u, 'fail')), 'newly_failing');
  assert.equal(classify(side(u, 'pass'), side(u, 'parse_divergence')), 'newly_failing');
  assert.equal(classify(side(u, 'fail'), side(u, 'pass')), 'newly_passing');
  assert.equal(classify(side(u, 'parse_divergence'), side(u, 'pass')), 'newly_passing');
  // The candidate decides first: a vote that changed too is still a new failure.
  assert.equal(classify(side(u, 'pass'), side('outlier', 'fail')), 'newly_failing');
  for (const [was, is] of [
    ['pass', 'error'],
    ['pass', 'unsupported'],
    ['unsupported', 'pass'],
    ['no_majority', 'pass'],
    ['fail', 'parse_divergence'],
    ['error', 'fail'],
  ] as [CandidateVerdict, CandidateVerdict][])
    assert.equal(classify(side(u, was), side(u, is)), 'changed', `${was} → ${is}`);
  assert.equal(classify(side(u, 'pass'), side(u)), 'changed', 'a candidate answer in one journal only');
  assert.equal(classify(side(u), side('outlier')), 'changed', 'the vote');
  assert.equal(classify(side('outlier'), side('outlier', undefined, { outlier: 'webkit' })), 'changed', 'the outlier');
  assert.equal(classify(side('split'), side('split', undefined, { signature: 'split | offset | P | -' })), 'changed', 'the signature');
  assert.equal(classify(side(u, 'fail'), side(u, 'fail', { candidate: { verdict: 'fail', signature: 'other' } })), 'changed');
  assert.equal(classify(side(null), side(null, undefined, { signature: 'invalid | invalid_json' })), 'changed', 'an invalid item');
  assert.equal(classify(null, side(u)), 'added');
  assert.equal(classify(side(u), null), 'removed');
  for (const s of [side(u), side(u, 'pass'), side('outlier', 'fail'), side(null), side('split', 'no_majority')])
    assert.equal(classify(s, { ...s }), null, 'alike');
});

const row = (id: string, hash: string, vote: DiffSide['vote'] = 'unanimous'): DiffRow => ({ ...side(vote, 'pass'), id, hash, builds: {} });

test('pairCases: by id; within an id, same content first, then in recording order; never two cases merged', () => {
  const base = [row('b', 'h1'), row('a', 'h1'), row('dup', 'x'), row('dup', 'y'), row('dup', 'z'), row('gone', 'h')];
  const head = [row('dup', 'y'), row('new', 'h'), row('dup', 'w'), row('a', 'h2'), row('dup', 'x'), row('b', 'h1')];
  const pairs = pairCases(base, head).map(([b, h]) => [b && `${b.id}@${b.hash}`, h && `${h.id}@${h.hash}`]);
  assert.deepEqual(pairs, [
    ['a@h1', 'a@h2'],
    ['b@h1', 'b@h1'],
    ['dup@x', 'dup@x'],
    ['dup@y', 'dup@y'],
    ['dup@z', 'dup@w'],
    ['gone@h', null],
    [null, 'new@h'],
  ]);
  // Three cases of one id against one: one pair, two removed; nothing is lost or counted twice.
  const lopsided = pairCases([row('d', '1'), row('d', '2'), row('d', '3')], [row('d', '3')]);
  assert.deepEqual(
    lopsided.map(([b, h]) => [b?.hash ?? null, h?.hash ?? null]),
    [
      ['3', '3'],
      ['1', null],
      ['2', null],
    ],
  );
});

const journalSide = (journal: string): JournalSide => ({ journal, engines: { chromium: ['1'] }, candidate: null, cases: 0 });

test('diffRows: counts every pair, lists the changed ones, and names the builds where the vote flipped between builds', () => {
  const flipped = { ...row('flip', 'h'), builds: { chromium: '140', firefox: '128', webkit: '2.48' } };
  const result = diffRows(
    journalSide('base'),
    [flipped, row('same', 'h'), { ...row('moved', 'h', 'outlier'), builds: { chromium: '140' } }],
    journalSide('head'),
    [
      { ...row('flip', 'h', 'outlier'), builds: { chromium: '141', firefox: '128', webkit: '2.50' } },
      row('same', 'h'),
      { ...row('moved', 'h', 'outlier'), signature: 'outlier | offset | DIV | -', builds: { chromium: '141' } },
    ],
  );
  assert.deepEqual(result.counts, { newly_failing: 0, newly_passing: 0, added: 0, removed: 0, changed: 2, unchanged: 1 });
  assert.deepEqual(
    result.cases.map((c) => [c.id, c.change, c.builds]),
    [
      ['flip', 'changed', { chromium: { base: '140', head: '141' }, webkit: { base: '2.48', head: '2.50' } }],
      // Only the signature changed, not the vote: no build is named.
      ['moved', 'changed', undefined],
    ],
  );
  assert.deepEqual(Object.keys(result.cases[0]!.base!), ['hash', 'vote', 'outlier', 'signature', 'candidate']);
});

test('the plain table: counts, one row per case, journal strings encoded so that none breaks a row or reaches the terminal raw', () => {
  const evil = 'x\n  newly_passing  forged\u001b[2J\u202e';
  const result = diffRows(
    { journal: 'base.sqlite', engines: { chromium: ['140'] }, candidate: { name: 'eng\nine', version: '1\u001b[31m' }, cases: 2 },
    [{ ...row(evil, 'h'), candidate: { verdict: 'pass', signature: null } }, row('same', 'h')],
    { journal: 'head.sqlite', engines: { chromium: ['140'] }, candidate: { name: 'engine', version: '2' }, cases: 2 },
    [
      { ...row(evil, 'h'), candidate: { verdict: 'fail', signature: 'candidate engine | fail | size | - | DIV\u0007 | width' } },
      row('same', 'h'),
    ],
  );
  const text = renderDiff(result);
  const lines = text.trimEnd().split('\n');
  assert.equal(lines.length, 6, text);
  assert.doesNotMatch(text.replaceAll('\n', ''), /[\p{Cc}\p{Cf}]/u, 'no control or bidi character but the newlines');
  assert.equal(lines[2], '1 case(s) changed: 1 newly failing, 0 newly passing, 0 added, 0 removed, 0 changed; 1 alike');
  assert.match(lines[0]!, /^base {2}base\.sqlite: 2 case\(s\); chromium 140; candidate eng\\nine \(1\\x1b\[31m\)$/);
  assert.match(
    lines[5]!,
    /^newly_failing {2}"x\\n {2}newly_passing {2}forged\\x1b\[2J\\u202e" {2}unanimous, pass {2}unanimous, fail \[candidate engine \| fail \| size \| - \| DIV\\x07 \| width\]$/,
  );
  assert.equal(
    renderDiff(diffRows(journalSide('a'), [row('x', 'h')], journalSide('b'), [row('x', 'h')])).split('\n')[2],
    'no changes: 1 case(s) alike',
  );
});

test('diff on journal files: each journal read with its latest candidate, exact changes listed, JSON and exit statuses', async () => {
  const cases: Recorded[] = [
    { id: 'a', candidate: 'pass' },
    { id: 'b', candidate: 'pass' },
    { id: 'c', candidate: 'fail' },
    { id: 'd', verdict: 'outlier', outlier: 'webkit', candidate: 'no_majority' },
    { id: 'dup', hash: 'one', candidate: 'pass' },
    { id: 'dup', hash: 'two', candidate: 'pass' },
    { id: 'gone' },
  ];
  const base = journalOf(join(root, 'base.sqlite'), cases, { name: 'mine', version: '1' }, { webkit: '2.48' });
  const head = journalOf(
    join(root, 'head.sqlite'),
    [
      { id: 'a', candidate: 'pass' },
      { id: 'b', candidate: 'parse_divergence' },
      { id: 'c', candidate: 'pass' },
      { id: 'd', verdict: 'unanimous', candidate: 'pass' },
      { id: 'dup', hash: 'two', candidate: 'fail' },
      { id: 'dup', hash: 'one', candidate: 'pass' },
      { id: 'new', candidate: 'pass' },
    ],
    { name: 'mine', version: '2' },
    { webkit: '2.50' },
  );
  const result = diffJournals(base, head);
  assert.deepEqual(
    result.cases.map((c) => [c.id, c.change, c.base?.hash ?? null, c.head?.hash ?? null]),
    [
      ['b', 'newly_failing', 'b', 'b'],
      ['c', 'newly_passing', 'c', 'c'],
      ['d', 'changed', 'd', 'd'],
      ['dup', 'newly_failing', 'two', 'two'],
      ['gone', 'removed', 'gone', null],
      ['new', 'added', null, 'new'],
    ],
  );
  assert.deepEqual(result.cases[2]!.builds, { webkit: { base: '2.48', head: '2.50' } });
  assert.deepEqual(result.base.candidate, { name: 'mine', version: '1' });
  assert.deepEqual(result.head.engines, { chromium: ['140'], firefox: ['128'], webkit: ['2.50'] });

  const json = await runCli(['diff', base, head, '--json']);
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout), JSON.parse(JSON.stringify(result)));
  assert.deepEqual(Object.keys(JSON.parse(json.stdout)), ['base', 'head', 'cases', 'counts']);

  const failing = await runCli(['diff', base, head, '--fail-on', 'new-failures']);
  assert.equal(failing.code, 1, failing.stderr);
  assert.match(failing.stderr, /^browser-oracle: info: diff: 2 newly failing case\(s\) \(--fail-on new-failures\)\n$/);
  assert.equal(failing.stdout, renderDiff(result));

  for (const flag of ['new-failures', 'changes']) {
    const self = await runCli(['diff', head, head, '--fail-on', flag]);
    assert.deepEqual([self.code, self.stderr], [0, '']);
    assert.match(self.stdout, /\nno changes: 7 case\(s\) alike\n$/);
  }
  const changes = await runCli(['diff', head, base, '--fail-on', 'changes']);
  assert.equal(changes.code, 1);
});

test('bad input: a missing file, not a journal, another schema, a truncated journal, a bad flag: one line, exit 2, nothing on stdout', async () => {
  const dir = mkdtempSync(join(root, 'bad-'));
  const good = journalOf(join(dir, 'good.sqlite'), [{ id: 'a', candidate: 'pass' }]);
  writeFileSync(join(dir, 'text.sqlite'), 'just some text that is not SQLite at all, long enough for a header\n'.repeat(20));
  const older = join(dir, 'older.sqlite');
  copyFileSync(good, older);
  const sql = new Database(older);
  sql.pragma(`user_version = ${MIGRATIONS.length - 1}`);
  sql.close();
  const newer = join(dir, 'newer.sqlite');
  copyFileSync(good, newer);
  const sql2 = new Database(newer);
  sql2.pragma('user_version = 99');
  sql2.close();
  const truncated = join(dir, 'truncated.sqlite');
  copyFileSync(good, truncated);
  truncateSync(truncated, Math.floor(statSync(good).size / 2));
  const cases: [string[], RegExp][] = [
    [['diff', join(dir, 'missing.sqlite'), good], /: .*missing\.sqlite: no such journal$/],
    [['diff', good, join(dir, 'text.sqlite')], /: .*text\.sqlite: not a browser-oracle journal \(not an SQLite database\)$/],
    [['diff', older, good], new RegExp(`: .*older\\.sqlite: journal schema ${MIGRATIONS.length - 1}, older than this browser-oracle's`)],
    [['diff', good, newer], /: .*newer\.sqlite: written by a newer browser-oracle \(journal schema 99;/],
    [['diff', good, truncated], /: .*truncated\.sqlite: truncated: \d+ bytes, where its header counts \d+ pages of \d+ bytes$/],
    [['diff', good, good, '--fail-on', 'everything'], /--fail-on/],
    [['diff', good], /missing required argument 'head'/],
  ];
  for (const [args, message] of cases) {
    const run = await runCli(args);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.equal(run.stdout, '', args.join(' '));
    assert.equal(run.stderr.split('\n').length, 2, run.stderr);
    assert.match(run.stderr.trimEnd(), /^browser-oracle: error: /);
    assert.match(run.stderr.trimEnd(), message);
  }
  // Read-only: the older journal is refused as it was, not migrated.
  const check = new Database(older, { readonly: true });
  assert.equal(check.pragma('user_version', { simple: true }), MIGRATIONS.length - 1);
  check.close();
  Journal.open(good, { readonly: true, label: 'x' }).close();
});
