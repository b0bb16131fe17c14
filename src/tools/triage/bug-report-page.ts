// A finding's report for a browser's tracker, as one HTML file (a pure function of its input). It
// holds the test case itself, live, in an 800×600 frame (the oracle's viewport), and a script that
// measures the nodes that differ in whatever browser opens the file and says whether the difference
// shows there (also on the root element, `data-matches` and `data-reproduces`); what each engine computed there; the
// builds; the steps to reproduce; and the text for the tracker of the engine that differs, in the
// fields each asks for: Chromium's issue tracker (Blink>Layout: version, OS, other browsers tested,
// steps, expected, actual), Mozilla's Bugzilla (Core :: Layout: steps to reproduce, actual results,
// expected results) and WebKit's Bugzilla (Layout and Rendering: steps to reproduce, expected
// results, actual results, build). It fetches nothing.
import { html, type Html } from '../../report/html.js';

/** A column of values: an engine, or the candidate. */
export interface BugColumn {
  name: string;
  /** Its name and build, as a tracker reads it: `Firefox 153.8.0esr`. */
  label: string;
}

interface BugBox {
  x: number;
  y: number;
  w: number;
  h: number;
  fragments: number;
}

/** A node that differs, with each column's box and differing styles. */
export interface BugNode {
  index: number;
  /** Its tags from the root: `HTML > BODY > DIV`. */
  path: string;
  /** The difference starts here (the node the signature names). */
  starts: boolean;
  boxes: Record<string, BugBox>;
  styles: { property: string; values: Record<string, string> }[];
}

export interface BugReportInput {
  /** `F3`. */
  id: string;
  template: string;
  signature: string;
  /** The engine (or candidate) that differs; null for a split. */
  outlier: string | null;
  /** The engines that agree, when some do. */
  majority: string[];
  /** A candidate's finding: which candidate. */
  candidate: { name: string; version: string } | null;
  members: number;
  caseId: string;
  /** The reduced case as triage found it: its html, and its script when it has one. */
  source: { html: string; script?: string };
  /** The standalone test case: the reduced case, its script run on load, and its font when it was found under the square font. */
  testcase: string;
  columns: BugColumn[];
  nodes: BugNode[];
  fonts: string | null;
  platform: string;
  writtenAt: string;
}

/** The flag the test case sets on its window once its own work on load is done (bug-report.ts standalone). */
export const LAID_OUT = 'browserOracleLaidOut';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; font-src data:; img-src data:";

const STYLE = html`<style>
body { margin: 0 auto; padding: 0 24px 48px; max-width: 1100px; font: 14px/1.45 system-ui, sans-serif; color: #1f2328; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 26px; }
code, pre, textarea { font: 12.5px/1.4 ui-monospace, monospace; }
pre { background: #f6f8fa; border: 1px solid #d0d7de; padding: 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 6px 0 12px; } th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; } .odd { background: #fff5f7; color: #a40e26; }
#testcase { display: block; width: 800px; height: 600px; border: 0; outline: 1px solid #d0d7de; }
textarea { width: 100%; box-sizing: border-box; min-height: 16em; } .muted { color: #57606a; }
</style>`;

/**
 * Measures the nodes that differ in the browser that opened the file, once the test case has loaded,
 * been laid out afresh and run its script, and says whether it computes what the majority does:
 * `data-matches` on the root element lists the columns whose values it matches, and
 * `data-reproduces` is `true` when it differs from the majority (the difference shows here).
 */
const SELF_CHECK = html`<script>(() => {
  const data = JSON.parse(document.getElementById('expected').dataset.values);
  const frame = document.getElementById('testcase');
  const near = (a, b) => ['x', 'y', 'w', 'h'].every((k) => Math.abs(a[k] - b[k]) <= 1 / 60 + 1e-9);
  const names = (list) => list.map((c) => data.labels[c]).join(' and ');
  const check = () => {
    const all = frame.contentDocument.getElementsByTagName('*');
    const seen = data.nodes.map((n) => { const r = all[n.index] && all[n.index].getBoundingClientRect(); return r && { x: r.x, y: r.y, w: r.width, h: r.height }; });
    const matches = data.columns.filter((c) => data.nodes.every((n, i) => seen[i] && n.boxes[c] && near(seen[i], n.boxes[c])));
    const expected = data.majority.length > 0 && data.majority.every((m) => matches.includes(m));
    const values = data.nodes.map((n, i) => n.path + (seen[i] ? ' at ' + seen[i].x + ', ' + seen[i].y + ', ' + seen[i].w + ' × ' + seen[i].h : ' missing')).join('; ');
    const verdict = !data.majority.length ? (matches.length ? 'as ' + names(matches) + ' do.' : 'as none of the engines did.')
      : expected ? 'as ' + names(data.majority) + ' do: the expected result.'
      : 'unlike ' + names(data.majority) + ': the difference reproduces here' + (matches.length ? ', as in ' + names(matches) : '') + '.';
    document.getElementById('verdict').textContent = 'This browser computes ' + values + ', ' + verdict;
    document.documentElement.dataset.matches = matches.join(' ') || 'none';
    document.documentElement.dataset.reproduces = data.majority.length ? String(!expected) : 'unknown';
  };
  // After the test case's own work on load (its fonts, its fresh layout, its script), which it says by a flag on its
  // window; polled, as neither a load event that came before this script nor an animation frame (none in a page not
  // shown) can be counted on.
  const wait = setInterval(() => {
    const win = frame.contentWindow;
    if (!win || win.document.URL !== 'about:srcdoc' || win.${LAID_OUT} !== true) return;
    clearInterval(wait);
    check();
  }, 50);
})();</script>`;

