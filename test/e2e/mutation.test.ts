// Mutation ground truth on the three real engines: a case's dump is what its page reads after its
// script (load, fonts, a fresh layout, the script, the walk: docs/protocol.md, "What is measured
// when"), and the relayout check holds each engine to its own layout from scratch.
//
// The mutation cases are the generator's `gen-23-9` and `gen-23-10` (`campaign --generate 20
// --seed 23 --script`): WebKitGTK lays them out from scratch otherwise than its page had them
// after the script. The oracle used to walk a fresh layout after the script, and so answered, for
// gen-23-9's #e0, 63 px where the page itself, and Chromium and Firefox, read 137 px.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateCase } from '../../src/campaign/generator/generator.js';
import { relayoutBucket, signatureOf } from '../../src/comparator/signature.js';
import type { RelayoutResult } from '../../src/protocol/relayout-schema.js';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { layoutCorpus } from '../support/layout-corpus.js';
import { OracleProcess, type Line } from '../support/oracle-process.js';

let oracle: OracleProcess;
let seq = 0;
const ask = (request: Line) => oracle.request({ id: `mutation-${seq++}`, ...request });

before(async () => {
  oracle = new OracleProcess(['--workers=1']);
  await oracle.ready();
});
after(() => oracle.shutdown());

const gen = (index: number) => generateCase(23, index, { script: true }) as { id: string; html: string; script: string };

/** After the case's own script: `selector`'s box and its place among the elements, as the page reads them, on <head> (which has no box). */
const readBack = (selector: string) => `
;{
  const all = document.getElementsByTagName('*');
  const element = document.querySelector(${JSON.stringify(selector)});
  const r = element.getBoundingClientRect();
  document.head.id = 'read';
  document.head.setAttribute('data-box', JSON.stringify([Array.prototype.indexOf.call(all, element), r.x, r.y, r.width, r.height]));
}`;

describe('the dump is what the page reads after its script', () => {
  for (const engine of ENGINE_NAMES) {
    test(`${engine}: a script forces a layout, mutates and reads a box; the dump's bounding is the box it read`, async () => {
      const { html, script } = gen(9);
      assert.match(script, /^document\.body\.offsetWidth;/, 'the generated script forces a layout before it mutates');
      const scripted = script + readBack('#e0');
      // A reflect case runs the same steps on the same document (its html after a doctype, which the parser ignores here).
      const [dumped, read] = await Promise.all([
        ask({ html, script: scripted, engines: [engine] }),
        ask({ op: 'reflect', html, script: scripted, probes: [{ selector: '#read', attr: 'data-box' }], engines: [engine] }),
      ]);
      assert.equal(dumped.errors, undefined, JSON.stringify(dumped.errors));
      assert.equal(read.errors, undefined, JSON.stringify(read.errors));
      const [index, x, y, w, h] = JSON.parse(read.states[engine].observations[0].attr_value) as number[];
      const node = dumped.dumps[engine].nodes[index!];
      assert.equal(node.tag, 'DIV');
      assert.deepEqual(node.bounding, { x, y, w, h });
      assert.equal(w, 137, 'as Chromium and Firefox lay it out, and as WebKit’s page reads it');
    });
  }
});

test('a script case gives the same dump across runs, workers and page reuse', async () => {
  const cases = [gen(9), gen(10)];
  // Twice each, pipelined, on one worker: its pages serve case after case.
  const once = () => Promise.all(cases.map(({ html, script }) => ask({ html, script })));
  const [first, second] = [await once(), await once()];
  const two = new OracleProcess(['--workers=2', '--pages=2']);
  try {
    await two.ready();
    const other = await Promise.all(cases.map(({ id, html, script }) => two.request({ id: `two-${id}`, html, script })));
    for (const [i, answer] of first.entries()) {
      assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
      assert.deepEqual(Object.keys(answer.dumps), [...ENGINE_NAMES]);
      assert.deepEqual(second[i]!.dumps, answer.dumps, `${cases[i]!.id}: run again`);
      assert.deepEqual(other[i]!.dumps, answer.dumps, `${cases[i]!.id}: two workers`);
    }
  } finally {
    await two.shutdown();
  }
});

describe('the relayout check', () => {
  test('gen-23-9 and gen-23-10: WebKit disagrees with its own layout from scratch, Chromium and Firefox do not', async () => {
    const signatures: Record<string, Partial<Record<string, string | null>>> = {};
    for (const index of [9, 10]) {
      const { id, html, script } = gen(index);
      const answer = await ask({ html, script, relayout: true });
      assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
      assert.deepEqual(Object.keys(answer.relayout), [...ENGINE_NAMES]);
      signatures[id] = Object.fromEntries(
        ENGINE_NAMES.map((engine) => {
          const bucket = relayoutBucket(engine, answer.relayout[engine] as RelayoutResult);
          return [engine, bucket && signatureOf(bucket)];
        }),
      );
    }
    assert.deepEqual(signatures['gen-23-9'], { chromium: null, firefox: null, webkit: 'self webkit | relayout | DIV | width' });
    assert.deepEqual(signatures['gen-23-10'], { chromium: null, firefox: null, webkit: 'self webkit | relayout | DIV | -' });
  });

  test('gen-23-9 in WebKit: both walks of #e0 side by side, the first the dump', async () => {
    const { html, script } = gen(9);
    const answer = await ask({ html, script, relayout: true, engines: ['webkit'] });
    const check = answer.relayout.webkit as RelayoutResult;
    assert.equal(check.verdict, 'fail');
    const e0 = check.nodes.find((n) => n.walked.bounding.w === 137)!;
    assert.equal(e0.fresh.bounding.w, 63);
    assert.deepEqual(e0.styles, [{ property: 'width', walked: '137px', fresh: '63px' }]);
    assert.deepEqual(answer.dumps.webkit.nodes[e0.index].bounding, e0.walked.bounding);
  });

  test('the check changes no dump: script-free (the fast path) and scripted, geometry and vote, with and without it', async () => {
    const cases: { html: string; script?: string }[] = [...layoutCorpus(1).map((c) => ({ html: c.html })), gen(9)];
    for (const { html, script } of cases) {
      const c = script === undefined ? { html } : { html, script };
      const [plain, checked, voted] = await Promise.all([
        ask(c),
        ask({ ...c, relayout: true }),
        ask({ ...c, op: 'vote', dumps: true, relayout: true }),
      ]);
      assert.equal(plain.relayout, undefined);
      assert.deepEqual(checked.dumps, plain.dumps);
      assert.deepEqual(voted.dumps, plain.dumps);
      assert.deepEqual(voted.relayout, checked.relayout);
      assert.deepEqual(Object.keys(checked.relayout), [...ENGINE_NAMES]);
      if (script === undefined) {
        for (const engine of ENGINE_NAMES)
          assert.equal(checked.relayout[engine].verdict, 'pass', `${engine}: a script-free case laid out once`);
      }
    }
  });
});
