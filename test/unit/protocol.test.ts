// Pure protocol logic: request validation, dump serialization, the published schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { parseRequestLine } from '../../src/protocol/validate.js';
import { dumpJson } from '../../src/protocol/dump.js';
import type { RawWalk } from '../../src/protocol/page-output.js';
import { DumpSchema, STYLE_PROPERTIES } from '../../src/protocol/schema.js';
import { protocolJsonSchema } from '../../src/protocol/publish-schema.js';

const rejects: [string, string | null, RegExp][] = [
  ['not json', null, /^invalid_json: the line is not JSON/],
  ['[1,2]', null, /^invalid_request: the line must be a JSON object/],
  ['"text"', null, /^invalid_request: the line must be a JSON object/],
  ['{"html":"x"}', null, /field "id": is required/],
  ['{"id":7,"html":"x"}', null, /field "id": must be a string/],
  ['{"id":"a"}', 'a', /field "html": is required/],
  ['{"id":"a","html":5}', 'a', /field "html": expected string/],
  ['{"id":"a","html":"x","script":null}', 'a', /field "script": expected string/],
  ['{"id":"a","html":"x","color":"red"}', 'a', /field "color": unknown field/],
  ['{"id":"a","html":"x","engines":"webkit"}', 'a', /field "engines": expected array/],
  ['{"id":"a","html":"x","engines":["chromium","opera"]}', 'a', /field "engines\[1\]": must be one of "chromium", "firefox", "webkit"/],
  ['{"id":"a","html":"x","engines":[]}', 'a', /field "engines": must not be empty/],
  ['{"id":"a","html":"x","engines":["webkit","webkit"]}', 'a', /field "engines": must not repeat an entry/],
  ['{"id":"a","op":"launch"}', 'a', /field "op": unknown op "launch"/],
  ['{"id":"a","op":7}', 'a', /field "op": unknown op 7/],
  ['{"id":"a","op":"ping","extra":1}', 'a', /field "extra": unknown field/],
  ['{"id":"a","op":"screenshot"}', 'a', /field "html": is required/],
  ['{"id":"a","op":"screenshot","html":"x","dumps":true}', 'a', /field "dumps": unknown field/],
  ['{"id":"a","op":"trace","script":"","timeout_ms":60001}', 'a', /field "timeout_ms": expected integer to be less or equal to 60000/],
  ['{"id":"a","op":"trace","script":"","timeout_ms":0}', 'a', /field "timeout_ms": expected integer to be greater or equal to 1/],
  ['{"id":"a","op":"trace","script":"","timeout_ms":1.5}', 'a', /field "timeout_ms": expected integer/],
  ['{"id":"a","op":"trace","script":"","align":"name"}', 'a', /field "align": must be one of "seq", "label"/],
  ['{"id":"a","op":"trace","script":"","files":[]}', 'a', /field "files": expected object/],
  ['{"id":"a","op":"trace","script":"","files":{"x.txt":1}}', 'a', /field "files.x.txt": expected string/],
  ...['../x', '/x', 'a//b', 'a/./b', '.hidden', 'a/.b', 'a b', 'a?b', 'a%2Fb', 'a\\b', ''].map((key): [string, string, RegExp] => [
    JSON.stringify({ id: 'a', op: 'trace', script: '', files: { [key]: '' } }),
    'a',
    new RegExp(`field "files\\.${key.replace(/[.?\\\\]/g, '\\$&')}": not an allowed key`),
  ]),
];

for (const [line, id, message] of rejects) {
  test(`rejects ${line}`, () => {
    const parsed = parseRequestLine(line);
    assert.equal(parsed.ok, false);
    if (parsed.ok) return;
    assert.equal(parsed.id, id);
    assert.match(parsed.error.wireText, message);
  });
}

