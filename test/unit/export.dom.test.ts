// export's formats without engines: the WPT check-layout test built from recorded dumps (the
// majority's boxes on each element, offsets from the offsetParent, the harness in its head), the
// Taffy XML test checked against Taffy's documented shape, and the Yoga fixture and generated test,
// the latter run on the real yoga-layout; what each refuses, and why.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import Yoga from 'yoga-layout';
import type { Finding } from '../../src/campaign/export/finding.js';
import { taffyTests } from '../../src/campaign/export/taffy.js';
import { wptTest } from '../../src/campaign/export/wpt.js';
import { YOGA_ENUMS, yogaFiles, yogaTests } from '../../src/campaign/export/yoga.js';
import { voteGeometry } from '../../src/comparator/vote.js';
import { ENGINE_NAMES, STYLE_PROPERTIES, type Dump, type EngineName } from '../../src/protocol/schema.js';
import type { VoteResult } from '../../src/protocol/vote-schema.js';
import { DUMP_REQUESTS } from '../fixtures/dumps/requests.js';
import { response, type FixtureName } from '../fixtures/dumps/load.js';
import { TAFFY_SAMPLE, taffyFormatProblems } from '../support/taffy-format.js';
import { runCli } from '../support/campaign-process.js';
import { journalOf } from './support/journals.js';

const window = new JSDOM('').window;
const parseXml = (text: string) => new window.DOMParser().parseFromString(text, 'application/xml');
const parseHtml = (text: string) => new window.DOMParser().parseFromString(text, 'text/html');
const BUILDS = { chromium: '140.0.1', firefox: '128.0', webkit: '2.48.3' };

/** A finding of a recorded response (test/fixtures/dumps). */
function recorded(name: FixtureName): Finding {
  const answer = response(name);
  return {
    id: name,
    hash: 'h',
    html: DUMP_REQUESTS[name].html,
    script: DUMP_REQUESTS[name].script ?? null,
    reduced: false,
    vote: voteGeometry(answer),
    signature: null,
    candidate: null,
    dumps: answer.dumps,
    builds: BUILDS,
  };
}

test('wpt: each element with a box carries the majority’s size and offset; the outlier’s differ; the harness is in the head', () => {
  const f = recorded('text-line');
  assert.equal(f.vote.verdict, 'outlier');
  const result = wptTest({ ...f, signature: 'outlier firefox | size | P | height' });
  assert.ok('text' in result, JSON.stringify(result));
  const doc = parseHtml(result.text);
  const p = doc.querySelector('p')!;
  const at = (engine: EngineName) => f.dumps[engine]!.nodes.find((n) => n.tag === 'P')!.bounding;
  const mean = (k: 'w' | 'h' | 'x' | 'y') => String((at('chromium')[k] + at('webkit')[k]) / 2);
  assert.deepEqual(
    ['data-expected-width', 'data-expected-height', 'data-offset-x', 'data-offset-y'].map((a) => p.getAttribute(a)),
    [mean('w'), mean('h'), mean('x'), mean('y')],
  );
  assert.ok(Math.abs(at('firefox').h - Number(p.getAttribute('data-expected-height'))) >= 1, 'the outlier is a pixel or more off');
  assert.deepEqual(
    [...doc.querySelectorAll('head script')].map((s) => s.getAttribute('src')),
    ['/resources/testharness.js', '/resources/testharnessreport.js', '/resources/check-layout-th.js'],
  );
  assert.match(doc.querySelector('body > script:last-child')!.textContent!, /checkLayout\('\[data-expected-width\]'\)/);
  const assertion = doc.querySelector('meta[name=assert]')!.getAttribute('content')!;
  assert.equal(
    assertion,
    'text-line: outlier firefox (outlier firefox | size | P | height); builds: chromium 140.0.1, firefox 128.0, webkit 2.48.3; ' +
      'expectations from the majority: chromium, webkit',
  );
  // html and head (and what is in it) have no box to check; the document's own markup is kept.
  assert.equal(doc.documentElement.getAttribute('data-expected-width'), null);
  assert.equal(doc.querySelector('style')!.getAttribute('data-expected-width'), null);
  assert.equal(doc.doctype?.name, 'html');
});

