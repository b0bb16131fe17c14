// `triage --bug-report FINDING`: one finding as a report for a browser's tracker (bug-report-page.ts
// renders it). Everything comes from the journal, no engine is started: the reduced case made a
// standalone document (its script run on load; under the square font, the font inline, so that the
// file lays out as it did on the oracle's engines), what each engine computed for the nodes that
// differ, the builds, and the steps to reproduce.
import { readFileSync, writeFileSync } from 'node:fs';
import { arch, release, type } from 'node:os';
import type { FindingRecord } from '../../campaign/journal/findings.js';
import type { Journal } from '../../campaign/journal/journal.js';
import { findingName } from '../../campaign/journal/triage-summary.js';
import { dumpJsonText, rejudged } from '../../campaign/loop/candidate-record.js';
import { candidateFailingIndex } from '../../comparator/candidate-signature.js';
import { geometryFirst } from '../../comparator/signature.js';
import { FONT_SETS } from '../../fonts/font-sets.js';
import { ENGINE_NAMES, type Dump, type EngineName } from '../../protocol/schema.js';
import type { StyleProperty, VoteResult } from '../../protocol/vote-schema.js';
import { CampaignError } from '../../campaign/campaign-error.js';
import { log } from '../../system/log.js';
import { LAID_OUT, renderBugReport, type BugColumn, type BugNode, type BugReportInput } from './bug-report-page.js';
import { visible } from '../../system/visible-text.js';

/** Writes the report of finding `id` to `path` (stdout when undefined); resolves with the exit status. */
export async function writeBugReport(journal: Journal, id: number, path: string | undefined): Promise<number> {
  const finding = journal
    .findings()
    .list()
    .find((f) => f.id === id);
  if (!finding) throw new CampaignError(`no finding ${findingName(id)} in this journal (summary lists them)`);
  const page = renderBugReport(bugReportInput(finding, new Date().toISOString()));
  if (path === undefined) process.stdout.write(page);
  else {
    writeFileSync(path, page);
    log.info(`triage: wrote ${findingName(id)}'s report to ${visible(path)}`);
  }
  return 0;
}

/** What the report shows of a finding. */
function bugReportInput(f: FindingRecord, writtenAt: string): BugReportInput {
  const request = JSON.parse(f.reduced) as { html: string; script?: string };
  const vote = f.vote === null ? null : (JSON.parse(f.vote) as VoteResult);
  const columns: (BugColumn & { dump: Dump })[] = ENGINE_NAMES.flatMap((engine) => {
    const o = f.outcomes.find((x) => x.engine === engine);
    return o?.result ? [{ name: engine, label: engineLabel(engine, o.version), dump: JSON.parse(o.result) as Dump }] : [];
  });
  const judged = f.candidate ? rejudged(f.candidate, f.outcomes) : undefined;
  if (f.candidate?.dump)
    columns.push({
      name: f.candidate.name,
      label: `${f.candidate.name} ${f.candidate.version}`,
      dump: JSON.parse(dumpJsonText(f.candidate.dump)) as Dump,
    });
  const failing = new Map<number, StyleProperty[]>((vote?.nodes ?? []).map((n) => [n.index, n.styles]));
  for (const compared of Object.values(judged?.result.compares ?? {}))
    for (const x of compared?.failures ?? []) if (!failing.has(x.index)) failing.set(x.index, []);
  // Where the difference starts: the node the finding's signature names.
  const starts = judged ? candidateFailingIndex(judged.result, judged.dump) : vote ? (geometryFirst(vote).first?.index ?? null) : null;
  const nodes: BugNode[] = [...failing.keys()]
    .sort((a, b) => a - b)
    .map((index) => ({
      index,
      path: pathOf(columns[0]?.dump, index),
      starts: index === starts,
      boxes: Object.fromEntries(
        columns.flatMap((c) => {
          const n = c.dump.nodes[index];
          return n ? [[c.name, { x: n.bounding.x, y: n.bounding.y, w: n.bounding.w, h: n.bounding.h, fragments: n.rects.length }]] : [];
        }),
      ),
      styles: failing.get(index)!.map((property) => ({
        property,
        values: Object.fromEntries(columns.flatMap((c) => (c.dump.nodes[index] ? [[c.name, c.dump.nodes[index]!.style[property]]] : []))),
      })),
    }));
  return {
    id: findingName(f.id),
    template: f.template,
    signature: f.signature,
    outlier: f.outlier,
    majority: f.candidate ? (judged?.result.majority ?? []) : (vote?.majority ?? []),
    candidate: f.subject === 'engines' ? null : f.subject,
    members: f.members.length,
    caseId: f.caseId,
    source: request.script === undefined ? { html: request.html } : { html: request.html, script: request.script },
    testcase: standalone(request, f.fonts),
    columns: columns.map(({ name, label }) => ({ name, label })),
    nodes,
    fonts: f.fonts,
    platform: `${type()} ${release()} ${arch()}`,
    writtenAt,
  };
}

