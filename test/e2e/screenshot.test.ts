// The screenshot op on the three real engines: 800×600 PNGs of what the case painted, after its
// script, taken on the same sealed case documents as a dump. A hostile case gets its own honest
// picture or page_tampered, never a picture of another document.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { ONE_PAGE, OracleProcess, type Line } from '../support/oracle-process.js';
import { compilePublishedSchema, schemaErrors } from '../support/published-schema.js';

let oracle: OracleProcess;
const schema = compilePublishedSchema();

before(async () => {
  oracle = new OracleProcess(ONE_PAGE);
  await oracle.ready();
});

after(async () => {
  assert.equal(await oracle.shutdown(), 0, oracle.stderr);
});

/** A white page with one red 200×100 box at (100, 50) and a line of text below it. */
const RED_BOX =
  '<!doctype html><body style="margin:0;background:#fff"><div style="position:absolute;left:100px;top:50px;width:200px;height:100px;background:#f00"></div>' +
  '<p style="position:absolute;top:300px;left:20px;margin:0">Hello world</p>';

type Rgb = [number, number, number];

function pixel(png: PNG, x: number, y: number): Rgb {
  const at = (y * png.width + x) * 4;
  return [png.data[at]!, png.data[at + 1]!, png.data[at + 2]!];
}

/** The box holding every pixel of exactly this colour: [left, top, right, bottom), or null when there is none. */
function extent(png: PNG, [r, g, b]: Rgb): [number, number, number, number] | null {
  let box: [number, number, number, number] | null = null;
  for (let y = 0; y < png.height; y++)
    for (let x = 0; x < png.width; x++) {
      const [pr, pg, pb] = pixel(png, x, y);
      if (pr !== r || pg !== g || pb !== b) continue;
      box = box ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x + 1), Math.max(box[3], y + 1)] : [x, y, x + 1, y + 1];
    }
  return box;
}

/** Every engine's image, decoded; the answer must have no errors and match the published schema. */
function imagesOf(answer: Line): Map<string, PNG> {
  assert.equal(schemaErrors(schema.response, answer), '');
  assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
  assert.deepEqual(Object.keys(answer.images), [...ENGINE_NAMES]);
  return new Map(ENGINE_NAMES.map((e) => [e, PNG.sync.read(Buffer.from(answer.images[e] as string, 'base64'))]));
}

test('three 800×600 PNGs, not blank, with the red box in its place in each engine', async () => {
  const request = { id: 'red', op: 'screenshot', html: RED_BOX };
  assert.equal(schemaErrors(schema.request, request), '');
  for (const [engine, png] of imagesOf(await oracle.request(request))) {
    assert.deepEqual([png.width, png.height], [800, 600], engine);
    const colours = new Set<string>();
    for (let y = 0; y < png.height; y += 2) for (let x = 0; x < png.width; x += 2) colours.add(pixel(png, x, y).join());
    assert.ok(colours.size > 3, `${engine}: more than a flat picture (${colours.size} colours)`);
    assert.deepEqual(extent(png, [255, 0, 0]), [100, 50, 300, 150], `${engine}: the red box, exactly where the case put it`);
    assert.deepEqual(pixel(png, 50, 25), [255, 255, 255], `${engine}: white outside it`);
    // The text is drawn: some dark pixels on its line, none far below it.
    const dark = (y0: number, y1: number) => {
      let n = 0;
      for (let y = y0; y < y1; y++) for (let x = 0; x < 300; x++) if (pixel(png, x, y).every((c) => c < 128)) n++;
      return n;
    };
    assert.ok(dark(300, 325) > 20, `${engine}: the text is painted`);
    assert.equal(dark(400, 600), 0, `${engine}: nothing painted where the case put nothing`);
  }
});

test("the case's script runs before the picture: its change shows, after the fonts settled", async () => {
  const answer = await oracle.request({
    id: 'scripted',
    op: 'screenshot',
    html: '<!doctype html><body style="margin:0"><div id=a style="width:100px;height:100px;background:#00f"></div>',
    script:
      "document.getElementById('a').style.background = '#0f0';" +
      "const b = document.createElement('div'); b.style.cssText = 'position:absolute;left:400px;top:400px;width:50px;height:50px;background:#f0f'; document.body.append(b);",
  });
  for (const [engine, png] of imagesOf(answer)) {
    assert.deepEqual(extent(png, [0, 255, 0]), [0, 0, 100, 100], `${engine}: the script's colour`);
    assert.equal(extent(png, [0, 0, 255]), null, `${engine}: not the colour before the script`);
    assert.deepEqual(extent(png, [255, 0, 255]), [400, 400, 450, 450], `${engine}: the element the script added`);
  }
});

