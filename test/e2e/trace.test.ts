// The trace op on the three real engines: the recorder's ordering guarantee, every canonical
// form, completion (done() or the fixed timeout), origin and secure context, a throwing
// script, and the trace route of the case server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { TraceResponseSchema, type TraceResponse } from '../../src/protocol/trace-schema.js';
import { vote } from '../../src/api/judge.js';
import { ONE_PAGE, OracleProcess, type Line } from '../support/oracle-process.js';

const checkResponse = TypeCompiler.Compile(TraceResponseSchema);
let oracle: OracleProcess;
let seq = 0;

before(async () => {
  oracle = new OracleProcess(ONE_PAGE);
  await oracle.ready();
});

after(async () => {
  await oracle.shutdown();
});

/** Runs a trace and checks the response's shape; resolves with the traces, keyed by engine. */
async function trace(script: string, html?: string): Promise<Record<string, Line>> {
  const response = await oracle.request({ id: `trace-${seq++}`, op: 'trace', script, ...(html === undefined ? {} : { html }) });
  assert.ok(checkResponse.Check(response), JSON.stringify([...checkResponse.Errors(response)].slice(0, 3)) + JSON.stringify(response));
  assert.deepEqual(Object.keys(response), ['id', 'traces'], JSON.stringify(response.errors));
  assert.deepEqual(Object.keys(response.traces), [...ENGINE_NAMES]);
  for (const engine of ENGINE_NAMES) {
    const t = response.traces[engine] as Line;
    assert.deepEqual(Object.keys(t), ['engine', 'engine_version', 'profile', 'origin', 'is_secure_context', 'timed_out', 'records']);
    assert.equal(t.engine, engine);
    assert.equal(t.profile, 'default');
    t.records.forEach((r: Line, i: number) => {
      assert.equal(r.seq, i);
      assert.deepEqual(Object.keys(r).slice(0, 3), ['seq', 'kind', 'label']);
    });
  }
  return response.traces;
}

/** The records of every engine, without seq, after checking that all engines recorded the same. */
function sameRecords(traces: Record<string, Line>): Line[] {
  const strip = (t: Line) => t.records.map(({ seq: _, ...rest }: Line) => rest);
  const chromium = strip(traces.chromium!);
  for (const engine of ENGINE_NAMES) assert.deepEqual(strip(traces[engine]!), chromium, engine);
  return chromium;
}

const values = (records: Line[]) => Object.fromEntries(records.map((r) => [r.label, r.value]));

describe('recorder', () => {
  test('is installed before an inline <script> of the page, and leaves the DOM to the case', async () => {
    const traces = await trace(
      "trace.value('script', document.scripts.length); trace.done();",
      "<p>x</p><script>trace.value('inline', typeof trace.value); trace.value('scripts', document.scripts.length);</script>",
    );
    assert.deepEqual(sameRecords(traces), [
      { kind: 'value', label: 'inline', value: 'function' },
      { kind: 'value', label: 'scripts', value: 1 },
      { kind: 'value', label: 'script', value: 1 },
    ]);
  });

  test('records events in firing order, labelled by the listening target', async () => {
    const traces = await trace(
      "for (const t of [window, document, document.body, outer, inner]) trace.event(t, ['click', 'focus']); inner.click(); trace.done();",
      '<div id=outer><span><b id=inner>x</b></span></div><i></i>',
    );
    assert.deepEqual(
      sameRecords(traces).map((r) => [r.kind, r.label, r.type]),
      [
        ['event', 'B#inner', 'click'],
        ['event', 'DIV#outer', 'click'],
        ['event', 'BODY', 'click'],
        ['event', 'document', 'click'],
        ['event', 'window', 'click'],
      ],
    );
  });

  test('records promise settlement with its state and value, in settlement order', async () => {
    const traces = await trace(
      "trace.settle('late', new Promise((r) => setTimeout(() => r('x'), 20))); trace.settle('now', Promise.resolve(1));" +
        "trace.settle('rejected', Promise.reject(new RangeError('r'))); trace.settle('plain', 5);" +
        "trace.error('caught', new SyntaxError('s')); trace.error('not an error', 'text'); setTimeout(() => trace.done(), 50);",
    );
    assert.deepEqual(sameRecords(traces), [
      { kind: 'error', label: 'caught', name: 'SyntaxError' },
      { kind: 'error', label: 'not an error', name: null },
      { kind: 'settle', label: 'now', state: 'fulfilled', value: 1 },
      { kind: 'settle', label: 'rejected', state: 'rejected', value: { $error: true, name: 'RangeError' } },
      { kind: 'settle', label: 'plain', state: 'fulfilled', value: 5 },
      { kind: 'settle', label: 'late', state: 'fulfilled', value: 'x' },
    ]);
  });
});

