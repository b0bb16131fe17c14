// A .any.js or .window.js test as the page WPT's server wraps it in, for its window scope: its
// `// META:` lines (title, script, timeout, global, variant) read as wptserve reads them, and the
// wrapper page built from them, which the importer then converts like any .html test.
import { Refusal } from './refusal.js';
import type { TestKind } from './test-kind.js';

export interface ScriptMeta {
  title: string | null;
  scripts: string[];
  long: boolean;
  /** The scopes `global=` names (.any.js), or null when the file has no such line. */
  globals: string[] | null;
  variants: string[];
}

/** The leading `// META: key=value` lines; the first other line ends them. */
export function scriptMeta(text: string): ScriptMeta {
  const meta: ScriptMeta = { title: null, scripts: [], long: false, globals: null, variants: [] };
  for (const line of text.split(/\r\n?|\n/)) {
    const m = /^\/\/\s*META:\s*(\w*)=(.*)$/.exec(line);
    if (!m) break;
    const [, key, value] = m as unknown as [string, string, string];
    if (key === 'title') meta.title = value.trim();
    else if (key === 'script') meta.scripts.push(value.trim());
    else if (key === 'timeout') meta.long = value.trim() === 'long';
    else if (key === 'global') meta.globals = [...(meta.globals ?? []), ...value.split(',').map((g) => g.trim())];
    else if (key === 'variant') meta.variants.push(value.trim());
  }
  return meta;
}

/** Scopes of `global=` that include the window (wptserve's names: `default` is window and dedicated worker). */
const WINDOW_SCOPES = new Set(['window', 'default']);

/**
 * The window-scope wrapper page of the script test at `path` (its own URL is `/<path>`), as
 * wptserve serves `x.any.html` and `x.window.html`. Refused when the test has no window scope.
 */
export function wrapperPage(path: string, kind: Extract<TestKind, 'any' | 'window'>, meta: ScriptMeta): string {
  if (kind === 'any' && meta.globals !== null && !meta.globals.some((g) => WINDOW_SCOPES.has(g))) {
    const scopes = meta.globals.join(',');
    throw new Refusal(/worker/.test(scopes) ? 'worker' : 'unsupported', `runs in ${scopes} only (META: global), not in a window`);
  }
  const lines = ['<!doctype html>', '<meta charset=utf-8>'];
  if (meta.long) lines.push('<meta name="timeout" content="long">');
  if (meta.title !== null) lines.push(`<title>${escapeText(meta.title)}</title>`);
  for (const variant of meta.variants) lines.push(`<meta name="variant" content="${escapeAttribute(variant)}">`);
  lines.push('<script src="/resources/testharness.js"></script>', '<script src="/resources/testharnessreport.js"></script>');
  for (const src of meta.scripts) lines.push(`<script src="${escapeAttribute(src)}"></script>`);
  lines.push('<div id=log></div>', `<script src="${escapeAttribute(`/${path}`)}"></script>`);
  return `${lines.join('\n')}\n`;
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, '&quot;');