test('rejects bytes that are not UTF-8, naming the problem', () => {
  const parsed = parseRequestLine(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
  assert.equal(parsed.ok, false);
  assert.match(!parsed.ok ? parsed.error.wireText : '', /^invalid_json: the line is not valid UTF-8/);
});

/** A line made of text pieces and raw byte runs. */
const bytes = (...pieces: (string | number[])[]) =>
  Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

test('a line that is not UTF-8 keeps its id when the id itself arrived intact', () => {
  const cases: [string, Buffer, string | null][] = [
    ['bad bytes in another string', bytes('{"id":"é-1","html":"', [0xff, 0xfe], '"}'), 'é-1'],
    ['bad bytes before the id', bytes('{"html":"', [0xc3], '","id":"u"}'), 'u'],
    // A cut multi-byte sequence right before a quote: the quote is not swallowed.
    ['a sequence cut short by the closing quote', bytes('{"id":"u","html":"', [0xe2, 0x82], '"}'), 'u'],
    ['bad bytes inside the id', bytes('{"id":"a', [0xff], 'b","html":""}'), null],
    // U+FFFD sent as valid UTF-8 cannot be told from a replacement, so it is not trusted either.
    ['a real U+FFFD in the id', bytes('{"id":"\uFFFD","html":"', [0xff], '"}'), null],
    ['bad bytes outside any string', bytes('{"id":"u",', [0xff], '}'), null],
    ['an id that is not a string', bytes('{"id":5,"html":"', [0xff], '"}'), null],
    ['an array', bytes('["', [0xff], '"]'), null],
  ];
  for (const [what, line, id] of cases) {
    const parsed = parseRequestLine(line);
    assert.equal(parsed.ok, false, what);
    if (parsed.ok) continue;
    assert.equal(parsed.id, id, what);
    assert.equal(parsed.error.wireText, 'invalid_json: the line is not valid UTF-8', what);
  }
});

test('accepts every request kind', () => {
  assert.deepEqual(parseRequestLine('{"id":"a","html":"<p>","engines":["webkit"],"script":"1"}'), {
    ok: true,
    op: 'geometry',
    request: { id: 'a', html: '<p>', engines: ['webkit'], script: '1' },
  });
  const trace = {
    id: 't',
    op: 'trace',
    script: '',
    timeout_ms: 60000,
    align: 'label',
    files: { 'resources/x-1.html': '', 'a~b+c,d=e@f': '' },
  };
  assert.deepEqual(parseRequestLine(JSON.stringify(trace)), { ok: true, op: 'trace', request: trace });
  assert.equal(parseRequestLine('{"id":"p","op":"ping"}').ok, true);
  assert.equal(parseRequestLine('{"id":"s","op":"shutdown"}').ok, true);
  assert.deepEqual(parseRequestLine('{"id":"p","op":"screenshot","html":"<p>","script":"1","engines":["firefox"]}'), {
    ok: true,
    op: 'screenshot',
    request: { id: 'p', op: 'screenshot', html: '<p>', script: '1', engines: ['firefox'] },
  });
});

const raw: RawWalk = {
  viewport: [800, 600],
  ratio: 1,
  overflowed: false,
  scrollbars: [0, 0],
  tags: ['HTML', 'HEAD', 'BODY', 'SPAN'],
  parents: [-1, 0, 0, 2],
  bounding: [0, 0, 800, 34, 0, 0, 0, 0, 8, 8, 784, 18, 8, 8, 100.328125, 36],
  rectCounts: [1, 0, 1, 2],
  rects: [0, 0, 800, 34, 8, 8, 784, 18, 8, 8, 100.328125, 18, 8, 26, 40.1, 18],
  styles: Array.from({ length: 4 * STYLE_PROPERTIES.length }, (_, i) => `v${i}`),
  scriptCapable: false,
  loadMs: 1,
  walkMs: 1,
};

test('a serialized dump conforms to the schema, in the contract key order, at full precision', () => {
  const dump = JSON.parse(dumpJson('webkit', '2.50.6', raw).text);
  assert.ok(TypeCompiler.Compile(DumpSchema).Check(dump));
  assert.deepEqual(Object.keys(dump), ['engine', 'engine_version', 'viewport', 'overflowed', 'nodes']);
  assert.deepEqual(Object.keys(dump.nodes[0]), ['index', 'parent', 'tag', 'depth', 'bounding', 'rects', 'style']);
  assert.deepEqual(Object.keys(dump.nodes[3].style), [...STYLE_PROPERTIES]);
  assert.deepEqual(
    dump.nodes.map((n: { depth: number }) => n.depth),
    [0, 1, 1, 2],
  );
  assert.deepEqual(dump.nodes[1].rects, []);
  assert.deepEqual(dump.nodes[1].bounding, { x: 0, y: 0, w: 0, h: 0 });
  assert.deepEqual(dump.nodes[3].rects, [
    { x: 8, y: 8, w: 100.328125, h: 18 },
    { x: 8, y: 26, w: 40.1, h: 18 },
  ]);
  assert.equal(dump.nodes[3].style['overflow-y'], `v${4 * STYLE_PROPERTIES.length - 1}`);
});

test('the published JSON Schema is the one the code generates (run npm run schema after a change)', () => {
  const published = JSON.parse(readFileSync(new URL('../../../schema/protocol.schema.json', import.meta.url), 'utf8'));
  assert.deepEqual(published, JSON.parse(JSON.stringify(protocolJsonSchema())));
});