test('wpt: offsets are from the offsetParent’s padding edge (a positioned ancestor), or from the page where that is the body', () => {
  const result = wptTest(recorded('rigid-moved'));
  assert.ok('text' in result);
  const doc = parseHtml(result.text);
  const mover = doc.getElementById('mover')!;
  const offsets = (e: Element) => [e.getAttribute('data-offset-x'), e.getAttribute('data-offset-y')];
  assert.deepEqual(offsets(mover), ['21', '15'], 'the body is its offsetParent: measured from the page');
  assert.deepEqual(offsets(mover.firstElementChild!), ['0', '0']);
  assert.deepEqual(offsets(mover.querySelector('b')!), ['4', '29'], 'through a static block, from #mover');
  assert.deepEqual(offsets(mover.querySelector('u')!), ['0', '20'], 'through a display: contents element');
  assert.equal(mover.querySelector('i')!.getAttribute('data-expected-width'), null, 'display: none makes no box');
  // A case naming what makes a containing block a dump does not show gets sizes only.
  const transformed = recorded('rigid-moved');
  const sizesOnly = wptTest({ ...transformed, html: transformed.html.replace('<style>', '<style>.never{transform:none}') });
  assert.ok('text' in sizesOnly);
  assert.doesNotMatch(sizesOnly.text, /data-offset/);
  assert.match(sizesOnly.text, /data-expected-width/);
});

test('wpt: refused without a majority, with a script, with data-* of its own, or when the html is not what was walked', () => {
  assert.deepEqual(wptTest(recorded('split')), { refused: 'split: no majority to take expectations from' });
  assert.match((wptTest(recorded('engine-error')) as { refused: string }).refused, /^it has a script/);
  const agree = recorded('agree');
  assert.match(
    (wptTest({ ...agree, html: agree.html.replace('<div ', '<div data-x="1" ') }) as { refused: string }).refused,
    /data-\* attributes of its own \(data-x\)/,
  );
  assert.deepEqual(wptTest({ ...agree, html: agree.html.replace('</div></div>', '</div><p></p></div>') }), {
    refused: 'its html does not parse to the elements the engines walked',
  });
});

// A Taffy-style case: an absolutely positioned flex row (sized by its content) with a fixed child and a growing one.
const TAFFY_HTML =
  '<!doctype html><html><head><style>body{margin:0}</style></head><body>' +
  '<div style="position:absolute;display:flex;width:300px;height:100px;padding-left:5px;box-sizing:border-box">' +
  '<div style="width:50px"></div><div style="flex-grow:1;min-width:0"></div></div></body></html>';
const TAGS = ['HTML', 'HEAD', 'STYLE', 'BODY', 'DIV', 'DIV', 'DIV'];
const PARENTS = [-1, 0, 1, 0, 3, 4, 4];

/** Dumps of TAFFY_HTML: every engine lays it out as `boxes` says, but `odd` puts the growing child 3 px wider. */
function synthetic(odd: EngineName | null, third: [number, number] = [55, 245]): Finding {
  const boxes = [null, null, null, [0, 0, 800, 0], [0, 0, 300, 100], [5, 0, 50, 100], [third[0], 0, third[1], 100]] as const;
  const style = (position: string, display: string) =>
    Object.fromEntries(STYLE_PROPERTIES.map((p) => [p, p === 'position' ? position : p === 'display' ? display : '0px']));
  const dump = (engine: EngineName): Dump => ({
    engine,
    engine_version: BUILDS[engine],
    viewport: { width: 800, height: 600 },
    overflowed: false,
    nodes: TAGS.map((tag, index) => {
      const b = boxes[index];
      const rect = b ? { x: b[0], y: b[1], w: b[2] + (engine === odd && index === 6 ? 3 : 0), h: b[3] } : { x: 0, y: 0, w: 0, h: 0 };
      return {
        index,
        parent: PARENTS[index]!,
        tag,
        depth: 0,
        bounding: rect,
        rects: b ? [rect] : [],
        style: style(index === 4 ? 'absolute' : 'static', index === 4 ? 'flex' : 'block'),
      };
    }),
  });
  const majority = ENGINE_NAMES.filter((e) => e !== odd);
  const vote = { verdict: odd ? 'outlier' : 'unanimous', outlier: odd, majority } as unknown as VoteResult;
  return {
    id: 'flex/grow row.html',
    hash: 'h',
    html: TAFFY_HTML,
    script: null,
    reduced: false,
    vote,
    signature: odd ? `outlier ${odd} | size | DIV | width` : null,
    candidate: null,
    dumps: Object.fromEntries(ENGINE_NAMES.map((e) => [e, dump(e)])),
    builds: BUILDS,
  };
}

