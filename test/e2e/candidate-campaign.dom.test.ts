// `browser-oracle campaign --candidate` on the three real engines and the two real reference
// candidates, through the real command line, on the corpus in the upstream projects' style
// (test/fixtures/candidates): verdicts and buckets recorded and summarized, a resume that asks
// nothing twice (a run without the candidate, then runs with it), `unsupported` never a pass, a
// candidate process that exits on its fifth case losing nothing, base stylesheets with shorthands
// and logical properties expanded and mapped as the browsers do them, `reduce` keeping Yoga's failure
// while the browsers stay unanimous, and the report's fourth column, opened in a real Chromium.
// The reduce and report tests read the journal the Yoga test writes, so the file runs in order.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readJournal, runCli } from '../support/campaign-process.js';
import { launchOptions } from '../support/direct-engines.js';
import { launchPlaywrightChromium } from '../support/playwright-chromium.js';

const root = mkdtempSync(join(tmpdir(), 'candidate-campaign-e2e-'));
after(() => rmSync(root, { recursive: true, force: true }));
const CORPUS = fileURLToPath(new URL('../../../test/fixtures/candidates', import.meta.url));
const IDS = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.html'))
  .sort();
const FLAKY = fileURLToPath(new URL('../support/flaky-candidate.js', import.meta.url));
// One page per engine: each command here launches the three engines, and opens every page at launch;
// a second one (about 1-2 CPU-seconds a launch, measured) serves nothing these cases need.
const FARM = ['--workers=1', '--pages=1', '--timeout-ms=30000', '--fonts=square'];

interface CandidateRow {
  id: string;
  verdict: string;
  signature: string | null;
  unsupported: string | null;
  error: string | null;
  run: number;
}

const candidateRows = (db: string) =>
  readJournal(db, (sql) =>
    sql
      .prepare<[], CandidateRow>(
        `SELECT c.id, co.verdict, co.signature, co.unsupported, co.error, co.run FROM candidate_outcomes co
         JOIN cases c ON c.seq = co.case_seq ORDER BY c.id`,
      )
      .all(),
  );

/** One row per case, three engine outcomes each: the browsers' side whole. */
const enginesWhole = (db: string) =>
  readJournal(db, (sql) => ({
    ids: sql.prepare('SELECT id FROM cases ORDER BY id').pluck().all(),
    partial: sql.prepare('SELECT id FROM cases WHERE (SELECT COUNT(*) FROM outcomes WHERE case_seq = seq) <> 3').pluck().all(),
  }));

