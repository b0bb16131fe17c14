// The report page without a browser: parsed with parse5 (the HTML standard's parser) to check
// its structure, that it needs nothing outside itself, and that no text a client or an engine
// chose ever becomes markup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import type { DefaultTreeAdapterTypes as T } from 'parse5';
import { columnarFromDump } from '../../src/comparator/columnar.js';
import { ENGINE_NAMES, type EngineName } from '../../src/protocol/schema.js';
import { failingNode } from '../../src/report/failing-node.js';
import type { ReportCase, ReportInput } from '../../src/report/input.js';
import { renderReport } from '../../src/report/render.js';
import { sampleReportInput, type Shoot } from '../support/report-sample.js';
import { attr, dom, elements, hasClass, texts } from './support/dom.js';

const PNG_800x600 = new Uint8Array(PNG.sync.write(new PNG({ width: 800, height: 600 })));

/** Every engine's screenshot, except Firefox's in the case where its script fails (as the screenshot op would). */
const shoot: Shoot = async (engine, request) =>
  request.script && engine === 'firefox' ? { png: null, error: 'script_error: Error: recorded failure' } : { png: PNG_800x600 };

const rendered = (input: ReportInput) => {
  const doc = dom(renderReport(input));
  return { doc, all: elements(doc) };
};
const within = (e: T.Element) => elements(e);
const byClass = (list: T.Element[], name: string) => list.filter((e) => hasClass(e, name));
const textOf = (e: T.Element): string =>
  e.childNodes.map((c) => (c.nodeName === '#text' ? (c as T.TextNode).value : 'tagName' in c ? textOf(c as T.Element) : '')).join('');
const shownRequest = (c: ReportCase) => c.reduced?.request ?? c.request;

test('a section per bucket, in the summary order, each linked from its row of the bucket table', async () => {
  const input = await sampleReportInput(shoot);
  const { all } = rendered(input);
  const sections = byClass(all, 'bucket');
  assert.equal(sections.length, input.summary.buckets.length);
  assert.deepEqual(
    sections.map((s) => attr(s, 'id')),
    input.summary.buckets.map((_, i) => `bucket-${i + 1}`),
  );
  const table = byClass(all, 'buckets')[0]!;
  const links = within(table).filter((e) => e.tagName === 'a');
  assert.deepEqual(
    links.map((a) => [attr(a, 'href'), textOf(a)]),
    input.summary.buckets.map((b, i) => [`#bucket-${i + 1}`, b.example]),
  );
  sections.forEach((s, i) => {
    assert.equal(textOf(within(s).find((e) => e.tagName === 'code')!), input.summary.buckets[i]!.signature);
  });
});

test("each example shows three engines: its screenshot or a placeholder, its boxes, the failing node marked, and each engine's error", async () => {
  const input = await sampleReportInput(shoot);
  const { all } = rendered(input);
  const sections = byClass(all, 'bucket');
  let hits = 0;
  for (const [i, bucket] of input.summary.buckets.entries()) {
    const c = input.examples.get(bucket.signature)!;
    const figures = within(sections[i]!).filter((e) => e.tagName === 'figure');
    if (c.op === null) {
      assert.equal(figures.length, 0, 'an invalid item ran on no engine');
      continue;
    }
    assert.deepEqual(
      figures.map((f) => attr(f, 'data-engine')),
      [...ENGINE_NAMES],
    );
    const dumps = Object.fromEntries(ENGINE_NAMES.flatMap((e) => (c.engines[e]?.dump ? [[e, c.engines[e].dump]] : [])));
    const node = failingNode(c.vote!, dumps);
    for (const [k, figure] of figures.entries()) {
      const engine = ENGINE_NAMES[k]!;
      const result = c.engines[engine]!;
      const inside = within(figure);
      const images = inside.filter((e) => e.tagName === 'img');
      const placeholders = byClass(inside, 'placeholder');
      assert.equal(images.length + placeholders.length, 1, `${bucket.signature} ${engine}: one picture`);
      if (result.screenshot) assert.match(attr(images[0]!, 'src')!, /^data:image\/png;base64,/);
      else assert.match(textOf(placeholders[0]!), new RegExp(`no screenshot${result.screenshotError ? '.*script_error' : ''}`));
      const overlays = inside.filter((e) => e.tagName === 'svg');
      const error = byClass(inside, 'error').map(textOf);
      assert.deepEqual(error, result.error ? [result.error] : []);
      if (!result.dump) {
        assert.equal(overlays.length, 0);
        continue;
      }
      const boxes = within(overlays[0]!).filter((e) => e.tagName === 'rect' && hasClass(e, 'box'));
      assert.equal(boxes.length, columnarFromDump(result.dump).count - result.dump.nodes.filter((n) => n.rects.length === 0).length);
      const hit = byClass(within(overlays[0]!), 'hit');
      assert.deepEqual(
        hit.map((g) => attr(g, 'data-index')),
        node && result.dump.nodes[node.index] ? [String(node.index)] : [],
      );
      hits += hit.length;
    }
  }
  assert.ok(hits >= 3, 'the sample has failing nodes to mark');
});