test('taffy: the documented shape accepts the sample and refuses what the harness would not run', () => {
  assert.deepEqual(taffyFormatProblems(parseXml(TAFFY_SAMPLE).documentElement), []);
  const broken = (from: string, to: string) => taffyFormatProblems(parseXml(TAFFY_SAMPLE.replace(from, to)).documentElement);
  assert.deepEqual(broken('width="50px"', 'min-width="min-content"'), ['root.0: min-width="min-content" does not parse']);
  assert.deepEqual(broken('display="flex"', 'display="inline"'), ['root: display="inline" does not parse']);
  assert.deepEqual(broken('flex-grow="1"', 'order="1"'), ['root.1: attribute order is not one Taffy reads']);
  assert.deepEqual(broken('<node x="5" y="0" width="50" height="100"/>', ''), ['root: 2 input children, 1 expected nodes']);
  assert.deepEqual(broken('<node x="55"', '<node x="fifty-five"'), ['root.1: node x="fifty-five"']);
  assert.deepEqual(broken('height="max-content"/>', 'height="tall"/>'), ['viewport height="tall"']);
});

test('taffy: one XML test in Taffy’s shape, its expectations the majority’s, the outlier and the builds marked', () => {
  const result = taffyTests({ ...synthetic('firefox'), reduced: true }, 'flex_grow_row');
  assert.ok('files' in result, JSON.stringify(result));
  assert.equal(result.files.length, 1);
  const [name, text] = result.files[0]!;
  assert.equal(name, 'flex_grow_row.xml');
  const doc = parseXml(text);
  assert.deepEqual(taffyFormatProblems(doc.documentElement), []);
  const input = doc.querySelector('input > div')!;
  assert.deepEqual(Object.fromEntries(input.getAttributeNames().map((a) => [a, input.getAttribute(a)])), {
    display: 'flex',
    direction: 'ltr',
    position: 'absolute',
    width: '300px',
    height: '100px',
    'padding-left': '5px',
  });
  assert.equal(input.children[1]!.getAttribute('flex-grow'), '1');
  assert.equal(input.children[1]!.getAttribute('min-width'), '0px');
  assert.equal(input.children[0]!.getAttribute('box-sizing'), 'content-box');
  assert.deepEqual(
    [...doc.querySelectorAll('expectations node')].map((n) => ['x', 'y', 'width', 'height'].map((a) => n.getAttribute(a)).join(',')),
    ['0,0,300,100', '5,0,50,100', '55,0,245,100'],
    "the majority's, not firefox's 248",
  );
  assert.equal(doc.documentElement.getAttribute('use-rounding'), 'false');
  assert.deepEqual(parseXml(text).querySelector('viewport')!.getAttribute('width'), 'max-content');
  const comment = text.split('\n')[0]!;
  assert.match(
    comment,
    /^<!-- browser-oracle: flex\/grow row\.html: outlier firefox \(outlier firefox \| size \| DIV \| width\); builds: chromium 140\.0\.1, firefox 128\.0, webkit 2\.48\.3; reduced; expectations from the majority: chromium, webkit -->$/,
  );
});

test('taffy: a split is written disabled (x) without expectations; what Taffy cannot express is refused with its reason', () => {
  const split = synthetic(null);
  const splitResult = taffyTests({ ...split, vote: { ...split.vote, verdict: 'split', majority: [] } }, 'flex_grow_row');
  assert.ok('files' in splitResult);
  const [name, text] = splitResult.files[0]!;
  assert.equal(name, 'xflex_grow_row.xml');
  assert.match(text, /the engines split, so there is no expectation: disabled \(x\)/);
  assert.deepEqual(taffyFormatProblems(parseXml(text).documentElement), ['expectations: not exactly one root node']);
  const withHtml = (html: string) => taffyTests({ ...synthetic('firefox'), html }, 'n');
  assert.deepEqual(withHtml(TAFFY_HTML.replace('flex-grow:1', 'flex-grow:1;order:2')), { refused: 'order: 2 (not in Taffy)' });
  assert.deepEqual(withHtml(TAFFY_HTML.replace('position:absolute;', 'position:absolute;left:10px;')), {
    refused: "the root DIV is placed by insets: a fixture's root sits at the origin of its space",
  });
  assert.deepEqual(withHtml(TAFFY_HTML.replace('width:50px', 'width:50px;max-height:max-content')), {
    refused: "max-height: max-content (a Taffy test's limits are lengths)",
  });
});

