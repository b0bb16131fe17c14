// One testharness test made a trace request. The test's page (its .html, or the wrapper of a
// script test) is read with parse5, checked for what a trace page cannot give (each a Refusal),
// and rewritten:
//   - testharness.js, the prelude and the report script (report-script.ts) become the first
//     scripts of the page, before anything of the test's; testharnessreport.js goes (the report
//     script stands for it);
//   - every other <script src> from the checkout is inlined, or, when its text cannot sit inside a
//     <script> element unchanged (or it is async or defer), served from the trace's `files`;
//   - files the test's page loads by relative URL from its own folder (markup attributes, and
//     strings of its own scripts naming a file that exists) go into `files`, which the case server
//     serves beside the page; a file reached by an absolute path, or outside the folder, is refused;
//   - the test's main script (its last, when nothing but space and comments follows it and it does
//     not depend on running before load) moves to the request's `script`, so the reducer's statement
//     pass can cut it; the harness is in explicit-done mode, and the report script calls done()
//     once that script has run.
// The trace ends by the harness's own timeout (10 s, or 55 s for `timeout=long`) before its own
// (5 s later), so a test that never finishes still answers with the harness's statuses.
import { posix } from 'node:path';
import { defaultTreeAdapter as tree, html, parse, parseFragment, serialize, type DefaultTreeAdapterTypes as T } from 'parse5';
import { TRACE_TIMEOUT, type TraceRequest } from '../protocol/trace-schema.js';
import { TRACE_FILE_PATH } from '../protocol/site-schema.js';
import { Checkout } from './checkout.js';
import { SiteClosure } from './site.js';
import type { Site } from '../protocol/site-schema.js';
import {
  attribute,
  elementsOf,
  isElement,
  JS_TYPES,
  LOADING_ATTRIBUTES,
  LOADING_LINKS,
  nodesOf,
  relTokens,
  resolveUrl,
  textOf,
} from './markup.js';
import { Refusal } from './refusal.js';
import { preludeSource, reportSource } from './report-script.js';
import { scriptFacts, type ScriptFacts } from './script-facts.js';
import { scriptMeta, wrapperPage } from './script-test.js';
import type { TestKind } from './test-kind.js';

/** The trace's timeout, and how long before it the harness's own timeout fires. */
export const WPT_TIMEOUTS = { normalMs: 15_000, longMs: TRACE_TIMEOUT.maxMs, harnessMarginMs: 5_000 } as const;

/** Where a converted test's files go when they cannot be inlined: under a folder no test's own file is named. */
const EXTERNAL_FOLDER = '_wpt';

export interface Converted {
  request: TraceRequest & { html: string; script: string; timeout_ms: number };
  /** True when the main script moved to `script`; else why it stayed in the page. */
  moved: true | string;
}

const HARNESS = 'resources/testharness.js';
const HARNESS_REPORT = 'resources/testharnessreport.js';
const FILE_KEY = new RegExp(TRACE_FILE_PATH);

/** The trace request for the test at `path` (a `kind` test of the checkout), or a Refusal. */
export function convertTest(checkout: Checkout, path: string, kind: Exclude<TestKind, 'xml'>): Converted {
  return new Conversion(checkout, path).run(kind);
}

class Conversion {
  private readonly folder: string;
  private readonly url: URL;
  private readonly files = new Map<string, string>();
  /** The facts of the test's own scripts (inline, and from its own folder). */
  private readonly facts: ScriptFacts[] = [];
  private readonly seen = new Set<string>();
  /**
   * The files it reaches that `files` cannot hold (by absolute path, outside its folder, binary):
   * it is then served as a `site`, with these among its files (a script's string may be the only
   * one to name them, which the site's own closure of the markup does not follow).
   */
  private readonly siteFiles = new Set<string>();
  /** It loads check-layout-th.js, whose checkLayout() calls done(). */
  private checkLayout = false;

  constructor(
    private readonly checkout: Checkout,
    private readonly path: string,
  ) {
    const folder = posix.dirname(path);
    this.folder = folder === '.' ? '' : folder;
    this.url = Checkout.urlOf(path);
  }

