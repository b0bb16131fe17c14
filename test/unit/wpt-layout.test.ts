// wpt-import --layout on the fixture tree (no browser): check-layout tests and reftest pages become
// vote requests with their site, wait and authored scope; references are no tests; what needs
// wptserve, another origin, testdriver or an XML page is refused with its reason, and a
// testharness test that checks no layout is not_layout.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Checkout } from '../../src/wpt/checkout.js';
import { ImportSummary, importTests } from '../../src/wpt/import.js';
import { literalScope } from '../../src/wpt/layout.js';
import { checkRequest } from '../../src/protocol/validate.js';
import { layoutCheckout } from '../support/wpt-checkout.js';

const tree = layoutCheckout();
after(() => tree.remove());

const imported = [...importTests(Checkout.open(tree.dir), ['css/css-demo'], { layout: true })];
const byPath = new Map(imported.map((i) => [i.path.replace('css/css-demo/', ''), i]));
const layout = (name: string) => {
  const found = byPath.get(name);
  assert.ok(found && 'layout' in found, `${name}: ${JSON.stringify(found)}`);
  return found.layout;
};

test('every file classified: the tests converted, the references skipped, the rest refused with its reason', () => {
  const outcome = Object.fromEntries(
    [...byPath].map(([path, i]) => [path, 'layout' in i ? i.layout.kind : 'refused' in i ? i.refused.reason : 'other']),
  );
  assert.deepEqual(outcome, {
    'late.html': 'reftest',
    'multi.html': 'check-layout',
    'reftest.html': 'reftest',
    'refused/driver.html': 'testdriver',
    'refused/handler.html': 'server_side',
    'refused/other.html': 'other_origin',
    'refused/page.xht': 'unsupported',
    'refused/plain.html': 'not_layout',
    'scripted.html': 'check-layout',
    'single.html': 'check-layout',
  });
  const summary = new ImportSummary();
  for (const i of imported) summary.add(i);
  assert.equal(
    summary.toString(),
    '10 test(s): 5 converted (3 check-layout, 2 reftest page(s)), 5 refused (1 server_side, 1 other_origin, 1 testdriver, 1 not_layout, 1 unsupported)',
  );
});

test('a check-layout page: the vote request, its markup unchanged, every file it reaches by absolute and relative path, the stand-ins', () => {
  const { request } = layout('single.html');
  assert.equal(request.id, 'css/css-demo/single.html');
  assert.equal(request.op, 'vote');
  assert.equal(request.wait, 'testharness');
  assert.deepEqual(request.authored, { scope: ['.flex'] });
  assert.equal(request.site.path, 'css/css-demo/single.html');
  assert.deepEqual(Object.keys(request.site.files), [
    'css/css-demo/support/green.png',
    'css/support/boxes.css',
    'css/support/demo.css',
    'css/support/pattern.svg',
    'fonts/Ahem.ttf',
    'fonts/ahem.css',
    'resources/check-layout-th.js',
    'resources/testharness.js',
    'resources/testharnessreport.js',
  ]);
  const png = request.site.files['css/css-demo/support/green.png'];
  assert.ok(typeof png === 'object' && Buffer.from(png.base64, 'base64').subarray(1, 4).toString() === 'PNG');
  assert.match(request.site.files['resources/check-layout-th.js'] as string, /checkLayout/);
  assert.equal(checkRequest(request).ok, true, 'a valid request');
});

test('scope: the literal selectors of every call, in order; none when the page builds its call', () => {
  assert.deepEqual(layout('multi.html').request.authored, { scope: ['#a', '#b'] });
  assert.deepEqual(layout('scripted.html').request.authored, { scope: ['.built'] }, 'a call in an onload attribute counts');
  assert.deepEqual(literalScope(["const s = '.x'; checkLayout(s);"]), null);
  assert.deepEqual(literalScope(["window.addEventListener('load', checkLayout.bind(null, '.x'))"]), null);
  assert.deepEqual(literalScope(['checkLayout(".a", false); checkLayout(".a")']), ['.a']);
  assert.deepEqual(literalScope(['checkLayout(".a" + suffix)']), null);
  assert.deepEqual(literalScope(['nothing here']), null);
});

test('a reftest page: no authored scope, reftest-wait waited for, its reference not imported', () => {
  const late = layout('late.html').request;
  assert.equal(late.wait, 'reftest-wait');
  assert.equal(late.authored, undefined);
  const plain = layout('reftest.html').request;
  assert.equal(plain.wait, undefined);
  assert.deepEqual(Object.keys(plain.site.files), ['fonts/Ahem.ttf', 'fonts/ahem.css']);
  assert.ok(!byPath.has('reftest-ref.html') && !byPath.has('late-ref.html'));
});
