// wpt-import's requests on the three real engines, with the real testharness.js (wpt-runner
// 7.0.0's): one record per subtest and the harness status, voted by label; a subtest that
// depends on the engine is the outlier, named in the bucket signature; a test that never
// finishes ends with the harness's own timeout statuses before the trace's own timeout; a test
// that replaces built-ins cannot forge its records; a campaign over the imported tree records the
// same verdict per file twice.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { defaultTreeAdapter, parse, serialize } from 'parse5';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import type { TraceRequest } from '../../src/protocol/trace-schema.js';
import { caseSignature, votedCase, wireRequest } from '../../src/campaign/loop/case-record.js';
import type { Answered } from '../../src/coordinator/oracle-service.js';
import type { SentOp } from '../../src/protocol/ops.js';
import { HARNESS_LABEL, NO_HARNESS } from '../../src/wpt/report-script.js';
import { readJournal, runCli } from '../support/campaign-process.js';
import { ONE_PAGE, OracleProcess, type Line } from '../support/oracle-process.js';
import { fixtureCheckout } from '../support/wpt-checkout.js';

const tree = fixtureCheckout();
const work = mkdtempSync(join(tmpdir(), 'browser-oracle-wpt-e2e-'));
const corpus = join(work, 'dom.ndjson');
let requests: Map<string, TraceRequest>;

before(async () => {
  const imported = await runCli(['wpt-import', tree.dir, 'dom']);
  assert.equal(imported.code, 0, imported.stderr);
  writeFileSync(corpus, imported.stdout);
  requests = new Map(
    imported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TraceRequest)
      .map((r) => [r.id, r]),
  );
});

after(() => {
  tree.remove();
  rmSync(work, { recursive: true, force: true });
});

/** An answer line as a campaign's oracle hands it over (the builds are not read here). */
const answered = (response: Line): Answered<SentOp> => ({ answer: response as Answered<SentOp>['answer'], versions: {} });

/** Each engine's records as [label, status] pairs, after checking every engine answered with a trace that ended by done(). */
function statuses(response: Line): Record<string, [string, string][]> {
  assert.equal(response.errors, undefined, JSON.stringify(response.errors));
  return Object.fromEntries(
    ENGINE_NAMES.map((engine) => {
      const trace = response.traces[engine] as Line;
      assert.equal(trace.timed_out, false, `${engine}: the harness ended the trace`);
      return [engine, trace.records.map((r: Line) => [r.label, r.value])];
    }),
  );
}

/** The same records in every engine, and a unanimous vote on them (by label, as `request` asks). */
function unanimous(response: Line, expected: [string, string][], request = requests.get(response.id)!): void {
  const all = statuses(response);
  for (const engine of ENGINE_NAMES) assert.deepEqual(all[engine], expected, engine);
  assert.equal(votedCase(request, answered(response)).vote.verdict, 'unanimous');
}

