// The reflect op on the three real engines: the canonical value forms, probe order, script
// mutations, selectors that do not resolve, validation of probes, engine subsets.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ReflectResponseSchema, type ReflectResponse, type ReflectState } from '../../src/protocol/reflect-schema.js';
import { ENGINE_NAMES, type EngineName } from '../../src/protocol/schema.js';
import { vote } from '../../src/api/judge.js';
import { ONE_PAGE, OracleProcess, type Line } from '../support/oracle-process.js';

const checkResponse = TypeCompiler.Compile(ReflectResponseSchema);

let oracle: OracleProcess;
let versions: Record<string, string>;
let seq = 0;
const reflect = (fields: Line) => oracle.request({ id: `reflect-${seq++}`, op: 'reflect', ...fields });

before(async () => {
  oracle = new OracleProcess(ONE_PAGE);
  versions = (await oracle.ready()).versions;
});

after(async () => {
  await oracle.shutdown();
});

/** Asserts a conforming answer from every engine, and that they all observed the same; returns those observations. */
function agreed(response: Line, engines: readonly EngineName[] = ENGINE_NAMES): Line[] {
  assert.ok(checkResponse.Check(response), JSON.stringify([...checkResponse.Errors(response)].slice(0, 3)) + JSON.stringify(response));
  assert.deepEqual(Object.keys(response), ['id', 'states'], JSON.stringify(response.errors));
  assert.deepEqual(Object.keys(response.states), engines);
  for (const engine of engines) {
    const state: ReflectState = response.states[engine]!;
    assert.deepEqual(Object.keys(state), ['engine', 'engine_version', 'observations']);
    assert.equal(state.engine, engine);
    assert.equal(state.engine_version, versions[engine]);
    for (const o of state.observations) assert.deepEqual(Object.keys(o), ['selector', 'attr', 'attr_value', 'idl', 'idl_value']);
  }
  const [first, ...rest] = engines.map((e) => response.states[e]!.observations);
  for (const other of rest) assert.deepEqual(other, first);
  return first!;
}

/** [attr_value, idl_value] per observation. */
const values = (observations: Line[]) => observations.map((o) => [o.attr_value, o.idl_value]);

describe('canonical values', () => {
  test('strings, an absent attribute, numbers and booleans come back as JSON scalars; idl defaults to attr', async () => {
    const observations = agreed(
      await reflect({
        html: '<!doctype html><input id=a type=CHECKBOX maxlength=12 disabled><a id=b>x</a>',
        probes: [
          { selector: '#a', attr: 'type' },
          { selector: '#b', attr: 'title' },
          { selector: '#a', attr: 'maxlength', idl: 'maxLength' },
          { selector: '#a', attr: 'size' },
          { selector: '#a', attr: 'disabled' },
          { selector: '#b', attr: 'hidden' },
        ],
      }),
    );
    assert.deepEqual(observations[0], { selector: '#a', attr: 'type', attr_value: 'CHECKBOX', idl: 'type', idl_value: 'checkbox' });
    assert.deepEqual(values(observations), [
      ['CHECKBOX', 'checkbox'],
      [null, ''],
      ['12', 12],
      [null, 20],
      ['', true],
      [null, false],
    ]);
  });

  test('NaN and a property the element does not have are spelled out, never null', async () => {
    const observations = agreed(
      await reflect({
        html: '<!doctype html><input id=a type=number><div id=b></div>',
        probes: [
          { selector: '#a', attr: 'value', idl: 'valueAsNumber' },
          { selector: '#a', attr: 'maxlength', idl: 'maxLenght' },
          { selector: '#b', attr: 'disabled' },
          { selector: '#a', attr: 'form' },
        ],
      }),
    );
    assert.deepEqual(values(observations), [
      [null, { $num: 'NaN' }],
      [null, { $undefined: true }],
      [null, { $undefined: true }],
      [null, null],
    ]);
  });

  test("what a case plants or replaces is not read: the engine's own accessor is", async () => {
    // The forms JSON cannot carry (infinities, -0) are the page code's, tested in test/unit/page-text.test.ts.
    const observations = agreed(
      await reflect({
        html: '<!doctype html><div id=a class="x y"></div>',
        script:
          "const a = document.getElementById('a'); a.up = Infinity; a.zero = -0;" +
          "Object.defineProperty(a, 'boom', { get() { throw new RangeError('no'); } });" +
          "Object.defineProperty(Element.prototype, 'className', { get() { return 'forged'; } });" +
          "Object.defineProperty(HTMLElement.prototype, 'hidden', { get() { throw new RangeError('forged'); } });",
        probes: ['up', 'zero', 'boom', 'className', 'hidden', 'classList', 'click'].map((idl) => ({ selector: '#a', attr: 'class', idl })),
      }),
    );
    assert.deepEqual(
      observations.map((o) => o.idl_value),
      [
        { $undefined: true },
        { $undefined: true },
        { $undefined: true },
        'x y',
        false,
        { $object: 'DOMTokenList' },
        { $object: 'Function' },
      ],
    );
  });
});

