// The layout route on the three real engines: wpt-import --layout's requests over the fixture tree
// (test/fixtures/wpt-layout) run as votes. Each page's files come with it on a host of its own
// (Ahem through /fonts/ahem.css, an image from a support folder, CSS by @import), the walk waits
// for the harness or for reftest-wait, scrollbars take no room in any engine, so a page taller
// than the viewport is voted rather than discarded while `overflowed` says it scrolls; the dumps
// are byte-identical from one run to the next. (A file answering 404 once its case is released is
// test/unit/case-site.test.ts's, on the case server itself.)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { Checkout } from '../../src/wpt/checkout.js';
import { importTests } from '../../src/wpt/import.js';
import type { LayoutCase } from '../../src/wpt/layout.js';
import { ONE_PAGE, OracleProcess, UNHURRIED, type Line } from '../support/oracle-process.js';
import { layoutCheckout } from '../support/wpt-checkout.js';

const tree = layoutCheckout();
let oracle: OracleProcess;
const requests = new Map<string, LayoutCase['request']>();

before(async () => {
  for (const i of importTests(Checkout.open(tree.dir), ['css/css-demo'], { layout: true }))
    if ('layout' in i) requests.set(i.path.replace('css/css-demo/', ''), i.layout.request);
  oracle = new OracleProcess([...ONE_PAGE, UNHURRIED]);
  await oracle.ready();
});

after(async () => {
  await oracle.shutdown();
  tree.remove();
});

const vote = (name: string): Promise<Line> => oracle.request({ ...requests.get(name)!, dumps: true });

/** Each engine's dump of `name`, after checking every engine answered. */
async function dumps(name: string): Promise<{ answer: Line; dumps: Record<string, Line> }> {
  const answer = await vote(name);
  assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
  return { answer, dumps: answer.dumps };
}

const nodes = (dump: Line, tag: string) => (dump.nodes as Line[]).filter((n) => n.tag === tag);

test('a tall check-layout page: Ahem, the support image and @imported CSS load; no scrollbar room, so it is voted though it overflowed', async () => {
  const { answer, dumps: d } = await dumps('single.html');
  for (const engine of ENGINE_NAMES) {
    const dump = d[engine]!;
    assert.equal(dump.overflowed, true, `${engine}: the page scrolls`);
    assert.deepEqual(answer.scrollbars[engine], { x: 0, y: 0 }, engine);
    assert.equal(answer.vote.engines[engine].status, 'usable', engine);
    assert.equal(nodes(dump, 'HTML')[0].bounding.w, 800, `${engine}: the root has the whole viewport's width`);
    const [span] = nodes(dump, 'SPAN');
    assert.deepEqual([span.bounding.w, span.bounding.h], [80, 20], `${engine}: four Ahem squares of 20 px`);
    const [img] = nodes(dump, 'IMG');
    assert.deepEqual([img.bounding.w, img.bounding.h], [60, 60], `${engine}: the support image loaded`);
    const box = nodes(dump, 'DIV').find((n) => n.bounding.w === 50);
    assert.ok(box && box.bounding.h === 40, `${engine}: boxes.css, @imported by demo.css, applied`);
  }
});

test('the walk waits for the harness: a page that builds its elements at load is walked with them', async () => {
  const { dumps: d } = await dumps('scripted.html');
  for (const engine of ENGINE_NAMES) {
    const built = nodes(d[engine]!, 'DIV').map((n) => n.bounding.w);
    assert.deepEqual(built, [30, 40], engine);
  }
});

test('several checkLayout calls: the page is walked as its last call left it', async () => {
  const { dumps: d } = await dumps('multi.html');
  for (const engine of ENGINE_NAMES)
    assert.deepEqual(
      nodes(d[engine]!, 'DIV').map((n) => n.bounding.w),
      [100, 210],
      engine,
    );
});

test('a reftest page waits for reftest-wait to go; a reftest page with Ahem is unanimous', async () => {
  const late = await dumps('late.html');
  for (const engine of ENGINE_NAMES) assert.equal(nodes(late.dumps[engine]!, 'DIV')[0].bounding.w, 150, engine);
  const plain = await dumps('reftest.html');
  assert.equal(plain.answer.vote.verdict, 'unanimous');
  for (const engine of ENGINE_NAMES)
    assert.deepEqual(nodes(plain.dumps[engine]!, 'DIV')[0].bounding.h, 50, `${engine}: two lines of 25 px Ahem`);
});

test('the same pages give byte-identical dumps run after run', async () => {
  for (const name of ['single.html', 'scripted.html', 'late.html']) {
    const first = await vote(name);
    const second = await vote(name);
    assert.equal(JSON.stringify(second.dumps), JSON.stringify(first.dumps), name);
  }
});
