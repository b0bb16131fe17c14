// The case generator: deterministic, valid requests, options honoured, sizes bounded, and the
// CSS it draws covers what a dump observes. Documents are parsed with jsdom, as a browser's
// HTML parser would build them (jsdom does no layout, so geometry is not checked here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import {
  generateCase,
  generateCases,
  GENERATOR_DEFAULTS,
  GENERATOR_LIMITS,
  type CaseOptions,
  type GeneratedCase,
} from '../../src/campaign/generator/generator.js';
import { requestLine } from '../../src/campaign/generator/emit.js';
import { parseRequestLine } from '../../src/protocol/validate.js';
import { STYLE_PROPERTIES } from '../../src/protocol/schema.js';

const all = (count: number, seed: number, options: CaseOptions = {}) => [...generateCases({ count, seed, ...options })];
// One window's DOMParser: a window per document would cost ten times as much.
const parser = new new JSDOM().window.DOMParser();
const parse = (html: string) => parser.parseFromString(html, 'text/html');
const body = (generated: GeneratedCase) => parse(generated.html).body;

test('the same seed and options give byte-identical cases; another seed gives other cases', () => {
  const options = { text: true, script: true };
  assert.deepEqual(all(40, 7, options), all(40, 7, options));
  const [mine, theirs] = [all(40, 7, options), all(40, 8, options)];
  for (let i = 0; i < 40; i++) assert.notEqual(mine[i]!.html, theirs[i]!.html, `case ${i}`);
  assert.equal(new Set(mine.map((c) => c.html)).size, 40, 'no two cases of a seed alike');
});

test('a case depends on its seed and index only: more cases extend the list, and any case can be made alone', () => {
  const short = all(10, 99);
  const long = all(25, 99);
  assert.deepEqual(long.slice(0, 10), short);
  assert.deepEqual(generateCase(99, 17), long[17]);
  assert.deepEqual(generateCase(2 ** 40 + 3, 5), generateCase(2 ** 40 + 3, 5));
  assert.notEqual(generateCase(2 ** 40 + 3, 5).html, generateCase(3, 5).html, 'the high bits of the seed count');
});

test('every case is a valid geometry request line, a standards-mode document, with a gen-<seed>-<n> id', () => {
  for (const options of [{}, { text: true }, { script: true }, { text: true, script: true, clip: false }]) {
    all(30, 12, options).forEach((generated, n) => {
      const parsed = parseRequestLine(requestLine(generated));
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error.wireText);
      assert.equal(parsed.op, 'geometry');
      assert.deepEqual(parsed.request, generated);
      assert.equal(generated.id, `gen-12-${n}`);
      assert.match(generated.html, /^<!doctype html>/);
      assert.equal(parse(generated.html).compatMode, 'CSS1Compat');
    });
  }
});

test('count is respected, zero included', () => {
  for (const count of [0, 1, 17]) assert.equal(all(count, 3).length, count);
});

test('no script unless asked for; with script on, every case has one', () => {
  assert.ok(all(30, 5, { text: true }).every((c) => c.script === undefined && !('script' in c)));
  assert.ok(all(30, 5, { script: true }).every((c) => typeof c.script === 'string' && c.script.length > 0));
});