  run(kind: Exclude<TestKind, 'xml'>): Converted {
    const source = this.checkout.read(this.path)!;
    for (const headers of [`${this.path}.headers`, this.inFolder('__dir__.headers')]) {
      if (this.checkout.exists(headers)) throw new Refusal('server_side', `its responses carry headers set by ${headers}`);
    }
    let long = false;
    let markup = source;
    if (kind !== 'html') {
      const meta = scriptMeta(source);
      long = meta.long;
      markup = wrapperPage(this.path, kind, meta);
    }
    const doc = parse(markup);
    if (doc.mode !== html.DOCUMENT_MODE.NO_QUIRKS)
      throw new Refusal('quirks_mode', `it parses in ${doc.mode} mode; a trace page is always in standards mode`);
    const elements = [...elementsOf(doc)];
    for (const e of elements) {
      const rel = relTokens(e);
      if (e.tagName === 'link' && (rel.has('match') || rel.has('mismatch'))) throw new Refusal('reftest', 'a reftest (<link rel=match>)');
      if (e.tagName === 'meta' && attribute(e, 'name') === 'variant')
        throw new Refusal('variant', 'it has variants (one run per query string)');
      if (e.tagName === 'meta' && attribute(e, 'name') === 'timeout' && attribute(e, 'content') === 'long') long = true;
    }
    const scripts = elements.filter((e) => e.tagName === 'script' && e.namespaceURI === html.NS.HTML);
    const loadsHarness = (e: T.Element) => resolveUrl(attribute(e, 'src') ?? '', this.url, '') === HARNESS;
    if (!scripts.some(loadsHarness)) throw new Refusal('not_testharness', `it does not load /${HARNESS}`);
    for (const script of scripts) {
      const which = this.script(script);
      if (which === 'harness' || which === 'report') tree.detachNode(script);
    }
    for (const e of elements) if (e.tagName !== 'script') this.loads(e, this.url, 'the page');
    for (const f of this.facts) {
      if (f.worker) throw new Refusal('worker', f.worker);
      if (f.testdriver) throw new Refusal('testdriver', 'it drives test_driver');
      if (f.otherHosts) throw new Refusal('other_origin', 'it asks get_host_info() for other hosts');
      for (const s of f.strings) this.named(s, this.url, 'a string of its script');
    }

    const { script, moved } = this.mainScript(doc);
    const timeoutMs = long ? WPT_TIMEOUTS.longMs : WPT_TIMEOUTS.normalMs;
    const callsDone = this.checkLayout || this.facts.some((f) => f.callsDone);
    const head = elementsOf(doc).find((e) => e.tagName === 'head')!;
    const first = [
      scriptElement(preludeSource(posix.basename(this.path).split('.')[0]!, kind === 'any')),
      this.harnessElement(),
      scriptElement(reportSource(timeoutMs - WPT_TIMEOUTS.harnessMarginMs, callsDone)),
    ];
    for (const e of first.reverse()) tree.insertBefore(head, e, head.childNodes[0]!);
    for (const node of [...doc.childNodes]) if (node.nodeName === '#documentType') tree.detachNode(node);
    const request: Converted['request'] = {
      id: this.path,
      op: 'trace',
      html: serialize(doc),
      script,
      timeout_ms: timeoutMs,
      align: 'label',
    };
    const site = this.site(doc);
    if (site) request.site = site;
    else if (this.files.size) request.files = Object.fromEntries([...this.files].sort(([x], [y]) => (x < y ? -1 : 1)));
    return { request, moved };
  }

  /**
   * The test as a `site` when `files` cannot hold what it loads: a file by absolute path, outside
   * its folder or binary, or one its CSS names (@import, url()). The page is then served at its
   * own path and every file at its own, as wptserve would; else null (`files`, as before).
   */
  private site(doc: T.Document): Site | null {
    const styled = elementsOf(doc).some(
      (e) => e.tagName === 'style' || attribute(e, 'style') !== null || (e.tagName === 'link' && relTokens(e).has('stylesheet')),
    );
    if (this.siteFiles.size === 0 && !styled) return null;
    const closure = new SiteClosure(this.checkout, new Map(), { scripts: false });
    closure.page(doc, this.path);
    for (const target of this.siteFiles) closure.url(`/${target}`, this.url, `/${target}`);
    const own = new Map([...this.files].map(([key, text]) => [this.inFolder(key), text]));
    if (this.siteFiles.size === 0 && [...closure.files.keys()].every((key) => own.has(key))) return null;
    for (const [key, text] of own) closure.files.set(key, text);
    return closure.site(this.path);
  }

  private inFolder(name: string): string {
    return this.folder ? `${this.folder}/${name}` : name;
  }

