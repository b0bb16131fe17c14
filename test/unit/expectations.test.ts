// Known differences: the starter file on recorded responses (and variants derived from them), exact
// signatures, and the errors a bad --expect file gets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Expectations } from '../../src/campaign/loop/expectations.js';
import { CampaignError } from '../../src/campaign/campaign-error.js';
import type { CaseRequest } from '../../src/campaign/corpus/corpus.js';
import { bucketOf } from '../../src/comparator/signature.js';
import { voteGeometry, type EngineDumps } from '../../src/comparator/vote.js';
import { voteTraces } from '../../src/comparator/trace-vote.js';
import type { Dump } from '../../src/protocol/schema.js';
import { response } from '../fixtures/dumps/load.js';
import { DUMP_REQUESTS, page } from '../fixtures/dumps/requests.js';
import { traceResponse } from '../fixtures/traces/load.js';

const STARTER = fileURLToPath(new URL('../../../config/known-differences.json', import.meta.url));
const starter = Expectations.load(STARTER);

const HTML = {
  agree: DUMP_REQUESTS.agree.html,
  textLine: DUMP_REQUESTS['text-line'].html,
  split: DUMP_REQUESTS.split.html,
};

const geometry = (r: EngineDumps<Dump>, request: CaseRequest, expectations = starter) =>
  expectations.matches({ request, bucket: bucketOf({ op: 'geometry', vote: voteGeometry(r) }) });

test('the starter file loads', () => {
  assert.equal(starter.size, 3);
});

test("Firefox's taller line-height: normal is expected on a text block, when the text is known", () => {
  const request = { id: 'text-line', html: HTML.textLine };
  assert.equal(geometry(response('text-line'), request), 'gecko-line-height-normal-liberation');
  assert.equal(geometry(response('text-line'), { ...request, script: 'void 0' }), null, 'a script may change the DOM: text unknown');
  assert.equal(geometry(response('text-line'), { ...request, html: page('<p></p>') }), null, 'no text');
  assert.equal(
    geometry(response('text-line'), { ...request, html: page('<div>Hello</div>') }),
    null,
    'another element there: text unknown',
  );
});

test("Gecko's 1/60 px drift is expected below 0.1 px, and only then (derived: agree, firefox's last inner div moved)", () => {
  const moved = (dy: number) => {
    const r = response('agree');
    const div = r.dumps.firefox!.nodes[6]!;
    div.bounding.y += dy;
    div.rects[0]!.y += dy;
    return geometry(r, { id: 'agree', html: HTML.agree });
  };
  assert.equal(moved(0.05), 'gecko-layout-unit-drift');
  assert.equal(moved(0.5), null);
});

test("WebKitGTK's whole-pixel glyph advances are expected on text (derived: split, firefox given chromium's dumps)", () => {
  const r = response('split');
  r.dumps.firefox = { ...r.dumps.chromium!, engine: 'firefox' };
  const bucket = bucketOf({ op: 'geometry', vote: voteGeometry(r) })!;
  assert.deepEqual([bucket.verdict, bucket.outlier, bucket.first?.kind, bucket.first?.subjects], ['outlier', 'webkit', 'size', ['DIV']]);
  assert.equal(starter.matches({ request: { id: 'split', html: HTML.split }, bucket }), 'webkitgtk-whole-pixel-glyph-advances');
  assert.equal(geometry(response('split'), { id: 'split', html: HTML.split }), null, 'a split is no known difference');
});

test('exact signatures match any op; rules only geometry; the first entry that matches names the case', () => {
  const expectations = Expectations.parse(
    JSON.stringify({
      known: [
        { id: 'any-firefox', engine: 'firefox' },
        { id: 'trace-fn', signature: 'trace outlier firefox | value | fn' },
        { id: 'p-height', tag: ['p', 'div'], property: 'height' },
      ],
    }),
    'test',
  );
  const trace = traceResponse('outlier');
  const request: CaseRequest = { id: 't', op: 'trace', script: '' };
  assert.equal(expectations.matches({ request, bucket: bucketOf({ op: 'trace', vote: voteTraces(trace) }) }), 'trace-fn');
  assert.equal(geometry(response('text-line'), { id: 'x', html: HTML.textLine }, expectations), 'any-firefox');
  assert.equal(geometry(response('split'), { id: 'x', html: HTML.split }, expectations), 'p-height', 'tags compare without case');
  assert.equal(geometry(response('agree'), { id: 'x', html: HTML.agree }, expectations), null, 'unanimous');
});

test('a bad --expect file is a one-line error naming the field', () => {
  const error = (known: unknown[]) => {
    try {
      Expectations.parse(JSON.stringify({ known }), '--expect k.json');
    } catch (e) {
      assert.ok(e instanceof CampaignError);
      return e.message;
    }
    assert.fail('accepted');
  };
  assert.equal(
    error([{ id: 'a', engine: 'netscape' }]),
    '--expect k.json: field "known[0].engine": must be one of "chromium", "firefox", "webkit"',
  );
  assert.equal(
    error([{ id: 'a', engine: ['firefox', 'netscape'] }]),
    '--expect k.json: field "known[0].engine[1]": must be one of "chromium", "firefox", "webkit"',
  );
  assert.equal(
    error([{ id: 'a', kind: 'fragment' }]),
    '--expect k.json: field "known[0].kind": must be one of "shape", "fragment_count", "size", "offset"',
  );
  assert.equal(error([{ id: 'a', propety: 'height' }]), '--expect k.json: field "known[0].propety": unknown field');
  assert.equal(error([{ engine: 'webkit' }]), '--expect k.json: field "known[0].id": is required');
  assert.equal(error([{ id: 'a', max_delta: 0 }]), '--expect k.json: field "known[0].max_delta": expected number to be greater than 0');
  assert.equal(
    error([{ id: 'a' }]),
    '--expect k.json: field "known[0]": give a "signature", or at least one of verdict, engine, kind, property, tag, text, max_delta, template',
  );
  assert.equal(
    error([{ id: 'a', signature: 'split', tag: 'P' }]),
    '--expect k.json: field "known[0].signature": an exact signature takes no rule fields (here: tag)',
  );
  assert.match(error([{ id: 'a', text: '(' }]), /^--expect k\.json: field "known\[0\]\.text": not a regular expression \(.+\)$/);
  assert.equal(
    error([
      { id: 'a', verdict: 'split' },
      { id: 'a', verdict: 'outlier' },
    ]),
    '--expect k.json: field "known[1].id": "a" is already the id of known[0]',
  );
});

test('an --expect file that is missing or not JSON', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'expect-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  assert.throws(() => Expectations.load(join(dir, 'none.json')), {
    name: 'CampaignError',
    message: `--expect ${join(dir, 'none.json')}: no such file`,
  });
  writeFileSync(join(dir, 'bad.json'), '{"known": [');
  assert.throws(
    () => Expectations.load(join(dir, 'bad.json')),
    (e: Error) => e instanceof CampaignError && e.message.startsWith(`--expect ${join(dir, 'bad.json')}: not JSON (`),
  );
});
