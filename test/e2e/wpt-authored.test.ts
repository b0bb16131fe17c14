// Check-layout pages through a campaign on the three real engines and both reference candidates:
// a fixture tree in WPT's style (test/fixtures/wpt-authored, written for this test) with one call,
// two calls, elements built in script, prose in a system font above the elements under test, and
// a page laid out by the support style sheets it links (relative, absolute, and through an
// @import); each page sent as a vote with `authored.scope` (its checkLayout selectors, as
// wpt-import --layout sends it), and with the tree's style sheets as its `site` when it links any. Checked: every engine's assertions recorded, the wrong expectation all three browsers
// miss alike is a bucket of its own, summary --json's wpt and --cases' authored, and each candidate
// judged on what the browsers agree on — the prose page passes on its elements under test alone.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJournal, runCli } from '../support/campaign-process.js';

const root = mkdtempSync(join(tmpdir(), 'wpt-authored-e2e-'));
after(() => rmSync(root, { recursive: true, force: true }));
const TREE = fileURLToPath(new URL('../../../test/fixtures/wpt-authored', import.meta.url));
const DIR = 'css/css-flexbox';
const FARM = ['--workers=1', '--pages=1', '--timeout-ms=60000'];

/** The corpus: each page as a vote, its scope the literal selectors of its checkLayout calls. */
const corpus = join(root, 'layout.ndjson');
const pages = readdirSync(join(TREE, DIR))
  .filter((f) => f.endsWith('.html'))
  .sort();
/** The tree's style sheets, by path from its root: a page that links one is served them all. */
const sheets = Object.fromEntries(
  readdirSync(TREE, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.css'))
    .map((f) => [f.split(sep).join('/'), readFileSync(join(TREE, f), 'utf8')]),
);
writeFileSync(
  corpus,
  pages
    .map((f) => {
      const html = readFileSync(join(TREE, DIR, f), 'utf8');
      const scope = [...html.matchAll(/checkLayout\('([^']+)'/g)].map((m) => m[1]!);
      const site = html.includes('rel="stylesheet"') ? { site: { path: `${DIR}/${f}`, files: sheets } } : {};
      return JSON.stringify({ id: `${DIR}/${f}`, op: 'vote', html, ...site, authored: { scope } });
    })
    .join('\n') + '\n',
);

interface AuthoredRow {
  id: string;
  subject: string;
  pass: number;
  fail: number;
  failures: string;
  judged: string | null;
}
const authoredRows = (db: string) =>
  readJournal(db, (sql) =>
    sql
      .prepare<[], AuthoredRow>(
        'SELECT c.id, a.subject, a.pass, a.fail, a.failures, a.judged FROM authored a JOIN cases c ON c.seq = a.case_seq ORDER BY c.id, a.subject',
      )
      .all(),
  );
const verdicts = (db: string) =>
  readJournal(db, (sql) =>
    Object.fromEntries(
      sql
        .prepare<[], { id: string; verdict: string }>(
          'SELECT c.id, co.verdict FROM candidate_outcomes co JOIN cases c ON c.seq = co.case_seq',
        )
        .all()
        .map((r) => [r.id, r.verdict]),
    ),
  );

for (const candidate of ['taffy', 'yoga']) {
  test(`check-layout pages with ${candidate}: every engine's assertions, the browsers' own finding, the candidate on what they agree on`, async () => {
    const db = join(root, `${candidate}.sqlite`);
    const run = await runCli(['campaign', '--db', db, '--corpus', corpus, '--candidate', candidate, ...FARM]);
    assert.equal(run.code, 0, run.stderr);
    const rows = authoredRows(db);
    const of = (page: string, subject: string) => rows.find((r) => r.id === `${DIR}/${page}` && r.subject === subject);

    for (const engine of ['chromium', 'firefox', 'webkit']) {
      assert.deepEqual(
        [of('single.html', engine)?.pass, of('single.html', engine)?.fail],
        [7, 0],
        `${engine}: one call, its parent's and subtree's attributes`,
      );
      assert.deepEqual(
        [of('script-dom.html', engine)?.pass, of('script-dom.html', engine)?.fail],
        [5, 0],
        `${engine}: read after the page's script built the elements`,
      );
      assert.deepEqual(
        [of('prose.html', engine)?.pass, of('prose.html', engine)?.fail],
        [8, 0],
        `${engine}: the prose does not touch the elements under test`,
      );
      assert.deepEqual(
        [of('linked.html', engine)?.pass, of('linked.html', engine)?.fail],
        [10, 0],
        `${engine}: laid out by the sheets it links from its site`,
      );
      const multi = of('multi.html', engine)!;
      assert.deepEqual([multi.pass, multi.fail], [1, 1], `${engine}: both calls' scopes`);
      assert.deepEqual(JSON.parse(multi.failures), [{ index: 11, tag: 'DIV', attr: 'data-expected-height', expected: '101', actual: 100 }]);
    }

    const cases = (await runCli(['summary', '--db', db, '--cases'])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; signature: string | null; authored?: Record<string, { pass: number; fail: number }> });
    assert.equal(
      cases.find((c) => c.id === `${DIR}/multi.html`)?.signature,
      'wpt authored | browsers agree against | data-expected-height | DIV',
      'all three agree with each other and not with the test',
    );
    for (const c of cases) assert.ok(c.authored?.chromium && c.authored.firefox && c.authored.webkit, `${c.id}: --cases carries authored`);

    const summary = JSON.parse((await runCli(['summary', '--db', db, '--json'])).stdout) as {
      wpt: Record<string, Record<string, unknown>>;
    };
    const dir = summary.wpt[DIR]!;
    assert.equal(dir.files, pages.length);
    assert.deepEqual(dir.chromium, { files_all_hold: 4, assertions: { pass: 31, fail: 1 } });

    const judged = verdicts(db);
    const prose = of('prose.html', 'candidate')!;
    assert.equal(judged[`${DIR}/prose.html`], 'pass', 'laid out alone, the elements under test pass');
    assert.deepEqual([prose.pass, prose.fail], [8, 0], 'every assertion judged: the moved container keeps its agreed size');
    assert.equal(JSON.parse(prose.judged!).assertions, 8);
    assert.equal(judged[`${DIR}/single.html`], 'pass');
    const linked = of('linked.html', 'candidate')!;
    assert.equal(judged[`${DIR}/linked.html`], 'pass', 'the candidate reads the sheets the browsers are served');
    assert.deepEqual([linked.pass, linked.fail], [10, 0]);
    assert.notEqual(
      judged[`${DIR}/script-dom.html`],
      'pass',
      'a candidate runs no script: the DOM it lays out is not the page the browsers built',
    );
  });
}