test('taffy: a run without it, then runs with it, record one candidate answer per case, judged, bucketed and summarized; unsupported is never a pass', async () => {
  const db = join(root, 'taffy.sqlite');
  const campaign = (...extra: string[]) => runCli(['campaign', '--db', db, '--corpus', CORPUS, ...FARM, ...extra]);
  const first = await campaign('--stop-after', '6');
  assert.equal(first.code, 0, first.stderr);
  const second = await campaign('--candidate', 'taffy', '--stop-after', '12');
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, /campaign: stopped after 12 case\(s\) \(--stop-after 12\), 6 recorded before given to the candidate;/);
  const third = await campaign('--candidate', 'taffy');
  assert.equal(third.code, 0, third.stderr);
  assert.match(third.stderr, new RegExp(`: ${IDS.length - 12} case\\(s\\) recorded in this run, 12 skipped as already recorded;`));
  // The candidate ends with its input, before the engines close: it is not one of the processes they left behind.
  for (const run of [second, third]) assert.doesNotMatch(run.stderr, /left behind by the engines/);

  assert.deepEqual(enginesWhole(db), { ids: IDS, partial: [] }, 'the engines ran each case once');
  const rows = candidateRows(db);
  assert.deepEqual(
    rows.map((r) => r.id),
    IDS,
    'one candidate answer per case',
  );
  assert.deepEqual([...new Set(rows.map((r) => r.run))].sort(), [2, 3], 'the candidate answered in the runs that had it');
  for (const r of rows) {
    if (r.unsupported !== null) assert.equal(r.verdict, 'unsupported', `${r.id}: an unsupported answer is never a pass`);
    if (r.verdict === 'unsupported') assert.match(r.signature!, /^candidate taffy \| unsupported \| [a-z-]+$/);
    if (r.verdict === 'pass') assert.equal(r.signature, null);
  }
  // The known limits that Taffy cannot express are refused, and named.
  const refused = rows.filter((r) => r.verdict === 'unsupported').map((r) => r.id);
  for (const id of ['limit-fit-content-track.html', 'limit-inline.html', 'limit-intrinsic-width.html', 'limit-order.html'])
    assert.ok(refused.includes(id), `${id} is unsupported (${refused.join(', ')})`);
  assert.ok(rows.filter((r) => r.verdict === 'pass').length > IDS.length / 2, 'a faithful adapter passes most of the corpus');
  // Base stylesheets that set shorthands (font, grid, flex-flow, place-*) and logical properties: expanded and mapped as the browsers do.
  const styled = rows.filter((r) => /^(shorthand|logical)-/.test(r.id));
  assert.equal(styled.length, 4);
  for (const r of styled) assert.equal(r.verdict, 'pass', `${r.id}: ${r.signature}`);

  const summary = await runCli(['summary', '--db', db, '--json']);
  assert.equal(summary.code, 0, summary.stderr);
  const { candidate } = JSON.parse(summary.stdout) as {
    candidate: {
      name: string;
      version: string;
      verdicts: Record<string, number>;
      self: { agrees: number; differs: number };
      buckets: { signature: string; count: number; example: string }[];
    };
  };
  assert.deepEqual([candidate.name, candidate.version], ['taffy', 'taffy-layout 3.0.0']);
  assert.deepEqual(Object.keys(candidate), ['name', 'version', 'verdicts', 'sides_with_outlier', 'subpixel', 'self', 'buckets']);
  assert.deepEqual(candidate.self, { agrees: 0, differs: 0 }, 'no case has mutations');
  assert.deepEqual(Object.keys(candidate.verdicts), [
    'pass',
    'fail',
    'parse_divergence',
    'discarded',
    'no_majority',
    'unsupported',
    'error',
  ]);
  assert.equal(
    Object.values(candidate.verdicts).reduce((a, b) => a + b, 0),
    IDS.length,
  );
  const findings = rows.filter((r) => r.signature !== null);
  assert.equal(
    candidate.buckets.reduce((n, b) => n + b.count, 0),
    findings.length,
    'every finding is in a bucket',
  );
  for (const b of candidate.buckets) assert.ok(findings.some((r) => r.id === b.example && r.signature === b.signature));

  const lines = await runCli(['summary', '--db', db, '--cases']);
  assert.equal(lines.code, 0, lines.stderr);
  const cases = lines.stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; vote: string; candidate: { verdict: string; unsupported?: string } });
  assert.deepEqual(cases.map((c) => c.id).sort(), IDS);
  for (const c of cases) {
    assert.deepEqual(Object.keys(c), ['id', 'vote', 'outlier', 'signature', 'candidate']);
    assert.equal(c.candidate.verdict, rows.find((r) => r.id === c.id)!.verdict);
    assert.equal(c.candidate.unsupported !== undefined, c.candidate.verdict === 'unsupported');
  }
  const text = await runCli(['summary', '--db', db]);
  assert.match(
    text.stdout,
    new RegExp(`candidate taffy \\(taffy-layout 3\\.0\\.0\\), ${IDS.length} layout cases: ${candidate.verdicts.pass} pass,`),
  );
  assert.match(text.stdout, /candidate taffy \| unsupported \| order +limit-order\.html/);
});

