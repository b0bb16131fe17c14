// The stdio oracle on the three real engines: contract conformance, scripts, engine
// subsets, bad input, hangs, isolation between cases and determinism.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { GeometryResponseSchema } from '../../src/protocol/geometry-schema.js';
import { DumpSchema, ENGINE_NAMES, STYLE_PROPERTIES } from '../../src/protocol/schema.js';
import { ONE_PAGE, OracleProcess, isAlive, type Line } from '../support/oracle-process.js';

const checkDump = TypeCompiler.Compile(DumpSchema);
const checkResponse = TypeCompiler.Compile(GeometryResponseSchema);
/** Generous (the shipped default): only the hanging case may reach it, whatever else loads the machine. */
const TIMEOUT_MS = 30_000;

let oracle: OracleProcess;
let versions: Record<string, string>;
let seq = 0;
const run = (html: string, extra: Line = {}) => oracle.request({ id: `case-${seq++}`, html, ...extra });

before(async () => {
  // Two workers, each with one page per engine: a second page per worker serves nothing these tests
  // need, and costs its launch (ONE_PAGE says how much).
  oracle = new OracleProcess(['--workers=2', '--pages=1', `--timeout-ms=${TIMEOUT_MS}`]);
  const ping = await oracle.ready();
  versions = ping.versions;
});

/**
 * One worker with one page per engine, started by the first test that needs it: the polluting and
 * detecting cases share its page, and its dumps are held to the two workers'. Shared, since what
 * a case leaves behind reaching a later one is exactly what the isolation test says never happens.
 */
let singleOracle: Promise<OracleProcess> | undefined;
const single = (): Promise<OracleProcess> =>
  (singleOracle ??= (async () => {
    const o = new OracleProcess(ONE_PAGE);
    await o.ready();
    return o;
  })());

after(async () => {
  await Promise.all([oracle.shutdown(), singleOracle?.then((o) => o.shutdown())]);
});

function nodesOf(response: Line, engine: string) {
  return response.dumps[engine].nodes as Line[];
}