test("each example's source is the shown request's html and script as text, and the request to copy is exactly as recorded", async () => {
  const input = await sampleReportInput(shoot);
  const { all } = rendered(input);
  const sections = byClass(all, 'bucket');
  for (const [i, bucket] of input.summary.buckets.entries()) {
    const c = input.examples.get(bucket.signature)!;
    const inside = within(sections[i]!);
    const textarea = inside.find((e) => attr(e, 'id') === `request-${i + 1}`)!;
    assert.equal(textOf(textarea), shownRequest(c));
    const button = inside.find((e) => e.tagName === 'button')!;
    assert.equal(attr(button, 'data-copy'), `request-${i + 1}`);
    const pre = (name: string) => inside.filter((e) => e.tagName === 'pre' && hasClass(e, name)).map(textOf);
    if (c.op === null) {
      assert.deepEqual(pre('text'), [c.request]);
      continue;
    }
    const request = JSON.parse(shownRequest(c)) as { html: string; script?: string };
    assert.equal(pre('html')[0], request.html);
    assert.deepEqual(pre('script'), request.script === undefined ? [] : [request.script]);
    if (c.reduced) {
      assert.equal(textOf(inside.find((e) => attr(e, 'id') === `original-${i + 1}`)!), c.request);
      assert.equal(pre('html')[1], JSON.parse(c.request).html, 'the original, folded away');
    }
  }
});