test('a script that throws is script_error; engines not asked for are not run', async () => {
  const answer = await oracle.request({
    id: 'throws',
    op: 'screenshot',
    html: RED_BOX,
    script: "throw new TypeError('no')",
    engines: ['firefox', 'webkit'],
  });
  assert.equal(schemaErrors(schema.response, answer), '');
  assert.deepEqual(answer.images, {});
  assert.deepEqual(Object.keys(answer.errors), ['firefox', 'webkit']);
  for (const e of ['firefox', 'webkit']) assert.match(answer.errors[e], /^script_error: TypeError: no/);
});

/** Built-ins a case replaces before the picture, inline while loading or in its script. */
const REPLACEMENTS = [
  `JSON.stringify=()=>'{"settled":true}'`,
  'Array.prototype.push=function(){return 0}',
  'Function.prototype.call=function(){return 0};Function.prototype.apply=function(){return 0}',
  "Object.defineProperty(Document.prototype,'fonts',{get(){return {ready:new Promise(()=>{})}}})",
  'window.Promise=function(){};window.setTimeout=()=>0;window.requestAnimationFrame=()=>0',
  "Object.defineProperty(window,'innerWidth',{value:5});Object.defineProperty(window,'devicePixelRatio',{value:3})",
];

/** Each engine either shows the case's own picture (the red box in its place) or says page_tampered. */
function honestOrTampered(answer: Line, label: string): string[] {
  assert.equal(schemaErrors(schema.response, answer), '', label);
  const pictures: string[] = [];
  for (const engine of ENGINE_NAMES) {
    const error = answer.errors?.[engine];
    if (error !== undefined) {
      assert.match(error, /^page_tampered: /, `${label}: ${engine}`);
      assert.equal(answer.images[engine], undefined);
      continue;
    }
    const png = PNG.sync.read(Buffer.from(answer.images[engine] as string, 'base64'));
    assert.deepEqual([png.width, png.height], [800, 600], `${label}: ${engine}`);
    assert.deepEqual(extent(png, [255, 0, 0]), [100, 50, 300, 150], `${label}: ${engine} shows the case's own page`);
    pictures.push(engine);
  }
  return pictures;
}

test('a case that replaces built-ins gets its own picture or page_tampered, inline or from its script', async () => {
  const answers = await Promise.all(
    REPLACEMENTS.flatMap((replace, i) => [
      oracle.request({ id: `inline-${i}`, op: 'screenshot', html: `${RED_BOX}<script>${replace}</script>` }),
      oracle.request({ id: `script-${i}`, op: 'screenshot', html: RED_BOX, script: replace }),
    ]),
  );
  for (const answer of answers) {
    const label = `${answer.id}: ${REPLACEMENTS[Number(answer.id.split('-')[1])]}`;
    // Chromium and Firefox check the page from a world of their own, which the case cannot reach.
    assert.deepEqual(honestOrTampered(answer, label).slice(0, 2), ['chromium', 'firefox'], label);
  }
});

test('a case that navigates away is page_tampered, whenever it leaves', async () => {
  const now = await oracle.request({ id: 'leaves', op: 'screenshot', html: RED_BOX, script: "location.href = 'about:blank'" });
  assert.deepEqual(honestOrTampered(now, 'leaves at once'), []);
  // Leaving a moment later races the picture: the check after it still refuses another document.
  const later = await Promise.all(
    [0, 5, 20, 50].map((ms) =>
      oracle.request({ id: `later-${ms}`, op: 'screenshot', html: RED_BOX, script: `setTimeout(() => location.reload(), ${ms})` }),
    ),
  );
  for (const answer of later) honestOrTampered(answer, answer.id);
  // A change of URL within the document (pushState, a fragment) is still the case's own document.
  const stays = await oracle.request({
    id: 'stays',
    op: 'screenshot',
    html: RED_BOX,
    script: "history.pushState(null, '', '#moved'); location.hash = 'again'",
  });
  assert.deepEqual(honestOrTampered(stays, 'pushState'), [...ENGINE_NAMES]);
});