describe('canonicalization', () => {
  test('numbers, undefined, bigint, symbols and errors', async () => {
    const traces = await trace(
      "for (const [k, v] of Object.entries({nan: NaN, inf: Infinity, ninf: -Infinity, nzero: -0, zero: 0, x: 1.5, s: 'str', t: true, n: null," +
        " u: undefined, big: -12345678901234567890n, sym: Symbol('q'), err: new TypeError('m'), dom: new DOMException('d', 'NotFoundError')})) trace.value(k, v); trace.done();",
    );
    assert.deepEqual(values(sameRecords(traces)), {
      nan: { $num: 'NaN' },
      inf: { $num: 'Infinity' },
      ninf: { $num: '-Infinity' },
      nzero: { $num: '-0' },
      zero: 0,
      x: 1.5,
      s: 'str',
      t: true,
      n: null,
      u: { $undefined: true },
      big: { $bigint: '-12345678901234567890' },
      sym: { $symbol: 'Symbol(q)' },
      err: { $error: true, name: 'TypeError' },
      dom: { $error: true, name: 'NotFoundError' },
    });
  });

  test('typed arrays, DataView, ArrayBuffer, ImageData and AudioBuffer reduce to base64 of their bytes', async () => {
    const traces = await trace(
      "const b = new Uint8Array([0, 1, 2, 255, 128, 7]).buffer; trace.value('u8', new Uint8Array(b, 1, 3)); trace.value('f64', new Float64Array([-0.5]));" +
        "trace.value('dv', new DataView(b, 2, 2)); trace.value('ab', b); trace.value('i16', new Int16Array([-2]));" +
        "const img = new ImageData(2, 1); img.data.set([1, 2, 3, 4, 5, 6, 7, 8]); trace.value('img', img);" +
        "const audio = new AudioBuffer({length: 2, sampleRate: 8000, numberOfChannels: 2}); audio.getChannelData(1).set([0.25, -1]); trace.value('audio', audio); trace.done();",
    );
    const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');
    const buffer = (elementType: string, length: number, bytes: number[]) => ({ $buffer: true, elementType, length, base64: b64(bytes) });
    assert.deepEqual(values(sameRecords(traces)), {
      u8: buffer('Uint8Array', 3, [1, 2, 255]),
      f64: buffer('Float64Array', 1, [...Buffer.from(new Float64Array([-0.5]).buffer)]),
      dv: buffer('DataView', 2, [2, 255]),
      ab: buffer('ArrayBuffer', 6, [0, 1, 2, 255, 128, 7]),
      i16: buffer('Int16Array', 1, [0xfe, 0xff]),
      img: { $imageData: true, width: 2, height: 1, elementType: 'Uint8ClampedArray', length: 8, base64: b64([1, 2, 3, 4, 5, 6, 7, 8]) },
      audio: {
        $audioBuffer: true,
        numberOfChannels: 2,
        length: 2,
        sampleRate: 8000,
        channels: [
          buffer('Float32Array', 2, [0, 0, 0, 0, 0, 0, 0, 0]),
          buffer('Float32Array', 2, [...Buffer.from(new Float32Array([0.25, -1]).buffer)]),
        ],
      },
    });
  });

  test('objects and arrays walk their own properties, bounded in depth and breadth, safe on cycles', async () => {
    const traces = await trace(
      "const o = {a: 1, nested: {x: [true]}}; o.self = o; Object.defineProperty(o, 'get', {get() { return 1; }});" +
        "Object.defineProperty(o, '__proto__', {value: 'own', enumerable: true}); trace.value('o', o);" +
        "trace.value('deep', [[[[[1]]]]]); trace.value('long', Array.from({length: 70}, (_, i) => i)); trace.done();",
    );
    const v = values(sameRecords(traces));
    assert.deepEqual(v.o, {
      $shape: 'object',
      keys: ['a', 'nested', 'self', 'get', '__proto__'],
      props: {
        a: { type: 'number', value: 1 },
        nested: {
          type: 'object',
          value: {
            $shape: 'object',
            keys: ['x'],
            props: { x: { type: 'object', value: { $shape: 'array', length: 1, elements: [true] } } },
          },
        },
        self: { type: 'object', value: { $shape: 'cycle' } },
        get: { type: 'getter' },
        ['__proto__']: { type: 'string', value: 'own' },
      },
    });
    // Depth 0 is the value itself: four levels are walked, the fifth is named only.
    assert.deepEqual(v.deep, {
      $shape: 'array',
      length: 1,
      elements: [
        {
          $shape: 'array',
          length: 1,
          elements: [
            { $shape: 'array', length: 1, elements: [{ $shape: 'array', length: 1, elements: [{ $shape: 'array', length: 1 }] }] },
          ],
        },
      ],
    });
    assert.equal(v.long.length, 70);
    assert.deepEqual(
      v.long.elements,
      Array.from({ length: 64 }, (_, i) => i),
    );
  });

  test('a function walks as a "function" shape (own key order is per engine: Firefox lists prototype first)', async () => {
    const traces = await trace("trace.value('fn', function f(a, b) {}); trace.done();");
    for (const engine of ENGINE_NAMES) {
      const fn = traces[engine]!.records[0].value;
      assert.equal(fn.$shape, 'function');
      assert.deepEqual([...fn.keys].sort(), ['length', 'name', 'prototype'], engine);
      assert.deepEqual(fn.props.length, { type: 'number', value: 2 });
      assert.deepEqual(fn.props.name, { type: 'string', value: 'f' });
    }
  });
});