describe('imported tests on the engines', () => {
  let oracle: OracleProcess;

  before(async () => {
    oracle = new OracleProcess(ONE_PAGE);
    await oracle.ready();
  });

  after(() => oracle.shutdown());

  // As a campaign sends it: voted where the engines ran, as the request says.
  const run = (id: string) => oracle.request(wireRequest(requests.get(id)!).request);

  test('three subtests, one failing on purpose everywhere: unanimous, a record per subtest in name order, then the harness', async () => {
    unanimous(await run('dom/three-subtests.html'), [
      ['append to body', 'PASS'],
      ['createElement upper-cases', 'PASS'],
      ['fails everywhere', 'FAIL'],
      [HARNESS_LABEL, 'OK'],
    ]);
  });

  test("a subtest that depends on the engine makes that engine the outlier, the subtest's name in the bucket signature", async () => {
    const response = await run('dom/engine-branch.html');
    const all = statuses(response);
    assert.deepEqual(all.firefox, [
      ['not firefox', 'FAIL'],
      ['passes', 'PASS'],
      [HARNESS_LABEL, 'OK'],
    ]);
    for (const engine of ['chromium', 'webkit'] as const) assert.deepEqual(all[engine]![0], ['not firefox', 'PASS'], engine);
    assert.equal(caseSignature(requests.get('dom/engine-branch.html')!, answered(response)), 'trace outlier firefox | value | not firefox');
  });

  test("a test that never finishes ends with the harness's own timeout statuses, before the trace's own timeout", async () => {
    unanimous(await run('dom/never-completes.html'), [
      ['completes', 'PASS'],
      ['never completes', 'NOTRUN'],
      [HARNESS_LABEL, 'TIMEOUT'],
    ]);
  });

  test('a test that replaces Promise.prototype.then and Array.prototype.sort, and calls trace, cannot forge its records', async () => {
    unanimous(await run('dom/forge.html'), [
      ['a: fails', 'FAIL'],
      ['b: the recorder is out of reach', 'PASS'],
      [HARNESS_LABEL, 'OK'],
    ]);
  });

  test("a page that lost testharness.js (a reduction's candidate) ends at once, not at the trace's timeout", async () => {
    const request = requests.get('dom/three-subtests.html')!;
    const doc = parse(request.html!);
    const head = doc.childNodes.find((n) => n.nodeName === 'html')!;
    const scripts = defaultTreeAdapter.getChildNodes(defaultTreeAdapter.getChildNodes(head as never)[0] as never);
    // The prelude, testharness.js and the report script, in that order: the second goes.
    defaultTreeAdapter.detachNode(scripts.filter((n) => n.nodeName === 'script')[1]!);
    unanimous(
      await oracle.request(wireRequest({ ...request, id: 'no-harness', html: serialize(doc) }).request),
      [[HARNESS_LABEL, NO_HARNESS]],
      request,
    );
  });

  test('shared and own helper scripts, files beside the test, a main script kept in the page, a long test: all as in WPT', async () => {
    unanimous(await run('dom/helpers.any.js'), [
      ['helpers are loaded', 'PASS'],
      ['window scope', 'PASS'],
      [HARNESS_LABEL, 'OK'],
    ]);
    unanimous(await run('dom/beside.html'), [
      ['a file fetched by a string of the script', 'PASS'],
      ['an iframe of the test folder', 'PASS'],
      [HARNESS_LABEL, 'OK'],
    ]);
    unanimous(await run('dom/stays.html'), [
      ['load fires after the script', 'PASS'],
      [HARNESS_LABEL, 'OK'],
    ]);
    unanimous(await run('dom/slow.window.js'), [
      ['a window test allowed to run long', 'PASS'],
      [HARNESS_LABEL, 'OK'],
    ]);
  });
});

test('a campaign over the imported tree records the same verdict per file, twice', async () => {
  const verdicts = async (db: string) => {
    const campaign = await runCli(['campaign', '--db', db, '--corpus', corpus, ...ONE_PAGE]);
    assert.equal(campaign.code, 0, campaign.stderr);
    return readJournal(db, (sql) =>
      Object.fromEntries(
        sql
          .prepare<[], { id: string; verdict: string; signature: string | null }>('SELECT id, verdict, signature FROM cases ORDER BY id')
          .all()
          .map((c) => [c.id, [c.verdict, c.signature]]),
      ),
    );
  };
  const first = await verdicts(join(work, 'first.sqlite'));
  assert.deepEqual(Object.keys(first), [...requests.keys()].sort());
  for (const [id, [verdict, signature]] of Object.entries(first)) {
    if (id === 'dom/engine-branch.html') assert.deepEqual([verdict, signature], ['outlier', 'trace outlier firefox | value | not firefox']);
    else assert.deepEqual([verdict, signature], ['unanimous', null], id);
  }
  assert.deepEqual(await verdicts(join(work, 'second.sqlite')), first);
});