describe('contract', () => {
  test('ping names the three engines, their driver-reported versions, the profile, and (additively) the fonts, the locale and time zone, the network isolation and the executables', async () => {
    const ping = await oracle.request({ id: 'p1', op: 'ping' });
    assert.deepEqual(Object.keys(ping), ['id', 'ok', 'engines', 'versions', 'profile', 'fonts', 'locale', 'timezone', 'network', 'paths']);
    assert.equal(ping.locale, 'en-US');
    assert.equal(ping.timezone, 'UTC');
    assert.equal(ping.network, 'namespace', 'run as users run it, the oracle has a network namespace of its own');
    assert.deepEqual(Object.keys(ping.paths).sort(), ['chromium', 'firefox', 'miniBrowser', 'webkitDriver']);
    for (const path of Object.values(ping.paths) as string[]) assert.ok(isAbsolute(path) && existsSync(path), path);
    assert.deepEqual(ping.engines, [...ENGINE_NAMES]);
    assert.equal(ping.profile, 'default');
    assert.equal(ping.fonts, 'liberation');
    assert.match(ping.versions.chromium, /^\d+\.\d+\.\d+\.\d+$/);
    assert.match(ping.versions.firefox, /^\d+\.\d+/);
    assert.match(ping.versions.webkit, /^2\.\d+\.\d+$/);
  });

  test('the README example answers with three conforming dumps in the contract key order', async () => {
    const response = await oracle.request({ id: 'hello', html: '<p>hi</p>' });
    assert.ok(checkResponse.Check(response), JSON.stringify([...checkResponse.Errors(response)].slice(0, 3)));
    assert.deepEqual(Object.keys(response), ['id', 'dumps']);
    assert.deepEqual(Object.keys(response.dumps), [...ENGINE_NAMES]);
    for (const engine of ENGINE_NAMES) {
      const dump = response.dumps[engine] as Line;
      assert.ok(checkDump.Check(dump));
      assert.deepEqual(Object.keys(dump), ['engine', 'engine_version', 'viewport', 'overflowed', 'nodes']);
      assert.equal(dump.engine, engine);
      assert.equal(dump.engine_version, versions[engine]);
      assert.deepEqual(dump.viewport, { width: 800, height: 600 });
      assert.equal(dump.overflowed, false);
      assert.deepEqual(
        dump.nodes.map((n: Line) => n.tag),
        ['HTML', 'HEAD', 'BODY', 'P'],
      );
      assert.deepEqual(
        dump.nodes.map((n: Line) => [n.index, n.parent, n.depth]),
        [
          [0, -1, 0],
          [1, 0, 1],
          [2, 0, 1],
          [3, 2, 2],
        ],
      );
      for (const node of dump.nodes) {
        assert.deepEqual(Object.keys(node), ['index', 'parent', 'tag', 'depth', 'bounding', 'rects', 'style']);
        assert.deepEqual(Object.keys(node.style), [...STYLE_PROPERTIES]);
        assert.deepEqual(Object.keys(node.bounding), ['x', 'y', 'w', 'h']);
      }
      const [, head, , p] = dump.nodes;
      assert.deepEqual(head.rects, [], `${engine}: <head> generates no box`);
      assert.deepEqual(head.bounding, { x: 0, y: 0, w: 0, h: 0 });
      assert.equal(head.style.display, 'none');
      assert.equal(p.rects.length, 1);
      assert.equal(p.bounding.w, 784);
    }
  });

  test('coordinates keep full double precision and inline fragments are listed in content order', async () => {
    const response = await run(
      '<!doctype html><div style="width:103px;font:16px monospace"><span>aaaa bbbb cccc dddd eeee</span></div><div style="width:33.333px;height:10.125px"></div>',
    );
    for (const engine of ENGINE_NAMES) {
      const nodes = nodesOf(response, engine);
      const span = nodes.find((n) => n.tag === 'SPAN')!;
      assert.ok(span.rects.length >= 3, `${engine}: the span wraps into several fragments`);
      const ys = span.rects.map((r: Line) => r.y);
      assert.deepEqual(
        ys,
        [...ys].sort((a, b) => a - b),
      );
      const box = nodes.filter((n) => n.tag === 'DIV')[1]!;
      assert.ok(
        Math.abs(box.bounding.w - 33.333) < 1 / 60 && box.bounding.w !== 33,
        `${engine}: fractional width kept (${box.bounding.w})`,
      );
      assert.ok(Math.abs(box.bounding.h - 10.125) < 1 / 60);
    }
  });

  test('overflowed is true when the document scrolls, in every engine', async () => {
    const tall = await run('<!doctype html><div style="height:2000px"></div>');
    const wide = await run('<!doctype html><div style="width:3000px;height:10px"></div>');
    for (const engine of ENGINE_NAMES) {
      assert.equal(tall.dumps[engine].overflowed, true, `${engine} tall`);
      assert.equal(wide.dumps[engine].overflowed, true, `${engine} wide`);
    }
  });

  test('the generic font families resolve to the same fonts in every engine', async () => {
    const families = ['serif', 'sans-serif', 'monospace', 'Times New Roman', 'Arial', 'Courier New', 'NoSuchFamily'];
    const html =
      `<!doctype html>${families.map((f) => `<div><span style="font:16px '${f}'">Hamburgefonstiv 0123</span></div>`).join('')}`.replace(
        /'(serif|sans-serif|monospace)'/g,
        '$1',
      );
    const response = await run(html);
    const widths = (engine: string) =>
      nodesOf(response, engine)
        .filter((n) => n.tag === 'SPAN')
        .map((n) => n.bounding.w);
    for (const engine of ENGINE_NAMES) {
      const [serif, sans, mono, times, arial, courier, unknown] = widths(engine);
      assert.ok(Math.abs(serif! - sans!) > 5 && Math.abs(sans! - mono!) > 5, `${engine}: three distinct generic fonts`);
      assert.deepEqual([times, arial, courier], [serif, sans, mono], `${engine}: the common names alias the generic fonts`);
      assert.equal(unknown, serif, `${engine}: text in an unknown family falls back to serif`);
    }
    // Chromium and Firefox measure the same glyph advances (up to Gecko's 1/60 px rounding of a
    // run). WebKitGTK at device pixel ratio 1 rounds each advance to a whole pixel (Skia without
    // subpixel positioning), so its widths stay within half a pixel per glyph of the others.
    const reference = widths('chromium');
    for (const [i, w] of widths('firefox').entries())
      assert.ok(Math.abs(w - reference[i]!) < 0.1, `firefox ${families[i]}: ${w} vs ${reference[i]}`);
    for (const [i, w] of widths('webkit').entries())
      assert.ok(Math.abs(w - reference[i]!) < 0.5 * 20, `webkit ${families[i]}: ${w} vs ${reference[i]}`);
  });

  test('engines selects a subset, in any order', async () => {
    const response = await run('<p>x</p>', { engines: ['webkit', 'firefox'] });
    assert.deepEqual(Object.keys(response.dumps), ['firefox', 'webkit']);
    assert.equal(response.errors, undefined);
  });

  test('script runs after load and before the walk; the walk waits for web fonts', async () => {
    const response = await run('<div id=a><span id=b></span></div>', {
      script:
        "document.getElementById('a').appendChild(document.createElement('b')); document.getElementById('b').textContent = document.readyState;",
    });
    for (const engine of ENGINE_NAMES) {
      assert.deepEqual(
        nodesOf(response, engine).map((n) => n.tag),
        ['HTML', 'HEAD', 'BODY', 'DIV', 'SPAN', 'B'],
      );
      assert.ok(nodesOf(response, engine)[4]!.bounding.w > 0, `${engine}: the span holds "complete"`);
    }
  });

  test("a script that throws is that engine's script_error; the next case is served", async () => {
    const response = await run('<p>x</p>', { script: 'null.f()' });
    assert.deepEqual(response.dumps, {});
    for (const engine of ENGINE_NAMES) assert.match(response.errors[engine], /^script_error: .*TypeError/);
    const next = await run('<p>x</p>');
    assert.deepEqual(Object.keys(next.dumps), [...ENGINE_NAMES]);
  });
});