describe('completion', () => {
  test('trace.done() ends the trace: later calls record nothing', async () => {
    const traces = await trace("trace.value('a', 1); trace.done(); trace.value('b', 2);");
    for (const t of Object.values(traces)) assert.equal(t.timed_out, false);
    assert.deepEqual(sameRecords(traces), [{ kind: 'value', label: 'a', value: 1 }]);
  });

  test('a trace that never calls done() ends at the fixed timeout, marked timed out', async () => {
    const traces = await trace("trace.value('a', 1);");
    for (const t of Object.values(traces)) assert.equal(t.timed_out, true);
    assert.deepEqual(sameRecords(traces), [{ kind: 'value', label: 'a', value: 1 }]);
  });

  test('timeout_ms moves the completion timeout, later or sooner', async () => {
    const late = await oracle.request({
      id: `trace-${seq++}`,
      op: 'trace',
      timeout_ms: 30_000,
      script: "trace.value('a', 1); setTimeout(() => trace.done(), 6000);",
    });
    assert.equal(late.errors, undefined, JSON.stringify(late.errors));
    for (const t of Object.values(late.traces) as Line[]) assert.equal(t.timed_out, false, 'done() came after the default 5000 ms');
    const soon = await oracle.request({ id: `trace-${seq++}`, op: 'trace', timeout_ms: 100, script: "trace.value('a', 1);" });
    for (const t of Object.values(soon.traces) as Line[]) assert.equal(t.timed_out, true);
  });

  test("the completion clock starts with the script: a page slower to load than timeout_ms takes none of the trace's time", async () => {
    // The page busies itself for 2 s as it loads, past a 1 s timeout_ms: a clock started at the
    // recorder's install would end the trace before its script ran, whatever the machine's speed.
    const slow = await oracle.request({
      id: `trace-${seq++}`,
      op: 'trace',
      timeout_ms: 1000,
      html: '<script>const t=Date.now();while(Date.now()-t<2000);</script>',
      script: "trace.value('ran', 1); trace.done();",
    });
    assert.equal(slow.errors, undefined, JSON.stringify(slow.errors));
    for (const t of Object.values(slow.traces) as Line[]) {
      assert.equal(t.timed_out, false, t.engine);
      assert.deepEqual(t.records, [{ seq: 0, kind: 'value', label: 'ran', value: 1 }], t.engine);
    }
  });

  test('a script that throws synchronously is recorded, not fatal', async () => {
    const traces = await trace("trace.value('before', 1); setTimeout(() => trace.done(), 0); undefinedFunction();");
    for (const t of Object.values(traces)) assert.equal(t.timed_out, false);
    assert.deepEqual(sameRecords(traces), [
      { kind: 'value', label: 'before', value: 1 },
      { kind: 'error', label: 'script', name: 'ReferenceError' },
    ]);
  });

  test('a script that does not parse is recorded as a SyntaxError', async () => {
    // Nothing of such a script runs, done() included: the trace ends at the timeout.
    const traces = await trace("trace.value('a', 1); )");
    for (const t of Object.values(traces)) assert.equal(t.timed_out, true);
    assert.deepEqual(sameRecords(traces), [{ kind: 'error', label: 'script', name: 'SyntaxError' }]);
  });
});

