// The web-platform-tests importer on the fixture checkout (test/fixtures/wpt, with the real
// testharness.js): which file is converted and which refused, and why; what a converted request
// carries; the command's output and its summary. No browser: the e2e test runs the requests.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'parse5';
import { Checkout } from '../../src/wpt/checkout.js';
import { ImportSummary, importTests, type Imported } from '../../src/wpt/import.js';
import { WPT_TIMEOUTS } from '../../src/wpt/convert.js';
import { reportSource } from '../../src/wpt/report-script.js';
import { checkRequest } from '../../src/protocol/validate.js';
import { scriptSubject, statements } from '../../src/reduce/passes/statements.js';
import { scriptFacts } from '../../src/wpt/script-facts.js';
import { fixtureCheckout, TESTHARNESS } from '../support/wpt-checkout.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const tree = fixtureCheckout();
after(() => tree.remove());
const checkout = Checkout.open(tree.dir);

/** Every test of the fixture checkout, by path. */
const imported = new Map<string, Imported>([...importTests(checkout, [''])].map((i) => [i.path, i]));
const converted = (path: string) => {
  const i = imported.get(path);
  assert.ok(i && 'converted' in i, `${path} was not converted: ${i && 'refused' in i ? i.refused.message : 'not found'}`);
  return i.converted;
};

test('classifies every file of the checkout: one per accepted kind, one per reason it refuses', () => {
  const outcome = Object.fromEntries(
    [...imported].map(([path, i]) => [
      path,
      'converted' in i ? 'converted' : 'refused' in i ? i.refused.reason : 'skipped' in i ? `skipped: ${i.skipped}` : 'layout',
    ]),
  );
  assert.deepEqual(outcome, {
    'dom/layout-fonts.html': 'converted',
    'dom/layout-import.html': 'converted',
    'dom/layout-onload.html': 'converted',
    'dom/beside.html': 'converted',
    'dom/engine-branch.html': 'converted',
    'dom/forge.html': 'converted',
    'dom/helpers.any.js': 'converted',
    'dom/never-completes.html': 'converted',
    'dom/refused/absolute.html': 'converted',
    'dom/refused/driver.html': 'testdriver',
    'dom/refused/handler.html': 'server_side',
    'dom/refused/missing.html': 'missing_file',
    'dom/refused/names.sub.html': 'server_side',
    'dom/refused/no-harness.html': 'not_testharness',
    'dom/refused/other-origin.html': 'other_origin',
    'dom/refused/quirks.html': 'quirks_mode',
    'dom/refused/reftest.html': 'reftest',
    'dom/refused/scope.worker.js': 'worker',
    'dom/refused/secure.https.html': 'https',
    'dom/refused/steps-manual.html': 'manual',
    'dom/refused/variants.any.js': 'variant',
    'dom/refused/worker-only.any.js': 'worker',
    'dom/slow.window.js': 'converted',
    'dom/stays.html': 'converted',
    'dom/three-subtests.html': 'converted',
  });
  // Support files, references and shared folders are not tests: a folder's walk skips them.
  for (const path of ['common/helper.js', 'dom/resources/frame.html', 'dom/thing-ref.html', 'dom/refused/reftest-ref.html'])
    assert.ok(!imported.has(path), path);
});

test('each refusal is one line saying what in the file needs what', () => {
  for (const [path, i] of imported) {
    if ('refused' in i) assert.match(i.refused.message, /^[a-z_]+: [^\n]{10,200}$/, path);
  }
  const reason = (path: string) => (imported.get(path) as { refused: Error }).refused.message;
  assert.equal(reason('dom/refused/driver.html'), 'testdriver: it loads /resources/testdriver.js');
  assert.match(
    reason('dom/refused/handler.html'),
    /"\.\.\/resources\/echo\.py" in a string of its script: \/dom\/resources\/echo\.py is answered by wptserve/,
  );
  assert.match(reason('dom/refused/other-origin.html'), /loads from http:\/\/www1\.web-platform\.test/);
  assert.match(reason('dom/refused/missing.html'), /\/dom\/refused\/no-such-helper\.js is not in the checkout/);
});

test('a file named by itself that is not a test is refused as such; a path outside the checkout is an error', () => {
  const [ref] = [...importTests(checkout, ['dom/thing-ref.html'])];
  assert.equal(ref && 'refused' in ref && ref.refused.reason, 'not_a_test');
  assert.throws(() => checkout.pathOf(TESTHARNESS), /not inside the checkout/);
});

