// The author style sheets a page has, in cascade order: its `<style>` elements and the sheets its
// `<link rel=stylesheet>` elements load, in document order, each sheet's @imports before its own
// rules. A linked or imported sheet is read from the case's `site` (a WPT page's
// /css/support/grid.css, ../support/x.css), found as the case server serves it to the browsers
// (src/protocol/site-paths.ts): resolved against the page's path or the importing sheet's, served
// only as a key of the site's files, applied only as text/css. What no browser gets (no site, a
// missing file, another origin, an import cycle) applies nothing here either. The page's URLs
// resolve against its first `<base href>`, as a browser's do. An @font-face defines its family
// only when a browser gets its font: some `src` is a data: URL or a file of the site.
import { resolveSiteHref, fileType } from '../../protocol/site-paths.js';
import { siteFileBytes, type Site } from '../../protocol/site-schema.js';
import type { Document } from './document.js';
import { sheetOf, type Sheet } from './sheets.js';
import { Unsupported } from './unsupported.js';

/** Sheets a page may load through links and imports together; an import graph that reaches more is not laid out. */
const MAX_SHEETS = 1024;

/** A `media` the 800 × 600 screen viewport always matches. */
const ALL_MEDIA = /^\s*(all|screen)?\s*$/i;

/** A sheet of the page, and the site key its URLs resolve against (null: nothing it names is served). */
export interface PageSheet {
  readonly sheet: Sheet;
  readonly at: string | null;
}

/** The page's author sheets, parsed, in the order the cascade takes them; Unsupported for what decides it that is not modelled. */
export function authorSheets(document: Document): PageSheet[] {
  const { site } = document;
  const base = documentBase(document);
  const sheets: PageSheet[] = [];
  let loaded = 0;
  /** `sheet`, found at site key `at` (the document's base for a `<style>`), after what it imports; `chain`: the keys importing it. */
  const add = (sheet: Sheet, at: string | null, chain: readonly string[]) => {
    for (const href of sheet.imports) {
      const key = at === null ? null : resolveSiteHref(href, at);
      const text = key === null || chain.includes(key) ? null : served(site, key);
      if (text === null) continue;
      if (++loaded > MAX_SHEETS) throw new Unsupported(`more than ${MAX_SHEETS} style sheets through @import`);
      add(sheetOf(text), key, [...chain, key!]);
    }
    sheets.push({ sheet, at });
  };
  for (const s of document.styleSheets) {
    if (typeof s === 'string') {
      add(sheetOf(s), base, []);
      continue;
    }
    const key = base === null ? null : resolveSiteHref(s.href, base);
    const text = key === null ? null : served(site, key);
    if (text === null) continue;
    if (s.media !== null && !ALL_MEDIA.test(s.media)) throw new Unsupported(`<link media="${s.media}">`);
    if (++loaded > MAX_SHEETS) throw new Unsupported(`more than ${MAX_SHEETS} style sheets through <link>`);
    add(sheetOf(text), key, [key!]);
  }
  return sheets;
}

/** The families, lower-case, of the @font-face rules of `sheets` whose font a browser gets. */
export function loadedFontFaces(sheets: readonly PageSheet[], site: Site | undefined): Set<string> {
  const loads = (url: string, at: string | null) => {
    if (/^\s*data:/i.test(url)) return true;
    const key = at === null ? null : resolveSiteHref(url, at);
    return key !== null && site !== undefined && Object.hasOwn(site.files, key);
  };
  const families = new Set<string>();
  for (const { sheet, at } of sheets)
    for (const face of sheet.fontFaces) if (face.urls.some((url) => loads(url, at))) families.add(face.family);
  return families;
}

/** The site key the page's relative URLs resolve against: its first `<base href>` resolved, else its own path; null without a site. */
function documentBase({ site, elements }: Document): string | null {
  if (!site) return null;
  const base = elements.find((e) => e.html && e.name === 'base' && e.attributes.has('href'));
  return base ? resolveSiteHref(base.attributes.get('href')!, site.path) : site.path;
}

/** The text of the sheet at site key `key`, as a browser applies it; null when the site serves none there (a 404, or not text/css). */
function served(site: Site | undefined, key: string): string | null {
  const file = site && Object.hasOwn(site.files, key) ? site.files[key] : undefined;
  if (file === undefined || !fileType(key).startsWith('text/css')) return null;
  return typeof file === 'string' ? file : siteFileBytes(file).toString('utf8');
}