test('yoga: a flexbox-only engine is judged on the same corpus; what it cannot lay out is unsupported, never a pass', async () => {
  const db = join(root, 'yoga.sqlite');
  const run = await runCli(['campaign', '--db', db, '--corpus', CORPUS, ...FARM, '--candidate', 'yoga']);
  assert.equal(run.code, 0, run.stderr);
  const rows = candidateRows(db);
  assert.deepEqual(
    rows.map((r) => r.id),
    IDS,
  );
  for (const r of rows.filter((r) => /^grid-|^block-|limit-float|shorthand-grid/.test(r.id)))
    assert.deepEqual([r.verdict, r.signature], ['unsupported', 'candidate yoga | unsupported | display'], r.id);
  const styled = rows.filter((r) => /^shorthand-font|^logical-/.test(r.id));
  assert.equal(styled.length, 3);
  for (const r of styled) assert.equal(r.verdict, 'pass', `${r.id}: ${r.signature}`);
  for (const r of rows.filter((r) => r.verdict === 'fail'))
    assert.match(r.signature!, /^candidate yoga \| (fail|sides_with_outlier \w+) \| /);
});

test('a candidate process that exits on its fifth case: that case is its error, it is restarted, and nothing is lost or doubled', async () => {
  // The stand-in candidate's dump is one node, so every case it answers is a parse divergence; the point is the bookkeeping.
  const corpus = join(root, 'boxes.ndjson');
  const ids = Array.from({ length: 8 }, (_, i) => `box-${i}`);
  writeFileSync(
    corpus,
    ids.map((id, i) => JSON.stringify({ id, html: `<!doctype html><div style="width:${10 + i}px;height:7px"></div>` })).join('\n') + '\n',
  );
  const db = join(root, 'crash.sqlite');
  const run = await runCli([
    'campaign',
    '--db',
    db,
    '--corpus',
    corpus,
    ...FARM,
    '--concurrency=1',
    '--candidate',
    `node ${FLAKY} --crash-on 5`,
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(enginesWhole(db), { ids, partial: [] }, "the browsers' side is untouched");
  const rows = candidateRows(db);
  assert.deepEqual(
    rows.map((r) => r.id),
    ids,
    'every case has exactly one candidate answer',
  );
  const errors = rows.filter((r) => r.verdict === 'error');
  assert.deepEqual(
    errors.map((r) => [r.id, r.signature]),
    [['box-4', 'candidate flaky | error | candidate_crashed']],
  );
  assert.deepEqual(new Set(rows.filter((r) => r.verdict !== 'error').map((r) => r.verdict)), new Set(['parse_divergence']));
});

test("reduce: yoga's failure on a case the browsers agree on is shrunk while both hold, and a fresh campaign on the result shows them again", async () => {
  // The yoga test above recorded the journal; its failure where the browsers are unanimous is the finding.
  const db = join(root, 'yoga.sqlite');
  const finding = readJournal(db, (sql) =>
    sql
      .prepare<[], { id: string; signature: string; request: string }>(
        `SELECT c.id, co.signature, c.request FROM candidate_outcomes co JOIN cases c ON c.seq = co.case_seq
         WHERE co.verdict = 'fail' AND c.verdict = 'unanimous' ORDER BY c.id LIMIT 1`,
      )
      .get(),
  );
  assert.ok(finding, 'yoga fails a case the browsers agree on');
  const out = join(root, 'reduced.json');
  const run = await runCli(['reduce', '--db', db, '--case', finding.id, '-o', out, '--runs', '2', ...FARM]);
  assert.equal(run.code, 0, run.stderr);
  // The candidate is closed before the engines, as in a campaign: not one of the processes they left behind.
  assert.doesNotMatch(run.stderr, /left behind by the engines/);
  assert.match(
    run.stderr,
    new RegExp(`keeping the candidate's signature ${finding.signature.replace(/[|]/g, '\\|')}, with the engines' agreement`),
  );
  const reduced = JSON.parse(readFileSync(out, 'utf8')) as { html: string };
  assert.ok(reduced.html.length < (JSON.parse(finding.request) as { html: string }).html.length, 'smaller');
  const stored = readJournal(db, (sql) =>
    sql
      .prepare<[], { engines: string | null; candidate: string }>(
        `SELECT r.signature AS engines, rc.signature AS candidate FROM reductions r JOIN reduction_candidates rc USING (case_seq)`,
      )
      .get(),
  );
  assert.deepEqual(stored, { engines: null, candidate: finding.signature }, 'stored with both signatures');
  // A campaign of its own, on the reduced case alone.
  const corpus = join(root, 'reduced.ndjson');
  writeFileSync(corpus, `${readFileSync(out, 'utf8').trim()}\n`);
  const again = join(root, 'again.sqlite');
  const rerun = await runCli(['campaign', '--db', again, '--corpus', corpus, ...FARM, '--candidate', 'yoga', '--quiet']);
  assert.equal(rerun.code, 0, rerun.stderr);
  const [line] = (await runCli(['summary', '--db', again, '--cases'])).stdout.trimEnd().split('\n');
  const c = JSON.parse(line!) as { vote: string; candidate: { signature: string } };
  assert.deepEqual([c.vote, c.candidate.signature], ['unanimous', finding.signature]);
});

test("report: the candidate's buckets get a fourth column, its boxes in its own colour over a majority engine's screenshot, the failing node highlighted, its deltas to each engine listed; checked in a real browser", async () => {
  const db = join(root, 'yoga.sqlite');
  const file = join(root, 'report.html');
  const report = await runCli(['report', '--db', db, '-o', file, ...FARM]);
  assert.equal(report.code, 0, report.stderr);
  const findings = readJournal(db, (sql) =>
    sql.prepare<[], string>("SELECT DISTINCT signature FROM candidate_outcomes WHERE verdict = 'fail' ORDER BY signature").pluck().all(),
  );
  assert.ok(findings.length > 0);
  const browser = await launchPlaywrightChromium(launchOptions('http://127.0.0.1:9'));
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const sections = await page.$$eval('section.bucket', (list) =>
      list.map((s) => {
        const figure = s.querySelector('figure[data-engine="candidate"]');
        const box = figure?.querySelector('svg.overlay.candidate rect.box');
        const engineBox = s.querySelector('figure[data-engine="chromium"] svg.overlay rect.box');
        return {
          title: s.querySelector('h2 code')?.textContent ?? '',
          columns: s.querySelectorAll('.engines > figure').length,
          tops: [...s.querySelectorAll('.engines > figure')].map((f) => Math.round(f.getBoundingClientRect().top)),
          image: (figure?.querySelector('img.shot') as HTMLImageElement | null)?.naturalWidth ?? 0,
          boxes: figure?.querySelectorAll('svg.overlay.candidate rect.box').length ?? 0,
          hit: [...(figure?.querySelectorAll('svg.overlay.candidate .hit rect.box') ?? [])].map((r) => r.getBoundingClientRect().width),
          colour: box ? getComputedStyle(box).stroke : null,
          engineColour: engineBox ? getComputedStyle(engineBox).stroke : null,
          pairs: [...(figure?.querySelectorAll('table.candidate-deltas td:first-child') ?? [])].map((td) => td.textContent),
        };
      }),
    );
    assert.deepEqual(errors, []);
    for (const signature of findings) {
      const s = sections.find((x) => x.title === signature);
      assert.ok(s, `${signature} has its section`);
      assert.equal(s.columns, 4, `${signature}: three engines and the candidate`);
      assert.equal(new Set(s.tops).size, 1, `${signature}: the four side by side`);
      assert.equal(s.image, 800, `${signature}: a majority engine's screenshot under the candidate's boxes`);
      assert.ok(s.boxes > 0);
      assert.equal(s.hit.length, 1, `${signature}: the failing node highlighted`);
      assert.ok(s.hit[0]! > 0);
      assert.notEqual(s.colour, s.engineColour, 'the candidate in its own colour');
      for (const engine of ['chromium', 'firefox', 'webkit'])
        assert.ok(s.pairs.includes(`yoga − ${engine}`), `${signature}: deltas to ${engine}`);
    }
  } finally {
    await browser.close();
  }
});
