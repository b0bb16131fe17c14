// The files a WPT page reaches, as a request's `site` carries them (src/protocol/site-schema.ts):
// every file its markup, its CSS and its scripts load, by absolute path (`/fonts/ahem.css`) or
// relative to where each is served, followed through what those files load in turn (a stylesheet's
// @import and url(), a module's imports, a frame's page), text as text and anything else as base64.
// The harness's files are the stand-ins (stand-ins.ts). What only wptserve can answer (a handler,
// substitutions, a pipe), another origin, https and testdriver are refused, as in the trace route.
import { posix } from 'node:path';
import { parse } from 'parse5';
import postcss from 'postcss';
import { SITE_LIMITS, TRACE_FILE_PATH, type Site } from '../protocol/site-schema.js';
import { Checkout } from './checkout.js';
import { attribute, elementsOf, JS_TYPES, LOADING_ATTRIBUTES, LOADING_LINKS, relTokens, resolveUrl, textOf } from './markup.js';
import { Refusal } from './refusal.js';
import { scriptFacts } from './script-facts.js';
import type { DefaultTreeAdapterTypes as T } from 'parse5';

const FILE_KEY = new RegExp(TRACE_FILE_PATH);
/** `url(…)` in a CSS value, quoted or not. */
const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)/gi;

export class SiteClosure {
  readonly files = new Map<string, Site['files'][string]>();
  private bytes = 0;
  /** The text of every script the page and its files run, but the stand-ins: for what they call. */
  readonly scripts: string[] = [];

  /** `scripts: false`: leave the page's <script> elements alone (the trace route inlines them itself). */
  constructor(
    private readonly checkout: Checkout,
    private readonly standIns: ReadonlyMap<string, string>,
    private readonly options: { scripts: boolean } = { scripts: true },
  ) {}

  /** Everything the page at `path`, whose markup is `doc`, loads. */
  page(doc: T.Document, path: string): void {
    this.markup(doc, Checkout.urlOf(path), 'the page');
  }

  /** The URL `raw`, which the document or file at `base` names, and what it loads in turn; `script`: it is loaded as a script (a missing one is refused). */
  url(raw: string, base: URL, what: string, script = false): void {
    const target = resolveUrl(raw, base, what);
    if (target instanceof Refusal) throw target;
    if (target !== null) this.file(target, what, script);
  }

  /** The site: the page's path and every file it reaches, in path order. */
  site(path: string): Site {
    return { path, files: Object.fromEntries([...this.files].sort(([x], [y]) => (x < y ? -1 : 1))) };
  }

  private file(path: string, what: string, script: boolean): void {
    if (this.files.has(path)) return;
    if (path.startsWith('resources/testdriver')) throw new Refusal('testdriver', `it loads /${path}`);
    if (path === 'common/get-host-info.sub.js') throw new Refusal('other_origin', `it loads /${path}, for other hosts`);
    const name = posix.basename(path);
    if (/\.(py|asis)$/.test(name) || name.split('.').slice(1).includes('sub'))
      throw new Refusal('server_side', `${what}: /${path} is answered by wptserve, not served as a file`);
    const standIn = this.standIns.get(path);
    if (standIn !== undefined) return void this.add(path, standIn, Buffer.byteLength(standIn));
    if (!this.checkout.exists(path)) {
      // wptserve answers a missing file 404, and so does the case server; a script the test needs is another matter.
      if (script) throw new Refusal('missing_file', `${what}: /${path} is not in the checkout`);
      return;
    }
    if (!FILE_KEY.test(path)) throw new Refusal('unsupported', `${what} names /${path}, a path a site cannot hold`);
    if (!Checkout.isText(path)) {
      const bytes = this.checkout.bytes(path)!;
      return void this.add(path, { base64: bytes.toString('base64') }, bytes.length);
    }
    const text = this.checkout.read(path)!;
    this.add(path, text, Buffer.byteLength(text));
    const base = Checkout.urlOf(path);
    if (/\.css$/i.test(path)) this.css(text, base, `/${path}`);
    else if (/\.m?js$/i.test(path)) this.script(text, base, `/${path}`);
    else if (/\.(html?|xht|xhtml|svg)$/i.test(path)) this.markup(parse(text), base, `/${path}`);
  }