/** The signature's parts: for the engines `<verdict> | <kind> | <tag> | <styles>`, for a candidate `candidate <name> | <verdict> | <kind> | <subpixel> | <tag> | <properties>`. */
function parts(signature: string): { kind: string; tag: string; what: string } {
  const fields = signature.split(' | ');
  if (fields[0]!.startsWith('candidate ')) return { kind: fields[2] ?? '-', tag: fields[4] ?? '-', what: fields[5] ?? '-' };
  return { kind: fields[1] ?? '-', tag: fields[2] ?? '-', what: fields[3] ?? '-' };
}

const px = (n: number) => String(Math.round(n * 1000) / 1000);
const box = (b: BugBox | undefined) =>
  b ? `x ${px(b.x)}, y ${px(b.y)}, ${px(b.w)} × ${px(b.h)} px${b.fragments > 1 ? `, ${b.fragments} fragments` : ''}` : 'no box';

/** One line a tracker's title field takes. */
function title(r: BugReportInput): string {
  const { kind, tag } = parts(r.signature);
  const label = (name: string) => r.columns.find((c) => c.name === name)?.label.split(' ')[0] ?? name;
  const where = `<${tag.toLowerCase()}> (${kind})`;
  if (r.outlier === null) return `The engines lay out ${where} three ways: ${r.template}`;
  return `${label(r.outlier)} lays out ${where} differently from ${r.majority.map(label).join(' and ')}: ${r.template}`;
}

/** What each engine computed at each node that differs, as text. */
function values(r: BugReportInput, names: string[]): string {
  return r.nodes
    .map(
      (n) =>
        `  ${n.path}${n.starts ? ' (where it starts)' : ''}: ${names.map((name) => `${r.columns.find((c) => c.name === name)?.label ?? name}: ${box(n.boxes[name])}`).join('; ')}`,
    )
    .join('\n');
}

function steps(r: BugReportInput): string {
  return [
    '1. Open the attached testcase.html in a window whose viewport is 800 × 600 CSS px, at device pixel ratio 1' +
      (r.fonts === 'square'
        ? ' (the file carries its font: every element uses the one-em-square test font it embeds).'
        : r.fonts === 'liberation'
          ? ' with the Liberation fonts as the default serif, sans-serif and monospace families.'
          : '.'),
    '2. Once it has loaded and its fonts are ready, read getBoundingClientRect() of the nodes below (document order of getElementsByTagName("*") gives each its index).',
    '3. Compare with what the other engines compute (below).',
  ].join('\n');
}

/** The text for one tracker, in the fields it asks for; `engine` is whose tracker it is. */
function trackerText(r: BugReportInput, engine: string): string {
  const self = r.columns.find((c) => c.name === engine)!;
  const others = r.columns.filter((c) => c.name !== engine);
  const expected =
    r.majority.length && !r.majority.includes(engine)
      ? `As ${r.majority.map((m) => r.columns.find((c) => c.name === m)?.label ?? m).join(' and ')} compute it:\n${values(r, r.majority.slice(0, 1))}`
      : `The other engines do not agree with each other; they compute:\n${values(
          r,
          others.map((c) => c.name),
        )}`;
  const actual = `${self.label} computes:\n${values(r, [engine])}`;
  const notes =
    `Reduced by browser-oracle triage (finding ${r.id}) from generated case ${r.caseId}; ${r.members} recorded case(s) share its template:\n  ${r.template}\n` +
    `Test case source (testcase.html adds${r.fonts === 'square' ? ' the font and' : ''} the script's start on load):\n${r.source.html}` +
    (r.source.script === undefined ? '' : `\nScript, run once loaded and its fonts ready:\n${r.source.script}`);
  switch (engine) {
    case 'chromium':
      return [
        `Summary: ${title(r)}`,
        `Chrome Version: ${self.label}`,
        `OS: ${r.platform}`,
        'URLs (if applicable): none; testcase.html attached',
        `Other browsers tested:\n${others.map((c) => `  ${c.label}: ${r.majority.includes(c.name) && !r.majority.includes(engine) ? 'OK' : 'differs'}`).join('\n')}`,
        `What steps will reproduce the problem?\n${steps(r)}`,
        `What is the expected result?\n${expected}`,
        `What happens instead?\n${actual}`,
        `Please provide any additional information below.\n${notes}`,
      ].join('\n\n');
    case 'firefox':
      return [
        `Summary: ${title(r)}`,
        `Build: ${self.label} on ${r.platform}`,
        `Steps to reproduce:\n${steps(r)}`,
        `Actual results:\n${actual}`,
        `Expected results:\n${expected}`,
        `Additional information:\n${notes}`,
      ].join('\n\n');
    default:
      return [
        `Summary: ${title(r)}`,
        `Steps to Reproduce:\n${steps(r)}`,
        `Expected Results:\n${expected}`,
        `Actual Results:\n${actual}`,
        `Build/Version: ${self.label} on ${r.platform}`,
        `Additional Information:\n${notes}`,
      ].join('\n\n');
  }
}

