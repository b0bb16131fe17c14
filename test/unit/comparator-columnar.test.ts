// The columnar form: the same from the wire dump, from the page walk's flat arrays and from those
// arrays packed to travel, and a self-contradicting tree is refused before the compare loop can
// index through it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dumpJson } from '../../src/protocol/dump.js';
import type { RawWalk } from '../../src/protocol/page-output.js';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { columnarFromDump, columnarFromPacked, columnarFromRaw, InvalidDumpError } from '../../src/comparator/columnar.js';
import { packResult, unpackResult } from '../../src/protocol/wire.js';
import { packColumns, type PackedColumns } from '../../src/protocol/walk-columns.js';
import { candidateRecord } from '../../src/campaign/loop/candidate-record.js';
import { voteColumnar } from '../../src/comparator/vote.js';
import { columnar, dump, rawFromDump, translated, type FixtureName } from '../fixtures/dumps/load.js';

const FIXTURES: FixtureName[] = ['agree', 'inline-wrap', 'rigid-base', 'overflow'];

test('a raw walk and its wire dump give the same columnar form', () => {
  for (const name of FIXTURES) {
    for (const engine of ENGINE_NAMES) {
      const recorded = dump(name, engine);
      const raw = rawFromDump(recorded);
      // The derived raw walk is faithful: the oracle's own serializer turns it back into the
      // recorded dump. (dumpJson reads none of the RawWalk fields the cast leaves out.)
      assert.deepEqual(JSON.parse(dumpJson(engine, recorded.engine_version, raw as RawWalk).text), recorded);
      const [x, y] = raw.scrollbars;
      assert.deepEqual(columnarFromRaw(raw, engine), columnarFromDump(recorded, { x, y }), `${name} ${engine}`);
      // A dump judged by geometry alone (a candidate's without a fresh layout) has the same geometry, and empty styles.
      const geometryOnly = columnarFromDump(recorded, { x, y }, { styles: false });
      assert.deepEqual({ ...geometryOnly, styles: [] }, { ...columnarFromDump(recorded, { x, y }), styles: [] }, `${name} ${engine}`);
      assert.ok(geometryOnly.styles.length > 0 && geometryOnly.styles.every((value) => value === ''));
    }
  }
});

test("a walk packed to cross from a worker (msgpack, as results travel) gives the same columnar geometry, and a candidate the same record, on the worker's vote too", () => {
  for (const name of FIXTURES) {
    const outcomes = ENGINE_NAMES.map((engine) => ({ engine, result: JSON.stringify(dump(name, engine)), error: null }));
    const columns = unpackResult<Record<string, PackedColumns>>(
      packResult(Object.fromEntries(ENGINE_NAMES.map((engine) => [engine, packColumns(rawFromDump(dump(name, engine)))]))),
    );
    // The geometry and the shape travel; the styles, which a candidate is not judged on, do not.
    const geometry = (d: ReturnType<typeof columnarFromDump>) => ({ ...d, styles: [] });
    for (const engine of ENGINE_NAMES) {
      const [x, y] = rawFromDump(dump(name, engine)).scrollbars;
      const unpacked = columnarFromPacked(columns[engine]!, engine);
      assert.deepEqual(geometry(unpacked), geometry(columnarFromDump(dump(name, engine), { x, y })), `${name} ${engine}`);
      assert.ok(unpacked.styles.every((value) => value === ''));
    }
    // The candidate is one engine's dump moved a pixel down, judged against the three with and without the columns.
    const moved = { ...translated(dump(name, 'webkit'), 0, 1), engine: 'mine' };
    for (const outcome of [
      { kind: 'dump' as const, dump: moved },
      { kind: 'dump' as const, dump: moved, roots: [1] },
    ]) {
      const who = { name: 'mine', version: '1' };
      const alone = candidateRecord(who, outcome, outcomes);
      assert.deepEqual(candidateRecord(who, outcome, outcomes, { columns }), alone, name);
      // And on the engines' vote as a worker takes it, over the same walks, instead of taking it again.
      const vote = voteColumnar({
        dumps: Object.fromEntries(ENGINE_NAMES.map((e) => [e, columnarFromPacked(columns[e]!, e)])),
      });
      assert.deepEqual(candidateRecord(who, outcome, outcomes, { columns, vote }), alone, name);
    }
  }
});

test("a dump's integer columns are views of one buffer, in each form: one allocation a dump, not five", () => {
  const recorded = dump('inline-wrap', 'chromium');
  const raw = rawFromDump(recorded);
  const packed = unpackResult<PackedColumns>(packResult(packColumns(raw)));
  for (const d of [columnarFromDump(recorded), columnarFromRaw(raw, 'chromium'), columnarFromPacked(packed, 'chromium')]) {
    const buffers = new Set([d.tags, d.parents, d.depths, d.anchors, d.fragmentStart].map((a) => a.buffer));
    assert.equal(buffers.size, 1);
    assert.deepEqual(
      [d.tags.length, d.parents.length, d.depths.length, d.anchors.length, d.fragmentStart.length],
      [d.count, d.count, d.count, d.count, d.count + 1],
    );
  }
});

test('each node measures from its nearest boxed ancestor, the root from the viewport', () => {
  // rigid-base: 0 HTML, 1 HEAD (no box), 2 STYLE (no box), 3 BODY, 4 DIV, 5 DIV#mover, 6 DIV,
  // 7 DIV display:none, 8 I inside it, 9 DIV display:contents, 10 U inside it, 11 DIV, 12 B, 13 DIV.
  for (const engine of ENGINE_NAMES) {
    assert.deepEqual([...columnar('rigid-base', engine).anchors], [-1, 0, 0, 0, 3, 4, 5, 5, 5, 5, 5, 5, 11, 4], engine);
  }
});

test('a tree that contradicts itself is refused, naming the node', () => {
  const cases: [string, (d: ReturnType<typeof dump>) => void, RegExp][] = [
    ['a parent after its child', (d) => (d.nodes[3]!.parent = 7), /node 3: parent 7 does not precede it/],
    ['a wrong depth', (d) => (d.nodes[4]!.depth = 9), /node 4: depth 9/],
    ['a wrong index', (d) => (d.nodes[2]!.index = 5), /node 2: has index 5/],
  ];
  for (const [what, spoil, message] of cases) {
    const d = dump('agree', 'chromium');
    spoil(d);
    assert.throws(
      () => columnarFromDump(d),
      (e: Error) => e instanceof InvalidDumpError && message.test(e.message),
      what,
    );
  }
  const raw = rawFromDump(dump('agree', 'chromium'));
  raw.rects.pop();
  assert.throws(() => columnarFromRaw(raw, 'chromium'), /raw walk: rects has 19 entries, expected 20/);
});