test('the page needs nothing outside itself: inline images only, and a policy that allows exactly its own style and script', async () => {
  const { all } = rendered(await sampleReportInput(shoot));
  for (const e of all) {
    for (const a of e.attrs) {
      if (a.name === 'src') assert.match(a.value, /^data:image\/png;base64,/);
      if (a.name === 'href') assert.match(a.value, /^#/);
    }
    assert.ok(!['link', 'iframe', 'object', 'embed', 'base', 'form'].includes(e.tagName), e.tagName);
  }
  const policy = attr(all.find((e) => attr(e, 'http-equiv') === 'Content-Security-Policy')!, 'content')!;
  const hash = (tag: string) => {
    const [element, ...more] = all.filter((e) => e.tagName === tag);
    assert.equal(more.length, 0, `one ${tag}`);
    return `'sha256-${createHash('sha256').update(textOf(element!)).digest('base64')}'`;
  };
  assert.match(policy, /^default-src 'none'; /);
  assert.ok(policy.includes(`style-src ${hash('style')};`), policy);
  assert.ok(policy.includes(`script-src ${hash('script')};`), policy);
  assert.ok(!policy.includes('unsafe'), policy);
});

test('hostile text from a client or an engine stays text wherever it is shown', async () => {
  // Leading newline: the parser drops one right after <pre> and <textarea>.
  const evil = '\n"\'><script>alert(1)</script><img src=x onerror=alert(2)></textarea></pre><!--';
  const input = await sampleReportInput(shoot);
  const [, example] = [...input.examples].find(([, c]) => c.vote?.verdict === 'outlier')!;
  const engines = structuredClone(example.engines);
  const node = failingNode(example.vote!, Object.fromEntries(ENGINE_NAMES.map((e) => [e, engines[e]!.dump!])))!;
  for (const e of ENGINE_NAMES) {
    engines[e]!.dump!.nodes[node.index]!.tag = evil;
    engines[e]!.dump!.engine_version = evil;
  }
  engines.firefox = { ...engines.firefox!, error: evil, screenshot: null, screenshotError: evil };
  const vote = { ...example.vote!, nodes: example.vote!.nodes.map((n) => (n.index === node.index ? { ...n, tag: evil } : n)) };
  const request = JSON.stringify({ id: evil, html: evil, script: evil });
  const hostile: ReportCase = { ...example, id: evil, request, reduced: { request, signature: evil }, vote, engines };
  const summary = { ...input.summary, buckets: [{ signature: evil, count: 1, example: evil }] };
  const run = { ...input.runs[0]!, command: [evil], fonts: evil, startedAt: evil };
  const { doc, all } = rendered({ ...input, summary, runs: [run], examples: new Map([[evil, hostile]]), generatedAt: evil });

  assert.equal(all.filter((e) => e.tagName === 'script').length, 1, 'only the report script');
  assert.equal(all.filter((e) => e.tagName === 'img').length, ENGINE_NAMES.length - 1, 'only the screenshots');
  assert.deepEqual(
    all.flatMap((e) => e.attrs.filter((a) => a.name.startsWith('on')).map((a) => a.name)),
    [],
  );
  const commentsOf = (n: T.ParentNode): string[] =>
    n.childNodes.flatMap((c) => (c.nodeName === '#comment' ? ['comment'] : 'childNodes' in c ? commentsOf(c as T.ParentNode) : []));
  assert.deepEqual(commentsOf(doc), []);
  const text = texts(doc).join('');
  const shown = text.split(evil).length - 1;
  assert.ok(shown >= 10, `the hostile text shows as text everywhere it belongs (${shown} times)`);
  const pres = all.filter((e) => e.tagName === 'pre').map(textOf);
  assert.deepEqual(pres.slice(0, 2), [evil, evil], 'html and script, exactly');
});

test('a bucket without an example, a screenshot that is not a PNG, and an engine not run still render', async () => {
  const input = await sampleReportInput(shoot);
  const [signature, example] = [...input.examples].find(([, c]) => c.vote?.verdict === 'outlier')!;
  const engines: ReportCase['engines'] = {
    chromium: { ...example.engines.chromium!, screenshot: new TextEncoder().encode('GIF89a, not a PNG at all, clearly') },
    firefox: example.engines.firefox!,
  };
  const examples = new Map([[signature, { ...example, engines }]]);
  const summary = {
    ...input.summary,
    buckets: [
      input.summary.buckets.find((b) => b.signature === signature)!,
      { signature: 'split | size | DIV | -', count: 2, example: 'gone' },
    ],
  };
  const { all } = rendered({ ...input, summary, examples });
  const [shown, missing] = byClass(all, 'bucket');
  const placeholders = byClass(within(shown!), 'placeholder').map(textOf);
  assert.deepEqual(placeholders, ['screenshot is not a PNG', 'not run']);
  const figure = (engine: EngineName) => within(shown!).find((e) => attr(e, 'data-engine') === engine)!;
  assert.equal(within(figure('webkit')).filter((e) => e.tagName === 'svg').length, 0);
  assert.match(texts(missing!).join(''), /No example case was given/);
});

test('200 buckets render, each with its own section', async () => {
  const input = await sampleReportInput(shoot);
  const [, example] = [...input.examples].find(([, c]) => c.vote?.verdict === 'outlier')!;
  const buckets = Array.from({ length: 200 }, (_, i) => ({
    signature: `outlier firefox | size | P${i} | height`,
    count: 200 - i,
    example: `case-${i}`,
  }));
  const examples = new Map(buckets.map((b) => [b.signature, { ...example, id: b.example }]));
  const { all } = rendered({ ...input, summary: { ...input.summary, buckets }, examples });
  assert.equal(byClass(all, 'bucket').length, 200);
  assert.equal(all.filter((e) => e.tagName === 'figure').length, 600);
});

test("triage's findings come above the buckets: a table linked to a section per finding with its template and reduced case", async () => {
  const input = await sampleReportInput(shoot);
  const [signature, example] = [...input.examples].find(([, c]) => c.op === 'geometry')!;
  const template = 'div{height:<length>} > span{display:inline-block}! <b>';
  const finding = {
    id: 'F1',
    template,
    outlier: 'firefox',
    members: [example.id, 'other-case'],
    reduced: JSON.parse(shownRequest(example)) as unknown,
    signature,
    elements: 5,
    fonts: 'square',
    versions: {},
    known: null,
  };
  const { doc, all } = rendered({
    ...input,
    summary: { ...input.summary, findings: [finding], untriaged: ['left-open'] },
    findings: new Map([['F1', example]]),
  });
  const ids = all.map((e) => attr(e, 'id')).filter((id) => id !== undefined);
  assert.ok(ids.indexOf('findings') < ids.indexOf('buckets'), 'the findings table comes before the bucket table');
  const table = all.find((e) => attr(e, 'id') === 'findings')!;
  assert.deepEqual(
    within(table)
      .filter((e) => e.tagName === 'a')
      .map((a) => [attr(a, 'href'), textOf(a)]),
    [['#finding-1', 'F1']],
  );
  assert.match(textOf(table), /1 disagreeing case is in no finding: left-open/);
  const section = all.find((e) => attr(e, 'id') === 'finding-1')!;
  assert.ok(textOf(section).includes(`Template ${template}`), 'the template, as text');
  assert.ok(textOf(section).includes(`2 cases: ${example.id} other-case`));
  assert.equal(within(section).filter((e) => e.tagName === 'img').length, 3, "each engine's picture of the reduced case");
  assert.ok(!elements(doc).some((e) => e.tagName === 'b' && textOf(e) === ''), 'no markup from the template');
});
