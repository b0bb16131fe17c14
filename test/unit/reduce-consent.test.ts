// Opening a journal never runs its code: `reduce --db` of a candidate's finding starts the
// candidate the journal's run recorded only when the user says so (--run-recorded-candidate, or
// --candidate naming one), and otherwise refuses in one line that shows the recorded command,
// before any engine or candidate starts. A reference candidate's name runs this package's own
// program, as recorded. The runs that do start engines are in test/e2e/hostile-candidate.test.ts.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCorpus } from '../../src/campaign/corpus/corpus.js';
import { Journal } from '../../src/campaign/journal/journal.js';
import { votedRecord } from '../../src/campaign/loop/case-record.js';
import { candidateCommand } from '../../src/tools/recorded-candidate.js';
import { visible } from '../../src/system/visible-text.js';
import { answered } from '../support/answers.js';
import { ORACLE_BIN, ORACLE_ENV } from '../support/oracle-process.js';
import { response } from '../fixtures/dumps/load.js';

const root = mkdtempSync(join(tmpdir(), 'reduce-consent-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A journal whose one case (`c`, unanimous) holds a finding of a candidate recorded as started by `command`. */
async function journalWith(command: string): Promise<string> {
  const db = join(root, `${Math.random().toString(36).slice(2)}.sqlite`);
  const corpus = join(root, 'corpus.ndjson');
  writeFileSync(corpus, '{"id":"c","html":"<div></div>"}\n');
  const journal = Journal.open(db);
  try {
    journal.startRun({
      command: ['browser-oracle', 'campaign'],
      engines: ['chromium', 'firefox', 'webkit'],
      versions: {},
      fonts: 'liberation',
      candidate: { command, name: 'evil', version: '1' },
    });
    for await (const item of (await openCorpus(corpus)).items()) {
      assert.ok(item.ok);
      const record = votedRecord(item, answered(response('agree')), { startedAt: 0, elapsedMs: 1, attempts: 1 });
      journal.record({
        ...record,
        candidate: {
          name: 'evil',
          version: '1',
          verdict: 'unsupported',
          signature: 'candidate evil | unsupported | float',
          sidesWithOutlier: false,
          subpixel: false,
          unsupported: 'float: left',
          error: null,
          dump: null,
          roots: null,
          against: {},
          ms: 1,
        },
      });
    }
    journal.endRun();
  } finally {
    journal.close();
  }
  return db;
}

/** A command that, if it were ever run, would leave a file behind (and `; touch` another, were it given to a shell). */
function trap(): { command: string; ran: () => boolean } {
  const marker = join(root, `ran-${Math.random().toString(36).slice(2)}`);
  const script = join(root, 'trap.cjs');
  writeFileSync(script, `require('node:fs').writeFileSync(process.argv[2], 'ran');`);
  return {
    command: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)} ${JSON.stringify(marker)} \u001b[2J; touch ${marker}-shell`,
    ran: () => existsSync(marker) || existsSync(`${marker}-shell`),
  };
}

const reduce = (...args: string[]) => spawnSync(ORACLE_BIN, ['reduce', ...args], { encoding: 'utf8', env: ORACLE_ENV, timeout: 120_000 });

test('reduce --db refuses to run the candidate command a journal recorded, shows it, and runs nothing', async () => {
  const { command, ran } = trap();
  const db = await journalWith(command);
  const refused = reduce('--db', db, '--case', 'c');
  assert.equal(refused.status, 2, refused.stderr);
  const lines = refused.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, refused.stderr);
  assert.match(lines[0]!, /^browser-oracle: error: reduce: --case c holds a candidate's finding, and the journal recorded the command /);
  assert.ok(lines[0]!.includes('trap.cjs') && lines[0]!.includes('[2J; touch'), 'the recorded command is shown');
  assert.equal(visible(lines[0]!), lines[0], 'and visible');
  assert.match(lines[0]!, /--run-recorded-candidate runs it, --candidate COMMAND names the one to run instead/);
  assert.equal(ran(), false, 'the recorded command did not run');
  // --browsers-only reduces the engines' disagreement alone: here they agree, so there is nothing to reduce, and nothing runs.
  const browsers = reduce('--db', db, '--case', 'c', '--browsers-only');
  assert.equal(browsers.status, 2);
  assert.match(browsers.stderr, /its engines agreed \(unanimous\)/);
  assert.equal(ran(), false);
});

test('the consent flags go with a recorded finding only', async () => {
  const db = await journalWith('taffy');
  const withBrowsersOnly = reduce('--db', db, '--case', 'c', '--browsers-only', '--candidate', 'yoga');
  assert.equal(withBrowsersOnly.status, 2);
  assert.match(withBrowsersOnly.stderr, /--candidate: --case c holds no candidate's finding to reduce \(--browsers-only\)/);
  const request = join(root, 'request.json');
  writeFileSync(request, '{"id":"r","html":"<div></div>"}');
  const onFile = reduce(request, '--run-recorded-candidate');
  assert.equal(onFile.status, 2);
  assert.match(onFile.stderr, /--run-recorded-candidate goes with --db/);
});

test('which command starts the candidate: the one named, the recorded one when asked, a reference name as recorded; else a refusal', () => {
  const recorded = 'my-engine --flags';
  assert.deepEqual(candidateCommand(recorded, {}, 'case x'), {
    refusal:
      'case x holds a candidate\'s finding, and the journal recorded the command "my-engine --flags" for that candidate; a command read ' +
      'from a journal is not run unless you say so: --run-recorded-candidate runs it, --candidate COMMAND names the one to run ' +
      "instead, --browsers-only reduces the engines' disagreement alone",
  });
  const command = (consent: Parameters<typeof candidateCommand>[1], from = recorded) => {
    const chosen = candidateCommand(from, consent, 'x');
    return 'command' in chosen ? chosen.command : undefined;
  };
  assert.equal(command({ runRecorded: true }), recorded);
  assert.equal(command({ given: 'other --x' }), 'other --x');
  assert.equal(command({ given: 'other', runRecorded: true }), 'other');
  assert.equal(command({}, 'taffy'), 'taffy');
  assert.ok('refusal' in candidateCommand('taffy --evil', {}, 'x'));
  assert.ok('refusal' in candidateCommand(' taffy', {}, 'x'));
});