test('observations follow the probe order, repeats included', async () => {
  const probes = [
    { selector: '#c', attr: 'for', idl: 'htmlFor' },
    { selector: '#a', attr: 'class', idl: 'className' },
    { selector: '#c', attr: 'for', idl: 'htmlFor' },
    { selector: '#b', attr: 'colspan', idl: 'colSpan' },
  ];
  const observations = agreed(
    await reflect({
      html: '<!doctype html><div id=a class=k></div><table><tr><td id=b colspan=0></table><label id=c for=a></label>',
      probes,
    }),
  );
  assert.deepEqual(
    observations.map((o) => [o.selector, o.attr, o.idl]),
    probes.map((p) => [p.selector, p.attr, p.idl]),
  );
  assert.deepEqual(values(observations), [
    ['a', 'a'],
    ['k', 'k'],
    ['a', 'a'],
    ['0', 1],
  ]);
});

test('the script runs before the probes: its mutations are what is observed', async () => {
  const observations = agreed(
    await reflect({
      html: '<!doctype html><input id=a maxlength=3 disabled>',
      script:
        "const a = document.getElementById('a'); a.removeAttribute('maxlength'); a.disabled = false; a.setAttribute('value', '5'); a.tabIndex = 4;",
      probes: [
        { selector: '#a', attr: 'maxlength', idl: 'maxLength' },
        { selector: '#a', attr: 'disabled' },
        { selector: '#a', attr: 'value' },
        { selector: '#a', attr: 'tabindex', idl: 'tabIndex' },
      ],
    }),
  );
  assert.deepEqual(values(observations), [
    [null, -1],
    [null, false],
    ['5', '5'],
    ['4', 4],
  ]);
});

test('html may be omitted: the probes read an element the script made', async () => {
  const observations = agreed(
    await reflect({
      script: "const b = document.createElement('button'); b.id = 'made'; b.type = 'reset'; document.body.append(b);",
      probes: [{ selector: '#made', attr: 'type' }],
    }),
  );
  assert.deepEqual(values(observations), [['reset', 'reset']]);
});

test('a selector that does not resolve is each engine’s error, naming the selector', async () => {
  const missing = await reflect({
    html: '<!doctype html><p id=a>',
    probes: [
      { selector: '#a', attr: 'id' },
      { selector: '#nope', attr: 'id' },
    ],
  });
  assert.deepEqual(missing.states, {});
  assert.deepEqual(Object.keys(missing.errors), [...ENGINE_NAMES]);
  for (const engine of ENGINE_NAMES) assert.equal(missing.errors[engine], 'selector_not_found: no element matches "#nope"');
  const invalid = await reflect({ html: '<!doctype html><p id=a>', probes: [{ selector: '#a[', attr: 'id' }] });
  for (const engine of ENGINE_NAMES) assert.equal(invalid.errors[engine], `selector_not_found: "#a[" is not a selector ${engine} accepts`);
});

test('a script that throws is a script_error', async () => {
  const response = await reflect({ html: '<p id=a>', script: "throw new TypeError('planted')", probes: [{ selector: '#a', attr: 'id' }] });
  assert.deepEqual(response.states, {});
  for (const engine of ENGINE_NAMES) assert.match(response.errors[engine], /^script_error: .*planted/);
});

test('engines picks the engines that answer', async () => {
  const observations = agreed(
    await reflect({ html: '<p id=a title=t>', probes: [{ selector: '#a', attr: 'title' }], engines: ['webkit', 'chromium'] }),
    ['chromium', 'webkit'],
  );
  assert.deepEqual(values(observations), [['t', 't']]);
});

test('bad probe shapes are rejected on a line of their own, naming the field', async () => {
  const cases: [Line, string][] = [
    [{}, 'field "probes": is required'],
    [{ probes: [] }, 'field "probes": must not be empty'],
    [{ probes: { selector: '#a', attr: 'x' } }, 'field "probes": expected array'],
    [{ probes: [{ selector: 5, attr: 'x' }] }, 'field "probes[0].selector": expected string'],
    [{ probes: [{ selector: '#a', attr: 'x' }, { selector: '#a' }] }, 'field "probes[1].attr": is required'],
    [{ probes: [{ selector: '#a', attr: 'x', idl: null }] }, 'field "probes[0].idl": expected string'],
    [{ probes: [{ selector: '#a', attr: 'x', property: 'y' }] }, 'field "probes[0].property": unknown field'],
    [{ probes: [{ selector: '', attr: 'x' }] }, 'field "probes[0].selector": expected string length greater or equal to 1'],
    [{ html: 5, probes: [{ selector: '#a', attr: 'x' }] }, 'field "html": expected string'],
  ];
  for (const [fields, message] of cases) {
    const id = `bad-${seq++}`;
    const response = await oracle.request({ id, op: 'reflect', ...fields });
    assert.deepEqual(response, { id, error: `invalid_request: ${message}` }, JSON.stringify(fields));
  }
});

test('vote: true answers with the reflection vote, taken beside the engines: the one the states themselves give', async () => {
  const response = await reflect({
    html: '<!doctype html><input id=a maxlength=-1><p id=b title=t>',
    probes: [
      { selector: '#a', attr: 'maxlength', idl: 'maxLength' },
      { selector: '#b', attr: 'title' },
    ],
    vote: true,
  });
  assert.ok(checkResponse.Check(response), JSON.stringify([...checkResponse.Errors(response)].slice(0, 3)));
  assert.deepEqual(Object.keys(response), ['id', 'states', 'vote'], JSON.stringify(response.errors));
  const { vote: _, ...states } = response;
  const given = response.vote as Line;
  assert.deepEqual(given, JSON.parse(JSON.stringify(vote(states as ReflectResponse))));
  assert.deepEqual(
    given.observations.map((o: Line) => [o.attr, o.verdict]),
    [
      ['maxlength', 'unanimous'],
      ['title', 'unanimous'],
    ],
  );
});
