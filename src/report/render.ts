// `browser-oracle report`'s page: one self-contained static HTML file, a pure function of its
// input. Images and data are inline, the only style and script are inline and pinned by the
// page's Content-Security-Policy, and every text a client or an engine chose is escaped.
import { CONTENT_SECURITY_POLICY, SCRIPT, STYLE } from './assets.js';
import { bucketSection } from './bucket-section.js';
import { findingSection } from './finding-section.js';
import { html } from './html.js';
import type { ReportInput } from './input.js';
import { summarySection } from './summary-section.js';

/** Where findings' keys start, past any bucket's (a bucket's section is keyed by its number). */
const BUCKET_KEYS = 1_000_000;

/** The report as one HTML document. */
export function renderReport(input: ReportInput): string {
  const { summary } = input;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>browser-oracle report</title>${STYLE}</head>
<body><header><h1>browser-oracle report</h1><p class="muted">${summary.cases} cases, ${summary.buckets.length} ${
    summary.buckets.length === 1 ? 'bucket' : 'buckets'
  } · made ${input.generatedAt}</p></header>
${summarySection(summary, input.runs)}
${(summary.findings ?? []).map((f, i) => findingSection(f, i + 1, BUCKET_KEYS + i, input.findings?.get(f.id)))}
${[...summary.buckets, ...(summary.candidate?.buckets ?? [])].map((b, i) => bucketSection(b, i + 1, input.examples.get(b.signature)))}
${SCRIPT}</body></html>
`.text;
}