test('a converted request: a trace with the test path as id, voted by label, valid as a request', () => {
  for (const [path, i] of imported) {
    if (!('converted' in i)) continue;
    const { request } = i.converted;
    assert.equal(request.id, path);
    assert.equal(request.op, 'trace');
    assert.equal(request.align, 'label');
    assert.deepEqual(checkRequest(JSON.parse(JSON.stringify(request))), { ok: true, op: 'trace', request }, path);
  }
  assert.equal(converted('dom/three-subtests.html').request.timeout_ms, WPT_TIMEOUTS.normalMs);
  assert.equal(converted('dom/slow.window.js').request.timeout_ms, WPT_TIMEOUTS.longMs, 'META: timeout=long');
});

test('the prelude, testharness.js and the report script come first; testharnessreport.js goes; other scripts are inlined', () => {
  const { request } = converted('dom/helpers.any.js');
  const doc = parse(`<!doctype html>${request.html}`);
  const scripts: string[] = [];
  const walk = (node: { childNodes?: unknown[]; nodeName: string; attrs?: { name: string }[] }) => {
    if (node.nodeName === 'script') {
      const text = ((node.childNodes ?? []) as { value?: string }[]).map((t) => t.value ?? '').join('');
      scripts.push(node.attrs?.some((a) => a.name === 'src') ? 'external' : text);
    }
    for (const child of (node.childNodes ?? []) as (typeof node)[]) walk(child);
  };
  walk(doc as never);
  assert.equal(scripts.length, 5, 'prelude, testharness.js, report, the two META scripts; the test itself moved to `script`');
  assert.match(scripts[0]!, /META_TITLE/);
  assert.equal(scripts[1], readFileSync(TESTHARNESS, 'utf8'), 'testharness.js verbatim');
  assert.match(scripts[2]!, /add_completion_callback/);
  assert.match(scripts[3]!, /function doubled/);
  assert.match(scripts[4]!, /function tripled/);
  assert.ok(!scripts.includes('external'), 'no script is loaded: testharnessreport.js is gone, the others inlined');
  assert.match(request.html, /<title>A script test with shared and own helpers<\/title>/);
});

test("the test's main script moves to `script`, where the reducer's statement pass can cut it, unless it must run before load", () => {
  const { request, moved } = converted('dom/three-subtests.html');
  assert.equal(moved, true);
  assert.ok(!request.html.includes('fails everywhere'), 'taken out of the page');
  const script = scriptSubject.parse(request.script)!;
  assert.ok(script, 'acorn parses it');
  assert.equal(statements.collect(script, 0).length, 3, 'its three test() calls are statements the pass can delete');
  assert.match(converted('dom/stays.html').moved as string, /must run before load: it uses onload/);
  assert.equal(converted('dom/stays.html').request.script, '');
  assert.match(converted('dom/beside.html').moved as string, /loads a <iframe>/);
});

test("what a script's tokens say: whether it must run before load, calls done(), starts a worker", () => {
  const parseTime = (code: string) => scriptFacts(code).parseTime;
  for (const code of [
    "frame.addEventListener('load', f)",
    'writer.write(chunk); img.src = "x.png"',
    't.done(); x.done()',
    '// window.onload in a comment\nlet s = "document.write"',
  ])
    assert.equal(parseTime(code), null, code);
  for (const code of [
    "window.addEventListener('load', f)",
    "document.body.addEventListener('load', f)",
    "addEventListener('DOMContentLoaded', f)",
    "on_event(window, 'load', f)",
    'window.onload = f',
    'document.write("<p>")',
    'if (document.readyState === "complete") f()',
    'document.currentScript.remove()',
    '"an unterminated string',
  ])
    assert.notEqual(parseTime(code), null, code);
  assert.equal(scriptFacts('t.done(); x.done()').callsDone, false);
  assert.equal(scriptFacts('setup({explicit_done: true}); f().then(() => done())').callsDone, true);
  assert.match(scriptFacts("new Worker('w.js')").worker!, /Worker/);
  assert.equal(scriptFacts("typeof Worker === 'function'").worker, null);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the script under test holds a template literal.
  assert.deepEqual(scriptFacts('fetch(`resources/${name}.txt`); f("a.html")').strings, ['resources/', '.txt', 'a.html']);
});

test('files beside the test that it loads by relative URL are served with the trace', () => {
  const { request } = converted('dom/beside.html');
  assert.deepEqual(Object.keys(request.files ?? {}), ['resources/data.txt', 'resources/frame.html']);
  assert.equal(request.files!['resources/frame.html'], readFileSync(`${tree.dir}/dom/resources/frame.html`, 'utf8'));
  assert.equal(converted('dom/three-subtests.html').request.files, undefined);
});

