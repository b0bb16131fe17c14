// A journal whose pages are damaged: every command that opens it says so in one line, exit 2,
// without SQLite's bare message standing alone and without the advice to run again to resume
// (running again cannot); damage where the tables begin is found when it is opened, before any
// engine starts, and damage deeper in when it is read.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../../src/campaign/journal/journal.js';
import { openCorpus } from '../../src/campaign/corpus/corpus.js';
import { invalidRecord } from '../../src/campaign/loop/case-record.js';
import { ORACLE_BIN, ORACLE_ENV } from '../support/oracle-process.js';

const root = mkdtempSync(join(tmpdir(), 'journal-damage-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A journal of `cases` invalid items (each a few hundred bytes), its pages from `from` to `to` (bytes) then overwritten. */
async function damaged(name: string, cases: number, at: (size: number) => [number, number]): Promise<string> {
  const db = join(root, `${name}.sqlite`);
  const corpus = join(root, `${name}.ndjson`);
  writeFileSync(corpus, Array.from({ length: cases }, (_, i) => `not json ${i} ${'x'.repeat(300)}`).join('\n'));
  const journal = Journal.open(db);
  journal.startRun({ command: ['browser-oracle'], engines: ['chromium'], versions: {}, fonts: 'liberation' });
  for await (const item of (await openCorpus(corpus)).items()) if (!item.ok) journal.record(invalidRecord(item, 0));
  journal.endRun();
  journal.close();
  const [from, to] = at(statSync(db).size);
  const fd = openSync(db, 'r+');
  writeSync(fd, Buffer.alloc(to - from, 0xff), 0, to - from, from);
  closeSync(fd);
  return db;
}

const cli = (...args: string[]) => spawnSync(ORACLE_BIN, args, { encoding: 'utf8', env: ORACLE_ENV, timeout: 120_000 });

function assertSaidDamaged(run: ReturnType<typeof cli>, command: string): void {
  assert.equal(run.status, 2, run.stderr);
  const lines = run.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, run.stderr);
  assert.match(
    lines[0]!,
    new RegExp(
      `^browser-oracle: error: ${command}: (--db \\S+: )?the journal is damaged \\(SQLite: .+\\), so it can be neither resumed nor read;`,
    ),
  );
  assert.doesNotMatch(lines[0]!, /run the same command again/);
}

test('a journal damaged where its tables begin is refused as it is opened, by every command, before any engine starts', async () => {
  // Pages 2 and 3: the tables' first pages.
  const db = await damaged('roots', 3, () => [4096, 3 * 4096]);
  const corpus = join(root, 'one.ndjson');
  writeFileSync(corpus, '{"id":"a","html":"<p>x</p>"}\n');
  assertSaidDamaged(cli('summary', '--db', db), 'summary');
  assertSaidDamaged(cli('campaign', '--db', db, '--corpus', corpus), 'campaign');
  assertSaidDamaged(cli('report', '--db', db, '-o', join(root, 'r.html')), 'report');
  assertSaidDamaged(cli('reduce', '--db', db, '--case', 'a'), 'reduce');
});

test('a journal damaged deeper in is said to be damaged when it is read', async () => {
  // Many pages of cases; the middle ones overwritten.
  const db = await damaged('deep', 400, (size) => [Math.floor(size / 2 / 4096) * 4096, Math.floor(size / 2 / 4096) * 4096 + 8192]);
  assertSaidDamaged(cli('summary', '--db', db), 'summary');
});
