// An overflowed dump whose viewport's scrollbars took no room (docs/protocol.md, "A page with files
// of its own"): usable in the vote and against a candidate, while `overflowed` stays true; with
// room taken, or room unknown, discarded as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { CANDIDATE_SCROLLBARS, columnarFromDump, columnarFromRaw } from '../../src/comparator/columnar.js';
import { voteColumnar, voteGeometry } from '../../src/comparator/vote.js';
import { judgeCandidate } from '../../src/comparator/candidate.js';
import { dump, rawFromDump, response } from '../fixtures/dumps/load.js';

const overflowed = response('overflow');

test('the fixture overflows in every engine', () => {
  for (const e of ENGINE_NAMES) assert.equal(overflowed.dumps[e]!.overflowed, true);
});

test('a vote answer with 0×0 scrollbar room for every engine votes the overflowed dumps', () => {
  const none = { x: 0, y: 0 };
  const vote = voteGeometry({ ...overflowed, scrollbars: { chromium: none, firefox: none, webkit: none } });
  for (const e of ENGINE_NAMES) assert.equal(vote.engines[e].status, 'usable', e);
  assert.notEqual(vote.verdict, 'insufficient');
  assert.ok(Object.values(vote.pairs).every((p) => p.verdict !== 'discarded'));
});

test('room taken in one engine discards that engine alone; no room given discards them all, as before', () => {
  const vote = voteGeometry({ ...overflowed, scrollbars: { chromium: { x: 0, y: 0 }, firefox: { x: 12, y: 0 }, webkit: { x: 0, y: 0 } } });
  assert.equal(vote.engines.firefox.status, 'discarded');
  assert.equal(vote.engines.chromium.status, 'usable');
  assert.equal(vote.verdict, 'insufficient');
  const unknown = voteGeometry(overflowed);
  for (const e of ENGINE_NAMES) assert.equal(unknown.engines[e].status, 'discarded', e);
});

test("the walk's own reading decides for a raw walk: [0, 0] usable, anything else discarded", () => {
  const roomless = Object.fromEntries(ENGINE_NAMES.map((e) => [e, columnarFromRaw(rawFromDump(dump('overflow', e), [0, 0]), e)]));
  assert.ok(ENGINE_NAMES.every((e) => voteColumnar({ dumps: roomless }).engines[e].status === 'usable'));
  const thin = Object.fromEntries(ENGINE_NAMES.map((e) => [e, columnarFromRaw(rawFromDump(dump('overflow', e), [0, 0.5]), e)]));
  assert.ok(ENGINE_NAMES.every((e) => voteColumnar({ dumps: thin }).engines[e].status === 'discarded'));
});

test("a candidate's overflowed dump is judged against roomless engines, and discarded against engines whose room is unknown", () => {
  const candidate = columnarFromDump({ ...dump('overflow', 'chromium'), engine: 'candidate' }, CANDIDATE_SCROLLBARS);
  const roomless = {
    dumps: Object.fromEntries(ENGINE_NAMES.map((e) => [e, columnarFromRaw(rawFromDump(dump('overflow', e), [0, 0]), e)])),
  };
  const judged = judgeCandidate({ kind: 'dump', dump: candidate }, roomless);
  assert.notEqual(judged.verdict, 'discarded');
  assert.equal(judged.compares.chromium!.verdict, 'pass');
  const old = { dumps: Object.fromEntries(ENGINE_NAMES.map((e) => [e, columnarFromDump(dump('overflow', e))])) };
  const before = judgeCandidate({ kind: 'dump', dump: candidate }, old);
  assert.ok(before.verdict === 'discarded' || before.verdict === 'no_majority', before.verdict);
});