describe('vote op', () => {
  test('answers with the three-way vote instead of the dumps, and with both when asked', async () => {
    // One line of default serif text: Gecko's line box is 19 px, Blink's and WebKit's 18 px.
    const html = '<!doctype html><p>Hello world</p>';
    const vote = await oracle.request({ id: 'vote-1', op: 'vote', html });
    assert.deepEqual(Object.keys(vote), ['id', 'vote']);
    assert.equal(vote.vote.verdict, 'outlier');
    assert.equal(vote.vote.outlier, 'firefox');
    assert.deepEqual(vote.vote.majority, ['chromium', 'webkit']);
    const withDumps = await oracle.request({ id: 'vote-2', op: 'vote', html, dumps: true });
    assert.deepEqual(Object.keys(withDumps), ['id', 'vote', 'dumps']);
    const plain = await run(html);
    assert.deepEqual(withDumps.dumps, plain.dumps, 'the vote was taken on the same dumps a geometry request gets');
    const agreed = await oracle.request({ id: 'vote-3', op: 'vote', html: '<!doctype html><div style="width:10px;height:10px"></div>' });
    assert.equal(agreed.vote.verdict, 'unanimous');
  });

  test('fewer than three usable engines is insufficient, never a pass', async () => {
    const pair = await oracle.request({ id: 'vote-4', op: 'vote', html: '<p>x</p>', engines: ['chromium', 'webkit'] });
    assert.equal(pair.vote.verdict, 'insufficient');
  });

  test('a page taller than the viewport is judged: its scrollbars take no room, and its dumps still say overflowed', async () => {
    const html = '<!doctype html><div style="height:5000px"></div>';
    const overflowed = await oracle.request({ id: 'vote-5', op: 'vote', html, dumps: true });
    assert.equal(overflowed.vote.verdict, 'unanimous');
    for (const engine of ENGINE_NAMES) {
      assert.equal(overflowed.vote.engines[engine].status, 'usable');
      assert.equal(overflowed.dumps[engine].overflowed, true);
      assert.equal(overflowed.dumps[engine].nodes[0].bounding.w, 800, `${engine}: the root keeps the viewport's whole width`);
    }
  });
});

