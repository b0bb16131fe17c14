// A candidate judged on a case with mutations (src/comparator/candidate.ts, `fresh`): its fresh
// dump against the majority, and its incremental dump against its fresh one with no browser —
// agreeing, differing in a box, in a computed style only, or in its tree — each with its bucket
// signature; and the answers the oracle refuses around it (src/candidate-client/process-source.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Dump } from '../../src/protocol/schema.js';
import { columnarFromDump } from '../../src/comparator/columnar.js';
import { judgeCandidate } from '../../src/comparator/candidate.js';
import { candidateSelfSignature } from '../../src/comparator/candidate-signature.js';
import { columnarResponse } from '../../src/comparator/vote.js';
import { answerOutcome, CandidateProcess } from '../../src/candidate-client/process-source.js';
import { fileURLToPath } from 'node:url';
import { candidateRecord } from '../../src/campaign/loop/candidate-record.js';
import { dump, response } from '../fixtures/dumps/load.js';

const majority = dump('text-line', 'webkit');
const outlier = dump('text-line', 'firefox');
const responseOf = () => columnarResponse(response('text-line'));

/** The judgement of an incremental dump `d` beside its fresh dump `f`. */
function judged(d: Dump, f: Dump) {
  const result = judgeCandidate({ kind: 'dump', dump: columnarFromDump(d), fresh: columnarFromDump(f) }, responseOf());
  return { result, signature: candidateSelfSignature('mine', result.fresh!, columnarFromDump(d)) };
}

/** `d` with node `index`'s boxes `dw` px wider. */
function widened(d: Dump, index: number, dw: number): Dump {
  const nodes = d.nodes.map((n) =>
    n.index === index ? { ...n, bounding: { ...n.bounding, w: n.bounding.w + dw }, rects: n.rects.map((r) => ({ ...r, w: r.w + dw })) } : n,
  );
  return { ...d, nodes };
}

test('the same layout twice agrees with itself, and each is judged against the majority', () => {
  const { result, signature } = judged(majority, majority);
  assert.equal(result.verdict, 'pass');
  assert.deepEqual([result.fresh?.verdict, result.fresh?.self], ['pass', 'agrees']);
  assert.equal(signature, null);
});

test('a kept box that differs from the fresh one is a self-disagreement, bucketed by its node and property, whatever the vote says', () => {
  const stale = widened(majority, 0, 7);
  const { result, signature } = judged(stale, majority);
  assert.equal(result.verdict, 'fail', 'the incremental dump against the majority');
  assert.deepEqual([result.fresh?.verdict, result.fresh?.self], ['pass', 'differs']);
  assert.equal(signature, `candidate mine | self | ${majority.nodes[0]!.tag} | width`);
  // Both wrong the same way: the vote fails both, and the candidate agrees with itself.
  const both = judged(outlier, outlier);
  assert.deepEqual([both.result.verdict, both.result.fresh?.verdict, both.result.fresh?.self], ['fail', 'fail', 'agrees']);
});

test('a difference under the comparator tolerance is no self-disagreement; one just over it is', () => {
  assert.equal(judged(widened(majority, 0, 1 / 100), majority).result.fresh?.self, 'agrees');
  assert.equal(judged(widened(majority, 0, 1 / 50), majority).result.fresh?.self, 'differs');
});

test('a computed style kept stale with the same boxes differs, bucketed by the style', () => {
  const styled: Dump = {
    ...majority,
    nodes: majority.nodes.map((n, i) => (i === 0 ? { ...n, style: { ...n.style, display: 'flow-root' } } : n)),
  };
  const { result, signature } = judged(styled, majority);
  assert.equal(result.fresh?.self, 'differs');
  assert.equal(signature, `candidate mine | self | ${majority.nodes[0]!.tag} | style display`);
});

test('another tree is a self-disagreement of its shape', () => {
  const shorter: Dump = { ...majority, nodes: majority.nodes.slice(0, -1) };
  const { result, signature } = judged(shorter, majority);
  assert.equal(result.fresh?.self, 'differs');
  assert.match(signature!, /^candidate mine \| self \| shape \| /);
});

test("a case's record carries its fresh judgement; a case without mutations has none", () => {
  const who = { name: 'mine', version: '1' };
  const outcomes = (['chromium', 'firefox', 'webkit'] as const).map((engine) => ({
    engine,
    result: JSON.stringify(dump('text-line', engine)),
    error: null,
  }));
  const stale = widened(majority, 0, 7);
  const record = candidateRecord(
    who,
    { kind: 'dump', dump: { ...stale, engine: 'mine' }, fresh: { ...majority, engine: 'mine' } },
    outcomes,
  );
  assert.deepEqual(
    { ...record.fresh, dump: undefined },
    { verdict: 'pass', self: 'differs', signature: `candidate mine | self | ${majority.nodes[0]!.tag} | width`, dump: undefined },
  );
  assert.equal(candidateRecord(who, { kind: 'dump', dump: { ...majority, engine: 'mine' } }, outcomes).fresh, undefined);
});

test('an answer to a case with mutations must bring fresh, and only such a case may', () => {
  const d = { ...majority, engine: 'mine' };
  assert.deepEqual(answerOutcome({ id: '1', dump: d }, 'mine', undefined, true), {
    kind: 'error',
    message: 'candidate_protocol: a case with mutations answered without `fresh`',
  });
  assert.deepEqual(answerOutcome({ id: '1', dump: d, fresh: d }, 'mine', undefined, false), {
    kind: 'error',
    message: 'candidate_protocol: `fresh` answers a case without mutations',
  });
  assert.match(
    (answerOutcome({ id: '1', dump: d, fresh: { ...d, engine: 'other' } }, 'mine', undefined, true) as { message: string }).message,
    /^candidate_protocol: its dump names engine "other"/,
  );
  assert.equal(answerOutcome({ id: '1', dump: d, fresh: d }, 'mine', undefined, true).kind, 'dump');
});

test('a candidate that does not declare supports.mutations is not sent a case with them: it is unsupported, never a pass', async () => {
  const flaky = fileURLToPath(new URL('../support/flaky-candidate.js', import.meta.url));
  const candidate = await CandidateProcess.start({ command: `${JSON.stringify(process.execPath)} ${JSON.stringify(flaky)}` });
  try {
    const mutations = [{ op: 'remove', node: 3 } as const];
    assert.deepEqual(await candidate.run({ id: 'm', html: '5', mutations }), {
      kind: 'unsupported',
      what: 'mutations (the candidate does not declare supports.mutations)',
    });
    assert.equal((await candidate.run({ id: 'p', html: '5' })).kind, 'dump', 'the same candidate answers a case without them');
  } finally {
    await candidate.close();
  }
});
