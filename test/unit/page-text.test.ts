// The JSON text the in-page code writes itself (src/page/json-text.ts, reflect.ts), run here on
// Node's own built-ins in place of the page's captured ones: the same text must come out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Builtins } from '../../src/page/builtins.js';
import { numberJson, quoteJson } from '../../src/page/json-text.js';
import { canonicalIdl } from '../../src/page/reflect.js';

const b = {
  charCodeAt: (s: string, i: number) => s.charCodeAt(i),
  stringSlice: (s: string, start: number, end?: number) => s.slice(start, end),
  isFinite: Number.isFinite,
  isNaN: Number.isNaN,
  className: (value: unknown) => Object.prototype.toString.call(value).slice(8, -1),
} as unknown as Builtins;

test('quoteJson is JSON text for every string, lone surrogates escaped', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (s) => {
      const text = quoteJson(b, s);
      assert.equal(JSON.parse(text), s);
      assert.ok(![...text].some((c) => c < ' '), 'no raw control character');
      assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text), 'no raw lone surrogate');
    }),
  );
});

test('numberJson writes finite numbers as JSON and anything else as null', () => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => assert.equal(JSON.parse(numberJson(b, n)), n === 0 ? 0 : n)),
  );
  for (const n of [Number.NaN, Infinity, -Infinity]) assert.equal(numberJson(b, n), 'null');
});

test('canonicalIdl spells out what JSON cannot carry', () => {
  const forms: [unknown, unknown][] = [
    [undefined, { $undefined: true }],
    [null, null],
    [true, true],
    ['a"\u0001', 'a"\u0001'],
    [1.5, 1.5],
    [Number.NaN, { $num: 'NaN' }],
    [Infinity, { $num: 'Infinity' }],
    [-Infinity, { $num: '-Infinity' }],
    [-0, { $num: '-0' }],
    [0, 0],
    [[], { $object: 'Array' }],
    [() => 1, { $object: 'Function' }],
  ];
  for (const [value, form] of forms) assert.deepEqual(JSON.parse(canonicalIdl(b, value)), form, String(value));
});