  private add(path: string, file: Site['files'][string], size: number): void {
    this.bytes += size;
    if (this.files.size >= SITE_LIMITS.files || this.bytes > SITE_LIMITS.bytes)
      throw new Refusal('too_large', `it loads more than ${SITE_LIMITS.files} files or ${SITE_LIMITS.bytes} bytes`);
    this.files.set(path, file);
  }

  /** What a document's markup loads: its elements' URLs, its scripts, its style sheets and style attributes. */
  private markup(doc: T.Document, base: URL, where: string): void {
    for (const e of elementsOf(doc)) {
      const style = attribute(e, 'style');
      if (style !== null) this.css(`x{${style}}`, base, `the style attribute of a <${e.tagName}> in ${where}`);
      if (e.tagName === 'style') this.css(textOf(e), base, `a <style> in ${where}`);
      if (e.tagName === 'script') {
        if (!this.options.scripts) continue;
        const src = attribute(e, 'src');
        const type = attribute(e, 'type')?.trim().toLowerCase() ?? '';
        if (src !== null) this.url(src, base, `<script src="${src}"> in ${where}`, true);
        else if (JS_TYPES.has(type) || type === 'module') this.script(textOf(e), base, `a script in ${where}`);
        continue;
      }
      if (e.tagName === 'link' && ![...relTokens(e)].some((r) => LOADING_LINKS.has(r))) continue;
      for (const name of LOADING_ATTRIBUTES[e.tagName] ?? []) {
        const value = attribute(e, name);
        if (value !== null) this.url(value, base, `<${e.tagName} ${name}="${value}"> in ${where}`);
      }
      for (const a of e.attrs) if (/^on/i.test(a.name)) this.scripts.push(a.value);
    }
  }

  /** A script's strings that name a file of the checkout (a module's imports, a URL it loads), resolved against where it is served. */
  private script(text: string, base: URL, where: string): void {
    this.scripts.push(text);
    const facts = scriptFacts(text);
    if (facts.testdriver) throw new Refusal('testdriver', `${where} drives test_driver`);
    if (facts.otherHosts) throw new Refusal('other_origin', `${where} asks get_host_info() for other hosts`);
    if (facts.worker) throw new Refusal('worker', `${where}: ${facts.worker}`);
    for (const s of facts.strings) {
      if (s.length > 300 || !/^[\w.~/+,=@%-]+$/.test(s) || !/\.[a-z0-9]+$/i.test(s)) continue;
      const target = resolveUrl(s, base, `${JSON.stringify(s)} in ${where}`);
      if (typeof target === 'string' && this.checkout.exists(target)) this.file(target, `${JSON.stringify(s)} in ${where}`, false);
    }
  }

  /** A style sheet's @import and url() references. */
  private css(text: string, base: URL, where: string): void {
    let root: postcss.Root;
    try {
      root = postcss.parse(text);
    } catch {
      // A sheet postcss cannot read the engines read as far as they can: what it names is found by its url()s.
      for (const [, a, b, c] of text.matchAll(CSS_URL)) this.url(a ?? b ?? c ?? '', base, `url() in ${where}`);
      return;
    }
    root.walkAtRules('import', (rule) => {
      const quoted = /^\s*(?:"([^"]*)"|'([^']*)')/.exec(rule.params);
      if (quoted) this.url(quoted[1] ?? quoted[2] ?? '', base, `@import in ${where}`);
    });
    const urls = (value: string, what: string) => {
      for (const [, a, b, c] of value.matchAll(CSS_URL)) this.url(a ?? b ?? c ?? '', base, what);
    };
    root.walkAtRules((rule) => urls(rule.params, `@${rule.name} in ${where}`));
    root.walkDecls((decl) => urls(decl.value, `${decl.prop} in ${where}`));
  }
}
