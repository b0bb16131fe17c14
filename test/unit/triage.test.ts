// The triage loop on a real journal, with an oracle whose engines follow a layout made up here: two
// causes, each a few cases written here in different guises, and one case that shows its
// signature only now and then. A bucket's example is reduced into a finding; the other cases of a
// cause join it through the template's instance in them, across buckets, and are not reduced;
// the unreproducible case is given up and listed untriaged; a spent budget leaves the cases open
// and a second run places them; a run with nothing open asks the engines nothing.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'parse5';
import { Journal } from '../../src/campaign/journal/journal.js';
import { openCorpus } from '../../src/campaign/corpus/corpus.js';
import { runCampaign } from '../../src/campaign/loop/run-campaign.js';
import { triage, type TriageEvent } from '../../src/campaign/triage/triage.js';
import { elementsInDumpOrder, styleDeclarations } from '../../src/campaign/triage/template.js';
import { campaignSummary } from '../../src/campaign/journal/triage-summary.js';
import { renderSummary } from '../../src/campaign/journal/summary.js';
import { voteGeometry } from '../../src/comparator/vote.js';
import { encodeJson } from '../../src/protocol/wire.js';
import { ENGINE_NAMES, type Dump, type EngineName } from '../../src/protocol/schema.js';
import type { Answer, CaseOp, RequestOf } from '../../src/protocol/ops.js';
import type { Answered } from '../../src/coordinator/oracle-service.js';
import type { CaseService } from '../../src/coordinator/stdio.js';
import { dump } from '../fixtures/dumps/load.js';