/** A node's place as tags from the root: `HTML > BODY > DIV > SPAN`. */
function pathOf(dump: Dump | undefined, index: number): string {
  const tags: string[] = [];
  for (let n = dump?.nodes[index]; n; n = n.parent < 0 ? undefined : dump!.nodes[n.parent]) tags.unshift(n.tag);
  return tags.join(' > ') || `#${index}`;
}

const ENGINE_LABELS: Record<EngineName, string> = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKitGTK' };
const engineLabel = (engine: EngineName, version: string | null) => `${ENGINE_LABELS[engine]} ${version ?? '(build not recorded)'}`;

/**
 * The reduced case as a file of its own: once it has loaded and its fonts have loaded it is laid out
 * afresh (its root taken out of the layout and put back, as the oracle measures every case, since
 * an engine's layout can depend on the passes it ran while the page loaded), then its script, if
 * any, runs, and `window.${LAID_OUT}` is set (the report's self-check waits for it); under the
 * square font the font itself is inline, for every element. Both go at the end of the body, after
 * all the case's elements, so every node keeps its index. Its fonts have loaded when
 * `document.fonts.ready` settles, or when a layout leaves `document.fonts.status` at `loaded`:
 * browsers settle the promise after a layout of their own, which a frame or page not shown may not
 * get (Firefox holds it while a reflow is pending; the triage e2e saw Firefox, and once Chromium,
 * never run the check within 60 s).
 */
function standalone(request: { html: string; script?: string }, fonts: string | null): string {
  let extra =
    "<script>addEventListener('load', () => {\nlet poll;\nnew Promise((loaded) => {\ndocument.fonts.ready.then(loaded);\n" +
    "poll = setInterval(() => { document.documentElement.getBoundingClientRect(); if (document.fonts.status === 'loaded') loaded(); }, 50);\n" +
    '}).then(() => {\nclearInterval(poll);\n' +
    "const root = document.documentElement, style = root.getAttribute('style');\n" +
    "root.setAttribute('style', (style ?? '') + ';display:none!important');\n" +
    'root.getBoundingClientRect();\n' +
    "if (style === null) root.removeAttribute('style'); else root.setAttribute('style', style);\n" +
    `try {\n${request.script ?? ''}\n} finally {\nwindow.${LAID_OUT} = true;\n}\n});\n});</script>`;
  if (fonts === 'square') {
    // Without text only the regular face's metrics matter (a line's strut); with text, bold and italic too.
    const text = />[^<]+</.test(request.html);
    const faces = FONT_SETS.square.files
      .filter((file) => file.endsWith(text ? '.otf' : '-Regular.otf'))
      .map((file) => {
        const face = /-(Regular|Bold|Italic|BoldItalic)\.otf$/.exec(file)?.[1] ?? 'Regular';
        const weight = face.startsWith('Bold') ? 'bold' : 'normal';
        const style = face.endsWith('Italic') ? 'italic' : 'normal';
        const data = readFileSync(file).toString('base64');
        return `@font-face{font-family:"Browser Oracle Square";font-weight:${weight};font-style:${style};src:url(data:font/otf;base64,${data})}`;
      });
    extra += `<style>${faces.join('')}*,::before,::after{font-family:"Browser Oracle Square"!important}</style>`;
  }
  return /<\/body>/i.test(request.html) ? request.html.replace(/<\/body>(?![\s\S]*<\/body>)/i, `${extra}</body>`) : request.html + extra;
}