describe('bad input', () => {
  const garbage: [string, string | null, RegExp][] = [
    ['{not json', null, /^invalid_json/],
    ['42', null, /^invalid_request: the line must be a JSON object/],
    ['{"html":"<p>"}', null, /field "id"/],
    ['{"id":"g1","html":["<p>"]}', 'g1', /field "html": expected string/],
    ['{"id":"g2","html":"<p>","zoom":2}', 'g2', /field "zoom": unknown field/],
    ['{"id":"g3","op":"dance"}', 'g3', /field "op": unknown op "dance"/],
    ['{"id":"g4","html":"<p>","engines":["netscape"]}', 'g4', /field "engines\[0\]": must be one of/],
    ['{"id":"g5","html":"<p>","engines":[]}', 'g5', /field "engines": must not be empty/],
  ];
  for (const [line, id, message] of garbage) {
    test(`${line} → one error line, and the oracle keeps serving`, async () => {
      const before = oracle.lines.length;
      oracle.sendRaw(line + '\n');
      const ping = await oracle.request({ id: `after-${line}`, op: 'ping' });
      assert.equal(ping.ok, true);
      const answered = oracle.lines.slice(before).filter((l) => l !== ping);
      assert.equal(answered.length, 1);
      assert.deepEqual(Object.keys(answered[0]!), ['id', 'error']);
      assert.equal(answered[0]!.id, id);
      assert.match(answered[0]!.error, message);
    });
  }

  test('invalid UTF-8 → an invalid_json error line', async () => {
    const before = oracle.lines.length;
    oracle.sendRaw(Buffer.concat([Buffer.from('{"id":"u'), Buffer.from([0xc3, 0x28]), Buffer.from('","html":""}\n')]));
    await oracle.request({ id: 'after-utf8', op: 'ping' });
    assert.match(oracle.lines[before]!.error, /^invalid_json: the line is not valid UTF-8/);
  });
});

describe('hangs and isolation', () => {
  test('a case that hangs every engine gets case_timeout from each, and the next case is served normally', async () => {
    const hung = await run('<!doctype html><p>before</p><script>while (true) {}</script>');
    assert.deepEqual(hung.dumps, {});
    for (const engine of ENGINE_NAMES)
      assert.match(hung.errors[engine], new RegExp(`^case_timeout: no answer from ${engine} within ${TIMEOUT_MS} ms`));
    const next = await run('<!doctype html><p>after</p>');
    assert.deepEqual(Object.keys(next.dumps), [...ENGINE_NAMES], JSON.stringify(next.errors));
  });

  test('nothing a case does reaches the next one: globals, timers, listeners, storage, styles, scroll, focus', async () => {
    // One page per engine, so the polluting case and the detecting ones share it.
    const one = await single();
    const run = (html: string, extra: Line) => one.request({ id: `iso-${seq++}`, html, ...extra });
    const probe = '<!doctype html><input id=i><div id=d style="height:50px"></div>';
    const detector = `
      const leaks = [typeof window.leaked, document.querySelectorAll('style,[data-leak]').length, scrollY, document.activeElement === document.body];
      let stored = 'blocked'; try { stored = String(localStorage.getItem('leak')) + String(document.cookie); } catch (e) { stored = e.name; }
      document.getElementById('d').style.height = (leaks[0] === 'undefined' && leaks[1] === 0 && leaks[2] === 0 && leaks[3] && stored !== 'xleak=1' && stored !== 'x') ? '50px' : '77px';`;
    const clean = await run(probe, { script: detector });
    const polluter = `
      window.leaked = 1; setTimeout(() => document.body.appendChild(document.createElement('i')).dataset.leak = 1, 0);
      setInterval(() => { const s = document.createElement('style'); s.textContent = 'div{height:9px!important}'; document.head.appendChild(s); }, 1);
      addEventListener('load', () => { window.leaked = 2; });
      try { localStorage.setItem('leak', 'x'); document.cookie = 'leak=1'; } catch (e) {}
      document.body.style.height = '5000px'; scrollTo(0, 999); document.getElementById('i').focus();`;
    await run(probe, { script: polluter });
    await new Promise((r) => setTimeout(r, 50));
    const afterPolluting = await run(probe, { script: detector });
    for (const engine of ENGINE_NAMES) {
      assert.equal(nodesOf(clean, engine).find((n) => n.tag === 'DIV')!.bounding.h, 50, `${engine}: the detector sees a clean page`);
      assert.deepEqual(afterPolluting.dumps[engine], clean.dumps[engine], `${engine}: identical to the clean run`);
    }
  });
});

