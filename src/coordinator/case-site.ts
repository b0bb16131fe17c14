// A case's `site` (src/protocol/site-schema.ts), as the case server serves it: each engine's copy
// of the page, and its retry copy, on a host of its own, http://<32 random hex>.localhost:<port>,
// the page at /<site.path> and every file at /<its key>, so that `/fonts/ahem.css`,
// `support/x.png` and `../../support/grid.css` resolve as they do under wptserve, against the
// page's own path. The engines send every request to the case server as their proxy, so the name
// is never resolved; the host is unguessable, so no other case's page reaches it. A file is
// served to GET as often as asked, with any query, until the answer is released; then the host
// is forgotten and its URLs answer 404. The page's document is sandboxed (an opaque origin), so
// its fonts and module scripts are CORS loads: every file allows any origin.
import { fileType, siteKeyOfPath } from '../protocol/site-paths.js';
import { siteFileBytes, type Site } from '../protocol/site-schema.js';

/** A file served beside a page: its bytes and content type. */
export interface ServedFile {
  body: Buffer;
  type: string;
}

/** What every file of a site is served with, beside its type. */
export const SITE_FILE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'access-control-allow-origin': '*',
} as const;

/** A site host's name, as a request names it: 32 hex digits, then .localhost. */
const SITE_HOST = /^([0-9a-f]{32})\.localhost$/;

/** One copy's host: its page (until served) and its files. */
interface SiteHost<D> {
  /** The page's path, with its leading slash. */
  page: string;
  /** The page's document, until it is served (once). */
  document: D | null;
  files: ReadonlyMap<string, ServedFile>;
  caseId: string;
}

/** The sites in flight, by host label; `D` is the case server's document record. */
export class SiteHosts<D> {
  private readonly hosts = new Map<string, SiteHost<D>>();

  /** The site's files, made once for every copy of a case. */
  static files(site: Site): ReadonlyMap<string, ServedFile> {
    return new Map(Object.entries(site.files).map(([key, file]) => [`/${key}`, { body: siteFileBytes(file), type: fileType(key) }]));
  }

  /** Serves `document` at the site's path on host `label` (32 hex digits), with `files`, until `forget(label)`. */
  add(label: string, site: Site, files: ReadonlyMap<string, ServedFile>, document: D, caseId: string): string {
    this.hosts.set(label, { page: `/${site.path}`, document, files, caseId });
    return `${label}.localhost`;
  }

  forget(label: string): void {
    this.hosts.delete(label);
  }

  /** Whether `host` (without its port) is a site host's name, in flight or not: the case server's own, never egress. */
  static isSiteHost(host: string): boolean {
    return SITE_HOST.test(host);
  }

  /**
   * What a GET of `path` (as sent, query included) on `host` gets: the page's document (once), a
   * file, or nothing (404): a host not in flight, a path not its own.
   */
  lookup(host: string, path: string): { document: D } | { file: ServedFile } | null {
    const site = this.hosts.get(SITE_HOST.exec(host)?.[1] ?? '');
    if (site === undefined) return null;
    const key = siteKeyOfPath(path);
    if (`/${key}` === site.page) {
      const document = site.document;
      site.document = null;
      return document === null ? null : { document };
    }
    const file = site.files.get(`/${key}`);
    return file ? { file } : null;
  }

  /** The case whose site `host` is, for the refusal log. */
  caseOf(host: string): string | undefined {
    return this.hosts.get(SITE_HOST.exec(host)?.[1] ?? '')?.caseId;
  }
}
