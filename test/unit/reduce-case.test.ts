// reduceCase on a fake oracle: every trial is asked as a vote without dumps under an id of its
// own, at most `parallel` at once; the result keeps the signature, is smaller, and is run once more
// with its dumps so its vote and outcomes can be stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { caseSignature } from '../../src/campaign/loop/case-record.js';
import { reduceCase } from '../../src/campaign/loop/reduce-case.js';
import type { Answered } from '../../src/coordinator/oracle-service.js';
import type { CaseService } from '../../src/coordinator/stdio.js';
import { NotReproducibleError } from '../../src/reduce/index.js';
import { voteGeometry } from '../../src/comparator/vote.js';
import { encodeJson } from '../../src/protocol/wire.js';
import type { Answer, CaseOp, Request, RequestOf } from '../../src/protocol/ops.js';
import { response } from '../fixtures/dumps/load.js';

const RECORDED = response('text-line');
const VOTES = { outlier: encodeJson(voteGeometry(RECORDED)), unanimous: encodeJson(voteGeometry(response('agree'))) };

/** Firefox is the outlier while the page holds a <b> element; its dumps come back when asked for. */
class FakeOracle implements Pick<CaseService, 'run'> {
  readonly ran: { op: CaseOp; request: Request }[] = [];
  inFlight = 0;
  maxInFlight = 0;

  async run<K extends CaseOp>(op: K, request: RequestOf<K>): Promise<Answered<K>> {
    this.ran.push({ op, request });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    this.inFlight--;
    const html = 'html' in request ? (request.html ?? '') : '';
    const answer = { id: request.id, vote: /<b[ >]/.test(html) ? VOTES.outlier : VOTES.unanimous };
    const dumps = 'dumps' in request && request.dumps ? { dumps: { chromium: encodeJson(RECORDED.dumps.chromium!) } } : {};
    return { answer: { ...answer, ...dumps } as Answer<K>, versions: { chromium: RECORDED.dumps.chromium!.engine_version } };
  }
}

const REQUEST = {
  id: 'case-7',
  html: '<!doctype html><div id=a style="width:10px"><span>one two</span><p class=x>three <b>four</b> five</p></div><section><em>six</em></section>',
};
const SIGNATURE = caseSignature(REQUEST, { answer: { id: 'x', vote: VOTES.outlier }, versions: {} })!;

test('the reduced case keeps the signature, is smaller, and is stored with its vote and outcomes', async () => {
  const oracle = new FakeOracle();
  const progress: string[] = [];
  const r = await reduceCase({ oracle, request: REQUEST, signature: SIGNATURE, parallel: 3, onProgress: (p) => progress.push(p.pass) });
  assert.equal(r.signature, SIGNATURE);
  assert.ok(r.after.nodes < r.before.nodes && r.after.bytes < r.before.bytes, JSON.stringify([r.before, r.after]));
  assert.match(String('html' in r.reduced && r.reduced.html), /<b>/);
  assert.equal(r.reduced.id, 'case-7');
  assert.deepEqual(JSON.parse(r.request), r.reduced);
  assert.equal(r.stopped, null);
  assert.equal(r.oneMinimal, true);
  assert.deepEqual(
    r.outcomes.map((o) => o.engine),
    ['chromium'],
  );
  assert.equal(JSON.parse(r.vote!).verdict, 'outlier');
  const trials = oracle.ran.slice(0, -1);
  assert.equal(trials.length, r.tests);
  assert.ok(trials.every(({ op, request }) => op === 'vote' && !('dumps' in request)));
  assert.equal(new Set(trials.map(({ request }) => request.id)).size, trials.length, 'an id per trial');
  assert.deepEqual(oracle.ran.at(-1)!.request, { ...r.reduced, op: 'vote', dumps: true, timing: true }, 'the result, with its dumps');
  assert.ok(oracle.maxInFlight > 1 && oracle.maxInFlight <= 3, `${oracle.maxInFlight} at once`);
  assert.equal(progress.at(-1), 'done');
});

test('a case that no longer shows the signature is not reproducible', async () => {
  await assert.rejects(
    reduceCase({ oracle: new FakeOracle(), request: { id: 'c', html: '<p>no bold here</p>' }, signature: SIGNATURE, parallel: 2 }),
    NotReproducibleError,
  );
});