const TRACKERS: Record<string, string> = {
  chromium: "Chromium's issue tracker (issues.chromium.org, component Blink>Layout)",
  firefox: "Mozilla's Bugzilla (bugzilla.mozilla.org, Core :: Layout)",
  webkit: "WebKit's Bugzilla (bugs.webkit.org, Layout and Rendering)",
};

/** The trackers to file with: the outlier's (a candidate's own), or every engine's for a split. */
function trackers(r: BugReportInput): Html[] {
  const whose = r.outlier !== null ? [r.outlier] : r.columns.map((c) => c.name);
  return whose.flatMap((engine) => {
    if (!r.columns.some((c) => c.name === engine)) return [];
    const where = TRACKERS[engine] ?? `${engine}'s tracker`;
    return [html`<h2>For ${where}</h2><textarea readonly>\n${trackerText(r, engine)}</textarea>`];
  });
}

function nodeTable(r: BugReportInput): Html {
  const rows = r.nodes.map((n) => {
    const cells = r.columns.map((c) => {
      const b = n.boxes[c.name];
      return html`<td class="n${c.name === r.outlier ? ' odd' : ''}">${b ? `${px(b.x)}, ${px(b.y)}` : '-'}</td><td class="n${c.name === r.outlier ? ' odd' : ''}">${b ? `${px(b.w)} × ${px(b.h)}${b.fragments > 1 ? ` (${b.fragments})` : ''}` : '-'}</td>`;
    });
    const styles = n.styles.map(
      (s) =>
        html`<tr><td></td><td><code>${s.property}</code></td>${r.columns.map((c) => html`<td colspan="2"><code>${s.values[c.name] ?? '-'}</code></td>`)}</tr>`,
    );
    return html`<tr><td class="n">${n.index}</td><td><code>${n.path}</code>${n.starts ? html` <strong>starts here</strong>` : null}</td>${cells}</tr>${styles}`;
  });
  return html`<table><tr><th>#</th><th>node</th>${r.columns.map((c) => html`<th colspan="2">${c.label}<br><small class="muted">x, y · width × height (fragments)</small></th>`)}</tr>${rows}</table>`;
}

/** The report as one HTML document. */
export function renderBugReport(r: BugReportInput): string {
  const expected = JSON.stringify({
    columns: r.columns.map((c) => c.name),
    labels: Object.fromEntries(r.columns.map((c) => [c.name, c.label])),
    majority: r.majority,
    nodes: r.nodes.map((n) => ({ index: n.index, path: n.path, boxes: n.boxes })),
  });
  const download = `data:text/html;charset=utf-8;base64,${Buffer.from(r.testcase).toString('base64')}`;
  const { kind, tag, what } = parts(r.signature);
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${r.id}: ${title(r)}</title>${STYLE}</head>
<body><h1>${r.id}: ${title(r)}</h1>
<p>Signature <code>${r.signature}</code> (${kind} of <code>${tag}</code>${what !== '-' ? html`, <code>${what}</code>` : null}); ${r.members} recorded case(s) share the template <code>${r.template}</code>. Written ${r.writtenAt}.</p>
<h2>Test case</h2>
<p class="muted">Live below in an 800 × 600 frame, the oracle's viewport; it is also <a download="testcase.html" href="${download}">testcase.html</a>, a file of its own to attach.</p>
<iframe id="testcase" title="test case" srcdoc="${r.testcase}"></iframe>
<p id="verdict" role="status">This browser: measuring…</p>
<pre>${r.source.html}</pre>${r.source.script === undefined ? null : html`<p class="muted">Its script, run once it has loaded and its fonts are ready:</p><pre>${r.source.script}</pre>`}
<h2>What each engine computed</h2>
${nodeTable(r)}
<h2>Builds</h2>
<ul>${r.columns.map((c) => html`<li>${c.label}</li>`)}<li>Fonts: ${r.fonts ?? 'not recorded'}${r.fonts === 'square' ? ' (the one-em-square test font, embedded in the test case)' : ''}</li><li>Viewport 800 × 600 CSS px, device pixel ratio 1; ${r.platform}</li></ul>
<h2>Steps to reproduce</h2>
<pre>${steps(r)}</pre>
${trackers(r)}
<div id="expected" hidden data-values="${expected}"></div>
${SELF_CHECK}
</body></html>
`.text;
}
