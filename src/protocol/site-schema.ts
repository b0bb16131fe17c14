// The wire shapes of a case that loads files of its own (a web-platform-tests page): `site`, the
// page's path and the files it reaches, served for that case alone on a host of its own; `wait`,
// what the page signals when it is ready to be measured; and the answer's `scrollbars`, the room
// each engine's viewport scrollbars took (docs/protocol.md, "Site").
import { Type, type Static } from '@sinclair/typebox';
import { literalUnion, PerEngine, strict } from './common.js';

/**
 * A file's path under the page's host (or a trace page's folder): segments of letters, digits and
 * `_ ~ + , = @ - .`, none starting with a dot (so no `.`, `..` or hidden name) and none empty; no
 * leading slash.
 */
export const TRACE_FILE_PATH = '^[A-Za-z0-9_~+,=@-][A-Za-z0-9._~+,=@-]*(/[A-Za-z0-9_~+,=@-][A-Za-z0-9._~+,=@-]*)*$';

/** How many files a site may hold and how many bytes they may decode to, together. */
export const SITE_LIMITS = { files: 256, bytes: 16 * 1024 * 1024 } as const;

const Base64File = Type.Object(
  { base64: Type.String({ pattern: '^[A-Za-z0-9+/]*={0,2}$', contentEncoding: 'base64', description: 'A binary file, base64.' }) },
  strict,
);

export const SiteSchema = Type.Object(
  {
    path: Type.String({
      pattern: TRACE_FILE_PATH,
      description: "The page's own path on its host (`css/css-grid/x.html`): relative URLs in it resolve against it. Not a key of `files`.",
    }),
    files: Type.Record(Type.String({ pattern: TRACE_FILE_PATH }), Type.Union([Type.String(), Base64File]), {
      additionalProperties: false,
      maxProperties: SITE_LIMITS.files,
      description:
        'Every file the page may load, by its path on the host (`fonts/ahem.css` is what `/fonts/ahem.css` loads): text as a string ' +
        `(served as UTF-8), binary as {"base64"}. At most ${SITE_LIMITS.files} files and ${SITE_LIMITS.bytes / 1024 / 1024} MiB decoded.`,
    }),
  },
  {
    ...strict,
    description:
      'The page is served at http://<32 hex>.localhost:<port>/<path>, a host of its own per engine and copy, with these files beside it, until the answer is sent.',
  },
);

export const WaitSchema = literalUnion(
  ['testharness', 'reftest-wait'] as const,
  'Measure once the page says it is done: "testharness", when it dispatches `wpt-harness-complete` on its document; ' +
    '"reftest-wait", when its root element no longer has the class `reftest-wait`. Bounded by the case timeout.',
);

export const ScrollbarsSchema = PerEngine(
  Type.Object(
    {
      x: Type.Number({ minimum: 0, description: 'innerWidth − visualViewport.width: the width a vertical scrollbar took.' }),
      y: Type.Number({ minimum: 0, description: 'innerHeight − visualViewport.height: the height a horizontal scrollbar took.' }),
    },
    strict,
  ),
  'Per engine that walked a `site` case: the room its viewport\'s scrollbars took. An overflowed dump whose room is 0×0 is usable (docs/protocol.md, "Site").',
);

export type Site = Static<typeof SiteSchema>;

/** What the schema cannot say of a site: its page among its files, or too many bytes; null when none. */
export function siteProblem(site: Site): string | null {
  if (Object.hasOwn(site.files, site.path)) return 'field "site.path": must not be a key of "site.files" (the page is served from `html`)';
  let bytes = 0;
  for (const file of Object.values(site.files)) {
    bytes += typeof file === 'string' ? Buffer.byteLength(file, 'utf8') : Math.floor((file.base64.replace(/=+$/, '').length * 3) / 4);
  }
  return bytes > SITE_LIMITS.bytes ? `field "site.files": decodes to ${bytes} bytes, more than ${SITE_LIMITS.bytes}` : null;
}

/** A site file's bytes. */
export const siteFileBytes = (file: Site['files'][string]): Buffer =>
  typeof file === 'string' ? Buffer.from(file, 'utf8') : Buffer.from(file.base64, 'base64');
