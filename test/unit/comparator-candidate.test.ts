// A candidate dump against a response's engines. The candidates are recorded engine dumps
// renamed to a made-up engine, or derived from one in code (as each test says).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Dump } from '../../src/protocol/schema.js';
import { columnarFromDump } from '../../src/comparator/columnar.js';
import { compareCandidate, scopeOf, scoped } from '../../src/comparator/candidate.js';
import { compare } from '../../src/comparator/compare.js';
import { columnarResponse } from '../../src/comparator/vote.js';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { dump, response, translated, type FixtureName } from '../fixtures/dumps/load.js';

const candidate = (d: Dump) => columnarFromDump({ ...d, engine: 'my-engine' });
const judge = (d: Dump, name: FixtureName) => compareCandidate(candidate(d), columnarResponse(response(name)));

test('a candidate matching the majority passes, though it fails against the outlier', () => {
  const result = judge(dump('text-line', 'webkit'), 'text-line');
  assert.equal(result.verdict, 'pass');
  assert.equal(result.vote, 'outlier');
  assert.deepEqual(result.majority, ['chromium', 'webkit']);
  assert.equal(result.compares.chromium?.verdict, 'pass');
  assert.equal(result.compares.firefox?.verdict, 'fail');
  assert.deepEqual(result.compares.firefox?.failures[0], { index: 0, kind: 'size', dw: 0, dh: -1 }, 'deltas are candidate − engine');
});

test("a candidate with the outlier's geometry fails against the majority", () => {
  assert.equal(judge(dump('text-line', 'firefox'), 'text-line').verdict, 'fail');
});

test('without a majority there is nothing to match', () => {
  assert.equal(judge(dump('split', 'chromium'), 'split').verdict, 'no_majority');
  const errored = judge(dump('engine-error', 'chromium'), 'engine-error');
  assert.equal(errored.verdict, 'no_majority');
  assert.equal(errored.compares.firefox, undefined, 'an engine without a dump is not compared');
});

test('a candidate with another DOM diverges; an overflowed one is discarded (derived from recordings)', () => {
  assert.equal(judge(dump('shape-b', 'chromium'), 'shape-a').verdict, 'parse_divergence');
  const overflowed = { ...dump('agree', 'chromium'), overflowed: true };
  assert.equal(judge(overflowed, 'agree').verdict, 'discarded');
});

test('a candidate off by a rigid shift fails once per engine, at the root', () => {
  const result = judge(translated(dump('agree', 'chromium'), 0.5, 0), 'agree');
  assert.equal(result.verdict, 'fail');
  for (const e of result.majority) assert.deepEqual(result.compares[e]?.failures, [{ index: 0, kind: 'offset', dx: 0.5, dy: 0 }]);
});

test('geometry compared inside roots in place is what it is on copies with no box outside them', () => {
  // Every node as a root, and two at once, over recorded dumps whose engines differ, and one moved.
  const fixtures: FixtureName[] = ['agree', 'inline-wrap', 'rigid-base', 'text-line', 'fragment-count', 'split'];
  let compared = 0;
  for (const name of fixtures) {
    for (const [x, y] of ENGINE_NAMES.flatMap((a) => ENGINE_NAMES.map((b) => [a, b] as const))) {
      const a = columnarFromDump(dump(name, x));
      const b = candidate(translated(dump(name, y), 0, 0.5));
      for (let r = 0; r < b.count; r++) {
        for (const roots of [[r], [r, b.count - 1 - r]]) {
          const scope = scopeOf(b, roots);
          const inPlace = compare(a, b, { styles: false, scope });
          assert.deepEqual(inPlace, compare(scoped(a, scope), scoped(b, scope), { styles: false }), `${name} ${x} ${y} roots ${roots}`);
          compared++;
        }
      }
    }
  }
  assert.ok(compared > 100);
});