test('yoga: a fixture entry as the case wrote it, and a generated test whose expectations Yoga meets when it agrees with the majority', () => {
  const result = yogaTests(synthetic('firefox'), 'flex_grow_row');
  assert.ok('tests' in result, JSON.stringify(result));
  const [fixture, tests] = yogaFiles(result.tests);
  assert.equal(fixture[0], 'YGBrowserOracleTest.html');
  const entry = parseHtml(fixture[1]).body.firstElementChild!;
  assert.equal(entry.id, 'flex_grow_row');
  assert.equal(entry.getAttribute('data-disabled'), null);
  assert.match(
    fixture[1],
    /^<!-- browser-oracle: flex\/grow row\.html: outlier firefox .*the test's expectations are the majority's: chromium, webkit -->/,
  );
  assert.equal(tests[0], 'YGBrowserOracleTest.test.ts');
  assert.match(tests[1], /root\.setPositionType\(PositionType\.Absolute\);/);
  assert.match(tests[1], /expect\(root_child1\.getComputedWidth\(\)\)\.toBe\(245\);/);
  // Run it: the imports become the real module's bindings, test() and expect() a small harness.
  const body = tests[1].replace(/^import .*$/gm, '');
  const ran: string[] = [];
  const failures: string[] = [];
  const expect = (actual: unknown) => ({
    toBe: (expected: unknown) => {
      if (actual !== expected) failures.push(`${String(actual)} !== ${String(expected)}`);
    },
  });
  const harness = (name: string, run: () => void) => {
    ran.push(name);
    run();
  };
  new Function('Yoga', 'test', 'expect', ...Object.keys(YOGA_ENUMS), body)(Yoga, harness, expect, ...Object.values(YOGA_ENUMS));
  assert.deepEqual(ran, ['flex_grow_row']);
  assert.deepEqual(failures, []);
  assert.equal((body.match(/expect\(/g) ?? []).length, 12, 'four expectations for each of the three nodes');

  const split = synthetic(null);
  const disabled = yogaTests({ ...split, vote: { ...split.vote, verdict: 'split', majority: [] } }, 'flex_grow_row');
  assert.ok('tests' in disabled);
  assert.equal(disabled.tests[0]!.test, null);
  assert.match(disabled.tests[0]!.fixture, /data-disabled="true"/);
  const text = yogaTests(
    { ...synthetic('firefox'), html: TAFFY_HTML.replace('<div style="width:50px"></div>', '<div style="width:50px">word</div>') },
    'n',
  );
  assert.deepEqual(text, { refused: "Yoga cannot lay it out: text in DIV (Yoga's generated tests measure text with their own function)" });
});

test('export on the command line: a bucket or case that matches nothing, or cannot be written, is one line and exit 2, nothing written', async () => {
  const root = mkdtempSync(join(tmpdir(), 'export-test-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const db = journalOf(join(root, 'run.sqlite'), [
    { id: 'trace', op: 'trace', verdict: 'outlier', outlier: 'webkit' },
    { id: 'bad', verdict: null },
  ]);
  const out = join(root, 'out');
  const cases: [string[], RegExp][] = [
    [
      ['--bucket', 'outlier chromium | size | P | -'],
      /--bucket "outlier chromium \| size \| P \| -": no bucket of this journal has that signature$/,
    ],
    [['--case', 'nowhere'], /--case nowhere: no such case in this journal$/],
    [['--case', 'trace'], /--case trace: not written as a wpt test: a trace case is not a layout$/],
    [['--case', 'bad'], /--case bad: not written as a wpt test: an invalid corpus item, never laid out/],
  ];
  for (const [args, message] of cases) {
    const run = await runCli(['export', '--db', db, '--format', 'wpt', '--out', out, ...args]);
    assert.deepEqual([run.code, run.stdout], [2, ''], run.stderr);
    assert.match(run.stderr.trimEnd(), message);
    assert.equal(run.stderr.trimEnd().split('\n').length, 1, run.stderr);
    assert.equal(existsSync(out), false, 'nothing written');
  }
  const missing = await runCli(['export', '--db', join(root, 'missing.sqlite'), '--format', 'taffy', '--out', out]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /missing\.sqlite: no such journal\n$/);
  // Every bucket: none can be written, each says why, and the run still succeeds.
  const all = await runCli(['export', '--db', db, '--format', 'yoga', '--out', out]);
  assert.equal(all.code, 0, all.stderr);
  assert.match(all.stderr, /export: trace not written: a trace case is not a layout\n/);
  assert.match(all.stderr, /export: 0 case\(s\) in 0 file\(s\), 2 not written\n$/);
  assert.deepEqual(readdirSync(out), []);
});
