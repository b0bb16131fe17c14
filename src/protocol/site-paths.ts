// Where a URL of a `site` page (site-schema.ts) leads, and what type a file is served as: the
// case server's rules (src/coordinator/case-site.ts), here so that whatever reads a page's files
// without a browser (the reference candidates, which read its style sheets) finds the same file
// a browser gets. The page is at /<site.path> on a host of its own and each file at /<its key>;
// a URL resolves as the browser resolves it (WHATWG URL, against the document or sheet it is in),
// and the case server serves the path exactly as sent: no file for another origin, a scheme
// other than http, or a path that names no key.

/** Stands for a site's host, which only the engines' copies know: every URL on it is on the page's own origin. */
const SITE_ORIGIN = 'http://site.localhost';

/** The site key a request's path (as sent: `/css/support/x.css?y`) names on the page's host: `css/support/x.css`. */
export const siteKeyOfPath = (path: string): string => path.replace(/[?#].*$/s, '').replace(/^\//, '');

/**
 * The site key that `href`, found in the page or file at key `from` (`site.path` for the page),
 * loads; null when it leaves the page's origin or is not a fetch over http (data:, another host).
 * Whether that key is in the site's files is the caller's to check: a missing one is a 404.
 */
export function resolveSiteHref(href: string, from: string): string | null {
  let url: URL;
  try {
    url = new URL(href, `${SITE_ORIGIN}/${from}`);
  } catch {
    return null;
  }
  return url.origin === SITE_ORIGIN ? siteKeyOfPath(url.pathname) : null;
}

/** Content types by file extension; anything else is plain text. */
const FILE_TYPES: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'application/xhtml+xml',
  xht: 'application/xhtml+xml',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  js: 'text/javascript',
  mjs: 'text/javascript',
  css: 'text/css',
  json: 'application/json',
  txt: 'text/plain',
  ttf: 'font/ttf',
  otf: 'font/otf',
  woff: 'font/woff',
  woff2: 'font/woff2',
  png: 'image/png',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  ico: 'image/x-icon',
  webm: 'video/webm',
  mp4: 'video/mp4',
};

/** A text type is served as UTF-8; a font, image or video as its bytes. */
const isText = (type: string) => type.startsWith('text/') || type.endsWith('xml') || type === 'application/json';

/**
 * The content type a file is served with, by its name's extension. Files go out with `nosniff`,
 * so a browser applies a style sheet only when this is text/css.
 */
export function fileType(path: string): string {
  const type = FILE_TYPES[/\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? ''] ?? 'text/plain';
  return isText(type) ? `${type}; charset=utf-8` : type;
}