test('no text unless asked for; with text on, text nodes and text properties appear', () => {
  const textIn = (generated: GeneratedCase) => body(generated).textContent ?? '';
  const boxOnly = all(40, 21, { script: true });
  for (const generated of boxOnly) {
    assert.equal(textIn(generated), '', generated.id);
    assert.doesNotMatch(generated.script!, /font-size|\.append\("/, generated.id);
  }
  const withText = all(40, 21, { text: true });
  assert.ok(withText.filter((c) => textIn(c).trim() !== '').length >= 30, 'most text cases hold text');
  assert.ok(withText.some((c) => /font-size:/.test(c.html)));
});

test('the case is the tree the parser builds: elements e0… once each, under the clipped, bounded root', () => {
  const generated = all(20, 31, { text: true, minElements: 8, maxElements: 12 });
  for (const c of generated) {
    const document = parse(c.html);
    const root = document.getElementById('root')!;
    assert.equal(root.parentElement, document.body);
    assert.equal(document.body.children.length, 1);
    const ids = [...root.querySelectorAll('*')].map((element) => element.id);
    const count = ids.length;
    assert.ok(count >= 8 && count <= 12, `${c.id}: ${count} elements`);
    assert.deepEqual(ids.sort(), Array.from({ length: count }, (_, n) => `e${n}`).sort());
    assert.match(root.getAttribute('style')!, /^position:relative;overflow:hidden;line-height:1;width:\d+px;height:\d+px$/);
  }
  assert.doesNotMatch(generateCase(31, 0, { clip: false }).html, /id="root" style="[^"]*overflow/);
});

test('property: sizes, counts and the root box stay within the declared bounds', () => {
  const options = fc.record({
    text: fc.boolean(),
    script: fc.boolean(),
    clip: fc.boolean(),
    minElements: fc.integer({ min: 0, max: 40 }),
    extra: fc.integer({ min: 0, max: 40 }),
  });
  fc.assert(
    fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), fc.nat({ max: 1_000_000 }), options, (seed, index, { extra, ...o }) => {
      const maxElements = o.minElements + extra;
      const generated = generateCase(seed, index, { ...o, maxElements });
      const document = parse(generated.html);
      const root = document.getElementById('root') as HTMLElement;
      const elements = root.querySelectorAll('*').length;
      assert.ok(elements >= o.minElements && elements <= maxElements, `${elements} elements, asked ${o.minElements}–${maxElements}`);
      const [width, height] = [parseFloat(root.style.width), parseFloat(root.style.height)];
      assert.ok(width >= GENERATOR_LIMITS.rootWidth[0] && width <= GENERATOR_LIMITS.rootWidth[1], `root width ${width}`);
      assert.ok(height >= GENERATOR_LIMITS.rootHeight[0] && height <= GENERATOR_LIMITS.rootHeight[1], `root height ${height}`);
      const declared =
        [...root.querySelectorAll('[style]')].map((element) => element.getAttribute('style')!).join(';') + (generated.script ?? '');
      for (const [, length] of declared.matchAll(/(-?\d+(?:\.\d+)?)px/g)) {
        assert.ok(Math.abs(Number(length)) <= GENERATOR_LIMITS.lengthPx, `${length}px`);
      }
      if (generated.script) {
        const changes = generated.script.split('\n').filter((line) => line !== 'document.body.offsetWidth;');
        // A style change may set a position and its offsets: up to three lines.
        assert.ok(changes.length >= 1 && changes.length <= 3 * GENERATOR_LIMITS.scriptChanges, generated.script);
      }
    }),
    { numRuns: 150 },
  );
});

test('the CSS drawn touches every style property a dump records, and every display, position, float and writing mode', () => {
  const declarations = all(300, 1, { text: true, script: true }).flatMap((c) =>
    [...c.html.matchAll(/style="([^"]*)"/g)].flatMap(([, style]) => style!.split(';').map((d) => d.split(':') as [string, string])),
  );
  const longhands = (property: string) => {
    const sides = ['top', 'right', 'bottom', 'left'];
    if (property === 'margin' || property === 'padding') return sides.map((side) => `${property}-${side}`);
    if (property === 'border') return sides.map((side) => `border-${side}-width`);
    if (/^border-(top|right|bottom|left)$/.test(property)) return [`${property}-width`];
    if (property === 'overflow') return ['overflow-x', 'overflow-y'];
    return [property];
  };
  const touched = new Set(declarations.flatMap(([property]) => longhands(property)));
  assert.deepEqual(
    STYLE_PROPERTIES.filter((property) => !touched.has(property)),
    [],
  );
  const valuesOf = (name: string) => new Set(declarations.filter(([property]) => property === name).map(([, value]) => value));
  const expect = {
    display: ['block', 'inline', 'inline-block', 'flex', 'inline-flex', 'grid', 'inline-grid', 'flow-root', 'none', 'contents'],
    position: ['static', 'relative', 'absolute', 'fixed'],
    float: ['left', 'right', 'none'],
    clear: ['left', 'right', 'both', 'none'],
    'box-sizing': ['content-box', 'border-box'],
    'writing-mode': ['horizontal-tb', 'vertical-rl', 'vertical-lr'],
    direction: ['ltr', 'rtl'],
  };
  for (const [property, values] of Object.entries(expect)) {
    assert.deepEqual(
      values.filter((value) => !valuesOf(property).has(value)),
      [],
      property,
    );
  }
  for (const property of [
    'flex-direction',
    'flex-wrap',
    'justify-content',
    'align-items',
    'gap',
    'flex',
    'grid-template-columns',
    'grid-column',
    'top',
    'left',
    'min-width',
    'max-height',
  ]) {
    assert.ok(valuesOf(property).size > 0, property);
  }
});