describe('determinism', () => {
  const cases = [
    '<!doctype html><style>body{font:15px serif}.f{display:flex;gap:3.3px}.f>*{flex:1}</style><div class=f><p>one two three</p><p>four</p><span>5</span></div>',
    '<table border=1><tr><td>a<td>bb<tr><td colspan=2>cccc dddd eeee</table><p style="float:left;width:33%">float</p><p>text beside a float, long enough to wrap around it several times over</p>',
    '<!doctype html><div style="writing-mode:vertical-rl;height:200px">vertical text runs here</div><div style="position:absolute;left:10.5px;top:20.25px;width:50%">abs</div>',
  ];

  test('the same case twice, and pipelined, gives identical dumps', async () => {
    const first = await Promise.all(cases.map((html) => run(html)));
    const second = await Promise.all(cases.map((html) => run(html)));
    for (const [i, response] of first.entries()) assert.deepEqual(second[i]!.dumps, response.dumps);
    for (const r of first) assert.deepEqual(Object.keys(r.dumps), [...ENGINE_NAMES]);
  });

  test('a script-free case written into a clean page dumps exactly as a fresh navigation does', async () => {
    // An empty script forces the navigation path without changing the document.
    for (const html of cases) {
      const [fast, navigated] = await Promise.all([run(html), run(html, { script: '' })]);
      assert.deepEqual(fast.dumps, navigated.dumps);
    }
  });

  test('script the fast path cannot see in the markup still runs: the parsed DOM sends the case to navigation', async () => {
    // No whitespace before the handler attribute (a parse error browsers accept), so only the DOM check notices it.
    const response = await run(`<!doctype html><img src="missing.png"onerror="document.body.appendChild(document.createElement('b'))">`);
    for (const engine of ENGINE_NAMES)
      assert.deepEqual(
        nodesOf(response, engine).map((n) => n.tag),
        ['HTML', 'HEAD', 'BODY', 'IMG', 'B'],
        engine,
      );
    const clean = await run('<!doctype html><p>next</p>');
    for (const engine of ENGINE_NAMES)
      assert.deepEqual(
        nodesOf(clean, engine).map((n) => n.tag),
        ['HTML', 'HEAD', 'BODY', 'P'],
        engine,
      );
  });

  test('one worker and two workers give identical dumps', async () => {
    const one = await single();
    for (const [i, html] of cases.entries()) {
      const [a, b] = await Promise.all([run(html), one.request({ id: `single-${i}`, html })]);
      assert.deepEqual(b.dumps, a.dumps);
    }
  });

  test('many pipelined requests are each answered once, by id', async () => {
    const ids = Array.from({ length: 24 }, (_, i) => `burst-${i}`);
    const answers = await Promise.all(ids.map((id, i) => oracle.request({ id, html: `<p>${'word '.repeat(i)}</p>` })));
    assert.deepEqual(
      answers.map((a) => a.id),
      ids,
    );
    for (const id of ids) assert.equal(oracle.lines.filter((l) => l.id === id).length, 1);
  });
});

describe('lifecycle', () => {
  test('an engine that is not launched is left out of ping and named in errors', async () => {
    const chromiumOnly = new OracleProcess(['--engines=chromium', '--workers=1']);
    try {
      const ping = await chromiumOnly.ready();
      assert.deepEqual(ping.engines, ['chromium']);
      assert.deepEqual(Object.keys(ping.versions), ['chromium']);
      const response = await chromiumOnly.request({ id: 'nl', html: '<p>x</p>', engines: ['chromium', 'webkit'] });
      assert.deepEqual(Object.keys(response.dumps), ['chromium']);
      assert.deepEqual(response.errors, { webkit: 'engine_not_launched: engine not launched' });
    } finally {
      await chromiumOnly.shutdown();
    }
  });

  test('shutdown answers, closes every browser, driver and Xvfb, and exits 0', async () => {
    const doomed = new OracleProcess(['--workers=1']);
    await doomed.ready();
    const children = doomed.descendants();
    assert.ok(children.length >= 5, `browsers, drivers and Xvfb are running (${children.length} processes)`);
    const answer = doomed.response('__shutdown');
    assert.equal(await doomed.shutdown(), 0, doomed.stderr);
    assert.deepEqual(await answer, { id: '__shutdown', ok: true });
    assert.deepEqual(children.filter(isAlive), [], 'no process outlives the oracle');
    assert.doesNotMatch(doomed.stderr, /left behind by the engines/, 'every engine closed in order, without the reaper');
  });
});