  /** Handles one <script> of the page: inlines or serves what it loads; says which are the harness's own. */
  private script(script: T.Element): 'harness' | 'report' | null {
    const type = attribute(script, 'type')?.trim().toLowerCase() ?? '';
    const classic = JS_TYPES.has(type);
    const src = attribute(script, 'src');
    if (src === null) {
      if (classic || type === 'module') this.facts.push(scriptFacts(textOf(script)));
      return null;
    }
    const what = `<script src="${src}">`;
    const target = this.resolve(src, this.url, what);
    if (target === null) return null;
    if (target === HARNESS) return 'harness';
    if (target === HARNESS_REPORT) return 'report';
    if (target === 'resources/check-layout-th.js') this.checkLayout = true;
    if (target.startsWith('resources/testdriver')) throw new Refusal('testdriver', `it loads /${target}`);
    if (target === 'common/get-host-info.sub.js') throw new Refusal('other_origin', `it loads /${target}, for other hosts`);
    if (target === 'resources/idlharness.js')
      throw new Refusal('unsupported', `it loads /${target}, which fetches /interfaces/ by absolute path`);
    this.serverSide(target, what);
    if (type === 'module') throw new Refusal('unsupported', `${what} is a module script (its imports are not served)`);
    const text = this.checkout.read(target);
    if (text === undefined) throw new Refusal('missing_file', `${what}: /${target} is not in the checkout`);
    if (!classic) return null;
    const code = text.replace(/\r\n?/g, '\n');
    if (this.isOwn(target)) this.facts.push(scriptFacts(code));
    if (attribute(script, 'async') === null && attribute(script, 'defer') === null && inlinable(code)) {
      script.attrs = script.attrs.filter((a) => a.name !== 'src' && a.name !== 'charset');
      tree.insertText(script, code);
    } else {
      const key = `${EXTERNAL_FOLDER}/${target}`;
      this.files.set(key, code);
      for (const a of script.attrs) if (a.name === 'src') a.value = key;
    }
    return null;
  }

  private harnessElement(): T.Element {
    const code = this.checkout.read(HARNESS)!.replace(/\r\n?/g, '\n');
    if (inlinable(code)) return scriptElement(code);
    const key = `${EXTERNAL_FOLDER}/${HARNESS}`;
    this.files.set(key, code);
    return tree.createElement('script', html.NS.HTML, [{ name: 'src', value: key }]);
  }

  /**
   * The path in the checkout of a URL the page at `base` loads, or null when it loads nothing from
   * a server (data:, a fragment, …). Another origin, https and WebSocket handlers are refused.
   */
  private resolve(raw: string, base: URL, what: string): string | null {
    const target = resolveUrl(raw, base, what);
    if (target instanceof Refusal) throw target;
    return target;
  }

  /** Refuses a file only wptserve can answer: a handler (.py, .asis) or a file with substitutions (.sub.). */
  private serverSide(path: string, what: string): void {
    const name = posix.basename(path);
    if (/\.(py|asis)$/.test(name) || name.split('.').slice(1).includes('sub'))
      throw new Refusal('server_side', `${what}: /${path} is answered by wptserve, not served as a file`);
  }

  /** What `element` (in the page at `base`) loads, served beside the page. */
  private loads(element: T.Element, base: URL, where: string): void {
    const names = LOADING_ATTRIBUTES[element.tagName];
    if (!names || element.namespaceURI !== html.NS.HTML) return;
    if (element.tagName === 'link' && ![...relTokens(element)].some((r) => LOADING_LINKS.has(r))) return;
    for (const name of names) {
      const value = attribute(element, name);
      if (value === null) continue;
      const what = `<${element.tagName} ${name}="${value}"> in ${where}`;
      const target = this.resolve(value, base, what);
      if (target === null) continue;
      this.serverSide(target, what);
      this.beside(target, value, what);
    }
  }

  /**
   * A string of a script that names a file of the checkout, resolved as a URL the page loads:
   * served beside it, or refused as a handler of wptserve's. Any other string is left alone
   * (a script's strings are data far more often than URLs of other hosts).
   */
  private named(text: string, base: URL, where: string): void {
    if (text.length > 300 || !/^[\w.~/+,=@%-]+(\?\S*)?$/.test(text) || !/[./]/.test(text)) return;
    const what = `${JSON.stringify(text)} in ${where}`;
    const target = resolveUrl(text, base, what);
    if (target instanceof Refusal) {
      // A pipe of the test's own origin is wptserve's; any other origin, a string like any other.
      if (target.reason === 'server_side' && /(^|[?&])pipe=/.test(text)) throw target;
      return;
    }
    if (target === null) return;
    if (this.checkout.exists(target) || /\.(py|asis)$/.test(target)) this.serverSide(target, what);
    this.beside(target, text, what);
  }

