// The candidate judge and its bucket signatures, on recorded engine dumps: a candidate is a
// recorded dump renamed to a made-up engine, or one derived from it in code (as each test says).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Dump } from '../../src/protocol/schema.js';
import { columnarFromDump } from '../../src/comparator/columnar.js';
import { compareCandidate, judgeCandidate, type CandidateResult } from '../../src/comparator/candidate.js';
import { candidateSignature } from '../../src/comparator/candidate-signature.js';
import { columnarResponse } from '../../src/comparator/vote.js';
import { dump, response, translated, type FixtureName } from '../fixtures/dumps/load.js';

const candidate = (d: Dump) => columnarFromDump({ ...d, engine: 'mine' });
const judge = (d: Dump, name: FixtureName, roots?: number[]) => compareCandidate(candidate(d), columnarResponse(response(name)), roots);
const signature = (result: CandidateResult, d: Dump | null) => candidateSignature('mine', result, d && candidate(d));

/** `d` with node `index`'s box (and fragments) moved by (dx, dy) and grown by (dw, dh). */
function changed(d: Dump, index: number, { dx = 0, dy = 0, dw = 0, dh = 0 }): Dump {
  const move = (r: Dump['nodes'][number]['bounding']) => ({ x: r.x + dx, y: r.y + dy, w: r.w + dw, h: r.h + dh });
  return { ...d, nodes: d.nodes.map((n) => (n.index === index ? { ...n, bounding: move(n.bounding), rects: n.rects.map(move) } : n)) };
}

test('a candidate matching the majority passes, though it fails against the outlier', () => {
  const result = judge(dump('text-line', 'webkit'), 'text-line');
  assert.equal(result.verdict, 'pass');
  assert.equal(result.outlier, 'firefox');
  assert.deepEqual(result.majority, ['chromium', 'webkit']);
  assert.equal(result.compares.firefox?.verdict, 'fail', 'judged against each engine too');
  assert.equal(result.sides_with_outlier, false);
  assert.equal(signature(result, dump('text-line', 'webkit')), null);
});

test('a candidate with the outlier geometry sides with the outlier, a class of its own', () => {
  const mine = dump('text-line', 'firefox');
  const result = judge(mine, 'text-line');
  assert.equal(result.verdict, 'fail');
  assert.equal(result.sides_with_outlier, true);
  assert.equal(result.compares.firefox?.verdict, 'pass');
  assert.equal(signature(result, mine), 'candidate mine | sides_with_outlier firefox | size | - | P | height');
});

test('a failure is subpixel when every delta is under 1/32 px, and only then; the verdict stays fail', () => {
  const slightly = judge(translated(dump('agree', 'chromium'), 0.02, 0), 'agree');
  assert.equal(slightly.verdict, 'fail', '0.02 px is past the 1/60 px tolerance');
  assert.equal(slightly.subpixel, true);
  assert.equal(signature(slightly, dump('agree', 'chromium')), 'candidate mine | fail | offset | subpixel | HTML | x');
  const more = judge(translated(dump('agree', 'chromium'), 0.04, 0), 'agree');
  assert.equal(more.verdict, 'fail');
  assert.equal(more.subpixel, false);
  const grown = changed(dump('agree', 'chromium'), 5, { dw: 3 });
  assert.equal(signature(judge(grown, 'agree'), grown), 'candidate mine | fail | size | - | DIV | width');
});

test('with roots, geometry is judged only in their subtrees, each root against the viewport', () => {
  // The body is the candidate's own guess (wrong here); the case's root div (4) and its children are right.
  const guessedBody = changed(dump('agree', 'chromium'), 3, { dy: 5, dh: -40 });
  assert.equal(judge(guessedBody, 'agree').verdict, 'fail');
  assert.equal(judge(guessedBody, 'agree', [4]).verdict, 'pass');
  // Against the viewport, not the body: the root moved with the body is a failure at the root.
  const movedRoot = translated(dump('agree', 'chromium'), 0, 3);
  const scoped = judge(movedRoot, 'agree', [4]);
  assert.equal(scoped.verdict, 'fail');
  assert.deepEqual(
    scoped.compares.chromium?.failures.map((f) => f.index),
    [4],
    'only the root: its children are measured from it',
  );
  // The shape stays whole-document: a different head is a divergence even outside the roots.
  const otherHead = {
    ...dump('agree', 'chromium'),
    nodes: dump('agree', 'chromium').nodes.map((n) => (n.index === 2 ? { ...n, tag: 'TITLE' } : n)),
  };
  assert.equal(judge(otherHead, 'agree', [4]).verdict, 'parse_divergence');
  assert.equal(signature(judge(otherHead, 'agree', [4]), otherHead), 'candidate mine | parse_divergence | shape | - | STYLE/TITLE | -');
});

test('a root that is not a node of the dump is an error, never a pass', () => {
  const result = judge(dump('agree', 'chromium'), 'agree', [99]);
  assert.equal(result.verdict, 'error');
  assert.match(result.error ?? '', /roots: node 99/);
});

test('unsupported, error and no majority are never a pass, and only the first two are findings', () => {
  const engines = columnarResponse(response('agree'));
  const unsupported = judgeCandidate({ kind: 'unsupported', what: 'grid-template-columns: fit-content(50px)' }, engines);
  assert.equal(unsupported.verdict, 'unsupported');
  assert.equal(unsupported.vote, 'unanimous', "the browsers' side of the case is voted all the same");
  assert.equal(signature(unsupported, null), 'candidate mine | unsupported | grid-template-columns');
  const error = judgeCandidate({ kind: 'error', message: 'candidate_timeout: no answer within 100 ms' }, engines);
  assert.equal(error.verdict, 'error');
  assert.equal(signature(error, null), 'candidate mine | error | candidate_timeout');
  const split = judge(dump('split', 'chromium'), 'split');
  assert.equal(split.verdict, 'no_majority');
  assert.equal(signature(split, dump('split', 'chromium')), null);
  const errored = judge(dump('engine-error', 'chromium'), 'engine-error');
  assert.equal(errored.verdict, 'no_majority', 'too few engines');
  for (const r of [unsupported, error, split, errored]) assert.notEqual(r.verdict, 'pass');
});

test('an overflowed candidate is discarded, bucketed as such', () => {
  const overflowed = { ...dump('agree', 'chromium'), overflowed: true };
  const result = judge(overflowed, 'agree');
  assert.equal(result.verdict, 'discarded');
  assert.equal(signature(result, overflowed), 'candidate mine | discarded');
});