test('a test that reaches a file by absolute path, or whose CSS imports one, is served as a site: the page at its path, each file at its own', () => {
  const absolute = converted('dom/refused/absolute.html').request;
  assert.equal(absolute.files, undefined);
  assert.deepEqual(absolute.site, {
    path: 'dom/refused/absolute.html',
    files: { 'common/blank.html': readFileSync(`${tree.dir}/common/blank.html`, 'utf8') },
  });
  const imports = converted('dom/layout-import.html').request;
  assert.deepEqual(Object.keys(imports.site?.files ?? {}), ['fonts/wide.css']);
  assert.equal(checkRequest(imports).ok, true);
  assert.equal(converted('dom/beside.html').request.site, undefined, 'what `files` holds stays in `files`');
});

test("a file only a script's string names, by absolute path or binary, is among the site's files (relayout-image-load: its image, set as src in script)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'wpt-script-named-'));
  try {
    for (const folder of ['resources', 'css/x/support', 'common']) mkdirSync(join(dir, folder), { recursive: true });
    copyFileSync(TESTHARNESS, join(dir, 'resources/testharness.js'));
    writeFileSync(join(dir, 'css/x/support/box.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    writeFileSync(join(dir, 'common/blank.html'), '<title>blank</title>');
    writeFileSync(
      join(dir, 'css/x/named.html'),
      '<!doctype html><script src="/resources/testharness.js"></script><script src="/resources/testharnessreport.js"></script>' +
        '<link rel=stylesheet href="/common/blank.html"><img id=i>' +
        "<script>test(() => {}); i.src = 'support/box.png'; const frame = '/common/blank.html';</script>",
    );
    const [i] = [...importTests(Checkout.open(dir), ['css/x/named.html'])];
    assert.ok(i && 'converted' in i, JSON.stringify(i));
    assert.deepEqual(Object.keys(i.converted.request.site?.files ?? {}), ['common/blank.html', 'css/x/support/box.png']);
    assert.deepEqual(i.converted.request.site?.files['css/x/support/box.png'], { base64: 'iVBORwABAg==' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check-layout: a page loading check-layout-th.js calls done() through it, so the report script does not; an onload page keeps its last script', () => {
  const deadline = WPT_TIMEOUTS.normalMs - WPT_TIMEOUTS.harnessMarginMs;
  const late = converted('dom/layout-fonts.html').request;
  assert.ok(late.html.includes(reportSource(deadline, true)), 'the test ends the harness itself');
  assert.ok(!late.html.includes(reportSource(deadline, false)));
  const onload = converted('dom/layout-onload.html');
  assert.match(onload.moved as string, /<body onload> runs at load/);
  assert.equal(onload.request.script, '');
  assert.match(onload.request.html, /div\.id = 'made'/);
});

test('the summary counts tests, conversions and refusals by reason', () => {
  const summary = new ImportSummary();
  for (const i of imported.values()) summary.add(i);
  assert.equal(
    String(summary),
    '25 test(s): 12 converted (8 with their main script in "script"), 13 refused (2 server_side, 1 other_origin, 1 https, 1 testdriver, ' +
      '1 reftest, 1 manual, 2 worker, 1 not_testharness, 1 quirks_mode, 1 variant, 1 missing_file)',
  );
});

test('the command: requests on stdout, a line per refusal and the summary on stderr; --emit lists instead', () => {
  const run = (...args: string[]) => spawnSync(process.execPath, [MAIN, 'wpt-import', ...args], { encoding: 'utf8' });
  const written = run(tree.dir, 'dom/three-subtests.html', 'dom/refused/driver.html');
  assert.equal(written.status, 0, written.stderr);
  const lines = written.stdout.trim().split('\n');
  assert.equal(lines.length, 1);
  assert.deepEqual(JSON.parse(lines[0]!), converted('dom/three-subtests.html').request);
  assert.deepEqual(written.stderr.trim().split('\n'), [
    'browser-oracle: info: wpt-import: refused dom/refused/driver.html: testdriver: it loads /resources/testdriver.js',
    'browser-oracle: info: wpt-import: 2 test(s): 1 converted (1 with their main script in "script"), 1 refused (1 testdriver)',
  ]);
  const listed = run(tree.dir, 'dom/stays.html', `${tree.dir}/dom/refused/quirks.html`, '--emit');
  assert.equal(listed.status, 0, listed.stderr);
  assert.deepEqual(listed.stdout.trim().split('\n'), [
    'convert dom/stays.html (its main script stays in the page: the last script must run before load: it uses onload)',
    'refuse dom/refused/quirks.html quirks_mode: it parses in quirks mode; a trace page is always in standards mode',
  ]);
  for (const [args, message] of [
    [['/nonexistent'], /^browser-oracle: error: wpt-import: \/nonexistent: no such file or directory\n$/],
    [[`${tree.dir}/dom`], /not a web-platform-tests checkout \(it has no resources\/testharness\.js\)\n$/],
    [[tree.dir, '/'], /\/: not inside the checkout/],
  ] as const) {
    const bad = run(...args);
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, message);
    assert.equal(bad.stdout, '');
  }
});