describe('a case cannot bend its records', () => {
  test('defining toJSON, or replacing Promise.prototype.then or the array iterator, changes nothing the recorder wrote', async () => {
    const traces = await trace(
      "Object.prototype.toJSON = Array.prototype.toJSON = function () { return { seq: 0, kind: 'value', label: 'forged', value: 'PASS' }; };" +
        "const then = Promise.prototype.then; Promise.prototype.then = function (f, r) { return then.call(this, f && (() => f('PASS')), r); };" +
        "Array.prototype[Symbol.iterator] = function* () { yield 'forged'; };" +
        "trace.value('real', [{ a: 'FAIL' }]); trace.settle('settled', Promise.resolve('FAIL')); setTimeout(() => trace.done(), 20);",
    );
    assert.deepEqual(sameRecords(traces), [
      {
        kind: 'value',
        label: 'real',
        value: {
          $shape: 'array',
          length: 1,
          elements: [{ $shape: 'object', keys: ['a'], props: { a: { type: 'string', value: 'FAIL' } } }],
        },
      },
      { kind: 'settle', label: 'settled', state: 'fulfilled', value: 'FAIL' },
    ]);
  });

  test("a page that replaced what WebKitGTK's WebDriver runs on while it loaded is page_tampered there, and traced elsewhere", async () => {
    const response = await oracle.request({
      id: `trace-${seq++}`,
      op: 'trace',
      html: "<script>const then = Promise.prototype.then; Promise.prototype.then = function (f, r) { return then.call(this, f && (() => f('PASS')), r); };</script>",
      script: "trace.value('real', 'FAIL'); trace.done();",
    });
    assert.match(String(response.errors?.webkit), /^page_tampered: .*then/);
    assert.deepEqual(Object.keys(response.traces), ['chromium', 'firefox']);
    for (const t of Object.values(response.traces) as Line[])
      assert.deepEqual(t.records, [{ seq: 0, kind: 'value', label: 'real', value: 'FAIL' }]);
  });
});

describe('origin', () => {
  let port: number;
  /** Each engine's own trace page, finished. */
  let finishedPaths: string[];

  before(async () => {
    const traces = await trace(
      "trace.value('href', location.href); trace.value('storage', localStorage.length); localStorage.setItem('k', 'v'); trace.done();",
    );
    const hrefs = Object.values(traces).map((t) => new URL(values(t.records).href as string));
    port = Number(hrefs[0]!.port);
    finishedPaths = hrefs.map((url) => url.pathname);
    for (const t of Object.values(traces)) {
      assert.equal(t.origin, `http://localhost:${port}`);
      assert.equal(t.is_secure_context, true);
      assert.equal(values(t.records).storage, 0);
    }
  });

  test('every engine runs its own copy of a trace on http://localhost:<port>, a secure context, at a path of 128 random bits', () => {
    for (const path of finishedPaths) assert.match(path, /^\/trace\/[0-9a-f]{32}$/);
    assert.equal(new Set(finishedPaths).size, finishedPaths.length);
  });

  test('a later trace starts with empty storage', async () => {
    const traces = await trace("trace.value('storage', localStorage.length); trace.done();");
    assert.deepEqual(sameRecords(traces), [{ kind: 'value', label: 'storage', value: 0 }]);
  });
});

test('vote: true answers with the trace vote, taken beside the engines: the one the traces themselves give', async () => {
  const id = `trace-${seq++}`;
  // A record one engine answers otherwise than the two others.
  const response = await oracle.request({
    id,
    op: 'trace',
    script: "trace.value('same', 1); trace.value('ua', navigator.userAgent.includes('Firefox')); trace.done();",
    vote: true,
  });
  assert.ok(checkResponse.Check(response), JSON.stringify([...checkResponse.Errors(response)].slice(0, 3)));
  assert.deepEqual(Object.keys(response), ['id', 'traces', 'vote'], JSON.stringify(response.errors));
  const { vote: _, ...traces } = response;
  const given = response.vote as Line;
  assert.deepEqual(given, JSON.parse(JSON.stringify(vote(traces as TraceResponse))));
  assert.equal(given.verdict, 'outlier');
  assert.equal(given.outlier, 'firefox');
  assert.deepEqual(
    given.records.map((r: Line) => [r.seq, r.labels]),
    [[1, ['ua']]],
  );
  const engineless = await oracle.request({ id: `trace-${seq++}`, op: 'trace', script: 'trace.done()', engines: ['webkit'], vote: true });
  assert.equal(engineless.vote.verdict, 'insufficient', 'one engine: no three-way vote, still a vote');
});