const root = mkdtempSync(join(tmpdir(), 'triage-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

const STYLE = dump('agree', 'chromium').nodes[0]!.style;

/**
 * The made-up layout: every element a 10 × 10 box at the origin, the same in every engine, but
 * an inline-block straight inside an element that declares a height is 1 px taller in Firefox
 * (cause A), and an element that declares writing-mode: vertical-lr is 2 px wider in WebKit
 * (cause B). A document with an element whose id is `flaky` has a Chromium outlier there every
 * other time it is laid out.
 */
function layout(html: string, flakyTurn: boolean): Record<EngineName, Dump> {
  const order = elementsInDumpOrder(parse(html));
  const declared = (e: (typeof order)[number], property: string) =>
    styleDeclarations(e.attrs.find((a) => a.name === 'style')?.value ?? '').find((d) => d.property === property)?.value;
  const dumpOf = (engine: EngineName): Dump => ({
    engine,
    engine_version: `${engine}-1`,
    viewport: { width: 800, height: 600 },
    overflowed: false,
    nodes: order.map((e, index) => {
      const parent = e.parentNode && 'tagName' in e.parentNode ? order.indexOf(e.parentNode) : -1;
      let depth = 0;
      for (let p = e.parentNode; p && 'tagName' in p; p = p.parentNode) depth++;
      const a = engine === 'firefox' && declared(e, 'display') === 'inline-block' && parent >= 0 && declared(order[parent]!, 'height');
      const b = engine === 'webkit' && declared(e, 'writing-mode') === 'vertical-lr';
      const c = engine === 'chromium' && flakyTurn && e.attrs.some((x) => x.name === 'id' && x.value === 'flaky');
      const box = { x: 0, y: 0, w: b ? 12 : c ? 13 : 10, h: a ? 11 : 10 };
      return { index, parent, tag: e.tagName.toUpperCase(), depth, bounding: box, rects: [box], style: STYLE };
    }),
  });
  return Object.fromEntries(ENGINE_NAMES.map((e) => [e, dumpOf(e)])) as Record<EngineName, Dump>;
}

/** The oracle of the made-up layout, counting what it is asked. */
class LayoutOracle implements Pick<CaseService, 'run'> {
  asked = 0;
  private flaky = 0;

  async run<K extends CaseOp>(_op: K, request: RequestOf<K>): Promise<Answered<K>> {
    this.asked++;
    await new Promise((resolve) => setImmediate(resolve));
    const html = (request as { html: string }).html;
    const dumps = layout(html, html.includes('flaky') && this.flaky++ % 2 === 0);
    const wanted = (request as { dumps?: boolean }).dumps === true;
    const answer = {
      id: request.id,
      vote: encodeJson(voteGeometry({ dumps })),
      ...(wanted ? { dumps: Object.fromEntries(ENGINE_NAMES.map((e) => [e, encodeJson(dumps[e])])) } : {}),
    };
    return { answer: answer as unknown as Answer<K>, versions: Object.fromEntries(ENGINE_NAMES.map((e) => [e, `${e}-1`])) };
  }
}

const page = (body: string) => `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">${body}</body></html>`;

/** Cause A in three guises (two buckets: the inline-block is a SPAN twice, a B once), cause B once, one flaky case, one agreement. */
const CASES = [
  [
    'a1',
    '<div id="e0" style="height:20px;width:5px"><span id="e1" style="display:inline-block;padding:2px"></span><em id="e2"></em></div>',
  ],
  ['b1', '<div id="e0" style="padding:3px"><div id="e1" style="writing-mode:vertical-lr;width:4px"><span id="e2"></span></div></div>'],
  [
    'a2',
    '<section id="e0" style="border:1px solid"><div id="e1" style="height:9px"><b id="e2" style="display:inline-block;margin:3px"></b></div></section>',
  ],
  ['calm', '<div id="e0" style="width:30px"><span id="e1"></span></div>'],
  [
    'a3',
    '<div id="e0"><div id="e1" style="height:40%;float:left"><span id="e2" style="width:7px;display:inline-block"></span></div></div>',
  ],
  ['odd', '<div id="e0"><p id="flaky"></p></div>'],
].map(([id, body]) => ({ id: id!, html: page(body!) }));

/** A journal holding the campaign of CASES on the made-up layout. */
async function campaignJournal(name: string, fonts = 'square'): Promise<Journal> {
  const corpus = join(root, `${name}.ndjson`);
  writeFileSync(corpus, CASES.map((c) => JSON.stringify(c)).join('\n'));
  const journal = Journal.open(join(root, `${name}.sqlite`));
  journal.startRun({ command: ['test'], engines: [...ENGINE_NAMES], versions: {}, fonts });
  await runCampaign({ oracle: new LayoutOracle(), journal, items: (await openCorpus(corpus)).items(), concurrency: 1 });
  journal.endRun();
  return journal;
}

const settings = { parallel: 2, runs: 2, maxTests: 500, fonts: 'square' } as const;

test("a bucket's example is reduced into a finding; the other cases of its cause join it by the template's instance, across buckets", async () => {
  const journal = await campaignJournal('group');
  try {
    const before = campaignSummary(journal, 'group.sqlite');
    assert.deepEqual(before.findings, []);
    assert.deepEqual(before.untriaged, ['a1', 'b1', 'a2', 'a3', 'odd'], 'before triage every disagreeing case is untriaged');
    const events: TriageEvent[] = [];
    const oracle = new LayoutOracle();
    const result = await triage({
      oracle,
      journal,
      findings: journal.findings(),
      subject: 'engines',
      ...settings,
      onEvent: (e) => events.push(e),
    });
    assert.deepEqual(result, { created: 2, placed: 4, gaveUp: 1, open: 0, stopped: null });
    const reduced = events.filter((e) => e.kind === 'placed' && e.how === 'reduced').map((e) => (e as { caseId: string }).caseId);
    assert.deepEqual(reduced, ['a1', 'b1'], 'the SPAN bucket (a1, a3) first; a2, a B, joins without a reduction');
    const summary = campaignSummary(journal, 'group.sqlite');
    const findings = summary.findings!.map(({ id, template, outlier, members, signature, elements }) => ({
      id,
      template,
      outlier,
      members,
      signature,
      elements,
    }));
    assert.deepEqual(findings, [
      {
        id: 'F1',
        template: 'div{height:<length>} > span{display:inline-block}!',
        outlier: 'firefox',
        members: ['a1', 'a2', 'a3'],
        signature: 'outlier firefox | size | SPAN | -',
        elements: 5,
      },
      {
        id: 'F2',
        template: 'div{writing-mode:vertical-lr}!',
        outlier: 'webkit',
        members: ['b1'],
        signature: 'outlier webkit | size | DIV | -',
        elements: 4,
      },
    ]);
    assert.deepEqual(summary.findings![0]!.reduced, {
      id: 'a1',
      html: '<!doctype html><div style="height:20px"><span style="display:inline-block"></span></div>',
    });
    assert.deepEqual(summary.untriaged, ['odd'], 'the case that does not show its signature every time is given up');
    assert.match(
      renderSummary(summary),
      /^findings: 2 new \(4 cases\), 0 known \(0 cases\), 1 cases untriaged\nF1 {2}3 cases {2}outlier firefox \| size \| SPAN \| - {2}\(5 elements\)\n {4}template {2}div\{height:<length>\} > span\{display:inline-block\}!\n/m,
    );
    // Nothing left: a second run asks the engines nothing.
    const again = new LayoutOracle();
    assert.deepEqual(await triage({ oracle: again, journal, findings: journal.findings(), subject: 'engines', ...settings }), {
      created: 0,
      placed: 0,
      gaveUp: 0,
      open: 0,
      stopped: null,
    });
    assert.equal(again.asked, 0);
  } finally {
    journal.close();
  }
});

test('a spent budget leaves every case open, and the next run places them', async () => {
  const journal = await campaignJournal('budget');
  try {
    const oracle = new LayoutOracle();
    const spent = await triage({
      oracle,
      journal,
      findings: journal.findings(),
      subject: 'engines',
      ...settings,
      deadline: Date.now() - 1,
    });
    assert.deepEqual(spent, { created: 0, placed: 0, gaveUp: 0, open: 5, stopped: 'budget' });
    assert.equal(oracle.asked, 0);
    const resumed = await triage({ oracle, journal, findings: journal.findings(), subject: 'engines', ...settings });
    assert.deepEqual(resumed, { created: 2, placed: 4, gaveUp: 1, open: 0, stopped: null });
  } finally {
    journal.close();
  }
});

test('the summary says when most disagreements have one known cause, with the way out', async () => {
  // Cause A is three Firefox outliers of 1 px among at most five disagreements: under Liberation, the strut.
  const liberation = await campaignJournal('hint-liberation', 'liberation');
  try {
    const s = campaignSummary(liberation, 'hint-liberation.sqlite');
    assert.deepEqual(s.fonts, ['liberation']);
    assert.match(s.hint ?? '', /^3 of [45] disagreements are Firefox outliers within 1 px, .*run with --fonts=square/);
    assert.match(renderSummary(s), /^hint: 3 of [45] disagreements/m);
  } finally {
    liberation.close();
  }
  // Under the square font the same share is a finding's, once triaged: the hint says how to mark it known.
  const square = await campaignJournal('hint-square');
  try {
    assert.equal(campaignSummary(square).hint, undefined, 'no hint before a triage');
    await triage({ oracle: new LayoutOracle(), journal: square, findings: square.findings(), subject: 'engines', ...settings });
    const s = campaignSummary(square, 'hint-square.sqlite');
    const top = s.findings![0]!;
    assert.equal(top.members.length, 3);
    assert.match(
      s.hint ?? '',
      new RegExp(
        `^3 of [45] disagreements are finding ${top.id} .*browser-oracle triage --db hint-square\\.sqlite --mark-known ${top.id} --expect known\\.json`,
      ),
    );
  } finally {
    square.close();
  }
});