test('every length is whole pixels, margins and padding hold no percentage, line-heights are normal, 1, 2 or whole pixels', () => {
  const cases = all(200, 8, { text: true, script: true });
  const source = cases.map((c) => c.html + (c.script ?? '')).join('');
  const lengths = [...source.matchAll(/-?[\d.]+px/g)].map(([length]) => length);
  assert.ok(lengths.length > 1000, `${lengths.length} lengths`);
  assert.deepEqual(
    lengths.filter((length) => !/^-?\d+px$/.test(length)),
    [],
  );
  // Declarations from the markup (property:value) and from scripts (setProperty("property", "value")).
  const declared = (name: string) =>
    [...source.matchAll(new RegExp(`[;"]${name}(?::|", ")"?([^;"\\\\]+)`, 'g'))].map(([, value]) => value!);
  for (const property of ['margin', 'padding']) {
    const values = declared(property);
    assert.ok(values.length > 50, `${values.length} ${property} values`);
    assert.deepEqual(
      values.filter((value) => value.includes('%')),
      [],
      property,
    );
  }
  const lineHeights = declared('line-height');
  assert.ok(lineHeights.length > 50, `${lineHeights.length} line-heights`);
  assert.deepEqual(
    lineHeights.filter((value) => !/^(normal|1|2|\d+px)$/.test(value)),
    [],
  );
});

test('the words of one text node are in one script', () => {
  const scripts = [/\p{Script=Latin}|\d/u, /\p{Script=Greek}/u, /\p{Script=Cyrillic}/u, /\p{Script=Hebrew}/u];
  const seen = new Set<number>();
  for (const generated of all(200, 9, { text: true })) {
    const document = parse(generated.html);
    const walker = document.createTreeWalker(document.body, 4); // NodeFilter.SHOW_TEXT
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const letters = [...(node.textContent ?? '')].filter((character) => /[\p{L}\d]/u.test(character));
      const inNode = new Set(letters.map((character) => scripts.findIndex((script) => script.test(character))));
      assert.equal(inNode.size, 1, `${generated.id}: ${JSON.stringify(node.textContent)}`);
      for (const script of inNode) seen.add(script);
    }
  }
  assert.deepEqual([...seen].sort(), [0, 1, 2, 3], 'all four scripts appear');
});

test('trees are small by default: 5 to 30 elements', () => {
  for (const c of all(50, 77)) {
    const count = body(c).querySelectorAll('#root *').length;
    assert.ok(count >= GENERATOR_DEFAULTS.minElements && count <= GENERATOR_DEFAULTS.maxElements, `${c.id}: ${count}`);
  }
});

test('a seed, count or element bound out of range is a one-line RangeError naming it', () => {
  const cases: [() => unknown, RegExp][] = [
    [() => generateCase(-1, 0), /^generator: seed must be a whole number from 0 to 9007199254740991 \(got -1\)$/],
    [() => generateCase(1.5, 0), /seed .*\(got 1\.5\)/],
    [() => generateCase(Number.NaN, 0), /seed .*\(got NaN\)/],
    [() => all(-2, 1), /count .*\(got -2\)/],
    [() => generateCases({ count: 0, seed: -5 }), /seed .*\(got -5\)/],
    [() => generateCase(1, 0, { minElements: 9, maxElements: 4 }), /minElements must be a whole number from 0 to 4 \(got 9\)/],
    [() => generateCase(1, 0, { maxElements: 500 }), /maxElements must be a whole number from 0 to 200 \(got 500\)/],
  ];
  for (const [call, message] of cases) assert.throws(call, (error: Error) => error instanceof RangeError && message.test(error.message));
});
