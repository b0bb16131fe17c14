// The report's only stylesheet and script, inline, and the Content-Security-Policy that allows
// exactly these two and data: images: the file loads nothing, and even markup that slipped
// through escaping could neither run script nor fetch anything.
import { createHash } from 'node:crypto';
import { ENGINE_NAMES } from '../protocol/schema.js';
import { html, type Html } from './html.js';

/** The <style> element. */
export const STYLE: Html = html`<style>
:root { color-scheme: light; --line: #d0d7de; --muted: #57606a; --hit: #d1004b; --box: #0969da; --candidate: #1a7f37; }
body { margin: 0 auto; padding: 0 24px 48px; max-width: 1500px; font: 14px/1.45 system-ui, sans-serif; color: #1f2328; background: #fff; }
h1 { font-size: 22px; margin: 20px 0 4px; }
h2 { font-size: 17px; margin: 0 0 6px; }
h3 { font-size: 14px; margin: 14px 0 6px; }
h4 { font-size: 12px; margin: 8px 0 2px; }
code, pre, textarea { font: 12.5px/1.4 ui-monospace, monospace; }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.muted, figcaption small { color: var(--muted); }
.bucket { border-top: 2px solid var(--line); padding: 16px 0 8px; margin-top: 18px; }
.engines { display: grid; grid-template-columns: repeat(${ENGINE_NAMES.length}, minmax(0, 1fr)); grid-auto-columns: minmax(0, 1fr); grid-auto-flow: column; gap: 14px; margin: 10px 0; }
figure { margin: 0; min-width: 0; }
figcaption { font-weight: 600; margin-bottom: 4px; }
.view { position: relative; aspect-ratio: 4 / 3; border: 1px solid var(--line); background: #f6f8fa; overflow: hidden; }
.view img, .view svg { position: absolute; inset: 0; width: 100%; height: 100%; }
.view img { object-fit: contain; object-position: left top; }
.placeholder { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; padding: 12px; text-align: center; color: var(--muted); }
.overlay .box { fill: none; stroke: var(--box); stroke-opacity: 0.6; stroke-width: 1; vector-effect: non-scaling-stroke; }
.overlay .hit .box { fill: rgb(209 0 75 / 0.12); stroke: var(--hit); stroke-opacity: 1; stroke-width: 2.5; }
.overlay .hit .fragment { fill: none; stroke: var(--hit); stroke-dasharray: 4 3; stroke-width: 1; vector-effect: non-scaling-stroke; }
.overlay.candidate .box { stroke: var(--candidate); stroke-opacity: 0.9; }
figure.candidate figcaption { color: var(--candidate); }
.error { color: #a40e26; white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
.failing { border-left: 4px solid var(--hit); padding: 2px 10px; background: #fff5f7; }
pre { margin: 0 0 6px; background: #f6f8fa; border: 1px solid var(--line); padding: 8px; overflow: auto; max-height: 22em; white-space: pre-wrap; overflow-wrap: anywhere; }
textarea { width: 100%; box-sizing: border-box; min-height: 6em; }
button { font: inherit; padding: 2px 10px; cursor: pointer; }
.tag { display: inline-block; padding: 0 6px; border-radius: 8px; background: #ddf4ff; font-size: 12px; }
</style>`;

// Copies the request of the button's `data-copy` textarea. The clipboard API is missing or
// refused on some file:// pages, so it falls back to selecting the text (and execCommand),
// and at worst shows the text selected for the reader to copy; it never throws.
/** The <script> element. */
export const SCRIPT: Html = html`<script>
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  const source = button && document.getElementById(button.dataset.copy);
  if (!source) return;
  const status = button.nextElementSibling;
  const say = (text) => { if (status) status.textContent = text; };
  const select = () => {
    for (let d = source.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) d.open = true;
    source.focus();
    source.select();
  };
  const fallback = () => {
    let copied = false;
    try { select(); copied = document.execCommand('copy'); } catch (_) { copied = false; }
    say(copied ? 'copied' : 'selected: copy it with Ctrl+C');
  };
  try {
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(source.value).then(() => say('copied'), fallback);
    else fallback();
  } catch (_) {
    fallback();
  }
});
</script>`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const content = (element: Html, tag: string) => element.text.slice(`<${tag}>`.length, -`</${tag}>`.length);

/** The policy for a <meta http-equiv> (so no frame-ancestors, which a meta element may not set). */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  'img-src data:',
  `style-src ${sha256(content(STYLE, 'style'))}`,
  `script-src ${sha256(content(SCRIPT, 'script'))}`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