  /** Serves the checkout's file `target`, which `raw` (a URL as written) names, beside the page; a file that does not exist is a 404 there too. */
  private beside(target: string, raw: string, what: string): void {
    if (!this.checkout.exists(target)) return;
    const key = this.folder ? posix.relative(this.folder, target) : target;
    if (!FILE_KEY.test(key.replace(/^(\.\.\/)+/, '')))
      throw new Refusal('unsupported', `${what} names /${target}, a path a site cannot hold`);
    if (key.startsWith('..') || /^[a-z][a-z0-9+.-]*:|^\//i.test(raw.trim()) || !Checkout.isText(target)) {
      // By absolute path, outside the folder, or binary: the test is served as a site (this.site).
      this.siteFiles.add(target);
      return;
    }
    if (this.seen.has(target)) return;
    this.seen.add(target);
    const text = this.checkout.read(target)!;
    this.files.set(key, text);
    // What the file itself loads, relative to where it is served.
    const base = Checkout.urlOf(target);
    if (/\.html?$/.test(target)) {
      for (const e of elementsOf(parse(text))) {
        if (e.tagName === 'script' && attribute(e, 'src') === null)
          for (const s of scriptFacts(textOf(e)).strings) this.named(s, base, `/${target}`);
        else if (e.tagName === 'script') {
          const src = attribute(e, 'src')!;
          const inner = this.resolve(src, base, `<script src="${src}"> in /${target}`);
          if (inner !== null) {
            this.serverSide(inner, `<script src="${src}"> in /${target}`);
            this.beside(inner, src, `<script src="${src}"> in /${target}`);
          }
        } else this.loads(e, base, `/${target}`);
      }
    } else if (/\.m?js$/.test(target)) {
      for (const s of scriptFacts(text).strings) this.named(s, base, `/${target}`);
    }
  }

  private isOwn(path: string): boolean {
    return !this.folder || path.startsWith(`${this.folder}/`);
  }

  /** Takes the page's last script out, into `script`, when it can run after load as it ran where it stood. */
  private mainScript(doc: T.Document): { script: string; moved: true | string } {
    const nodes = [...nodesOf(doc)];
    const scripts = nodes.filter((n): n is T.Element => isElement(n) && n.tagName === 'script');
    const last = scripts.at(-1);
    const stays = (why: string) => ({ script: '', moved: why });
    if (!last || attribute(last, 'src') !== null || !JS_TYPES.has(attribute(last, 'type')?.trim().toLowerCase() ?? ''))
      return stays('the last script is not an inline classic script');
    const handler = nodes.find((n): n is T.Element => isElement(n) && attribute(n, 'onload') !== null);
    if (handler) return stays(`a <${handler.tagName} onload> runs at load, and may need what the last script makes`);
    const after = nodes.slice(nodes.indexOf(last) + 1).filter((n) => n.parentNode !== last);
    const content = after.find(
      (n) => (isElement(n) && !['head', 'body'].includes(n.tagName)) || (n.nodeName === '#text' && /\S/.test((n as T.TextNode).value)),
    );
    if (content) return stays('markup follows the last script, which would exist when it ran');
    const loading = nodes.find(
      (n): n is T.Element =>
        isElement(n) &&
        n.tagName !== 'link' &&
        (n.tagName !== 'input' || attribute(n, 'type')?.toLowerCase() === 'image') &&
        (LOADING_ATTRIBUTES[n.tagName] ?? []).some((name) => attribute(n, name)),
    );
    if (loading) return stays(`the page loads a <${loading.tagName}>, which has loaded by the time load fires`);
    const text = textOf(last);
    const { parseTime } = scriptFacts(text);
    if (parseTime) return stays(`the last script must run before load: ${parseTime}`);
    tree.detachNode(last);
    return { script: text, moved: true };
  }
}

function scriptElement(code: string): T.Element {
  const element = tree.createElement('script', html.NS.HTML, []);
  tree.insertText(element, code);
  return element;
}

/** What `inlinable` found, by text: testharness.js and shared helpers come back test after test, and parsing 200 kB costs about 0.1 s. */
const inlinableTexts = new Map<string, boolean>();

/** Whether `code` parses back as exactly the text of one <script> element. */
function inlinable(code: string): boolean {
  let verdict = inlinableTexts.get(code);
  if (verdict === undefined) {
    const nodes = parseFragment(`<script>${code}</script>`).childNodes;
    verdict = nodes.length === 1 && isElement(nodes[0]!) && nodes[0].tagName === 'script' && textOf(nodes[0]) === code;
    inlinableTexts.set(code, verdict);
  }
  return verdict;
}

for (const code of [preludeSource('x', true), reportSource(0, false)]) {
  if (!inlinable(code)) throw new Error('internal: a script of the importer would break out of its <script> element');
}
