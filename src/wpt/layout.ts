// The layout route (`wpt-import --layout`): a check-layout test (a page loading
// /resources/check-layout-th.js) or a reftest's test page (a page with <link rel=match|mismatch>;
// never its references) made one `vote` request, id the test's path. The page's markup is the
// request's `html`, unchanged, served at its own path on a host of its own (`site`) with every file
// it reaches (site.ts) and the harness's stand-ins (stand-ins.ts); the walk waits for the harness
// to complete (`wait: "testharness"`) or for the root to lose `reftest-wait`. A check-layout test
// asks for its authored expectations to be read (`authored`), scoped to the literal selectors of
// its checkLayout() calls when every call has one. Refused: what the trace route refuses for the
// same reasons (wptserve handlers, other origins, https, testdriver, manual, variants), an XML
// page (`unsupported`), and a testharness test that checks no layout (`not_layout`).
import { posix } from 'node:path';
import { tokenizer, type Token } from 'acorn';
import { html as HTML, parse } from 'parse5';
import type { VoteRequest } from '../protocol/vote-op-schema.js';
import { Checkout } from './checkout.js';
import { attribute, elementsOf, relTokens, resolveUrl } from './markup.js';
import { Refusal } from './refusal.js';
import { SiteClosure } from './site.js';
import { STAND_INS } from './stand-ins.js';
import type { TestKind } from './test-kind.js';

const CHECK_LAYOUT = 'resources/check-layout-th.js';
const HARNESS = 'resources/testharness.js';

/** A layout case: its request, and which kind of test it came from. */
export interface LayoutCase {
  request: VoteRequest & Required<Pick<VoteRequest, 'site'>>;
  kind: 'check-layout' | 'reftest';
}

/** The layout case for the test at `path`, or a Refusal; null for an XML file that is no test of either kind (a support file, a reference). */
export function layoutCase(checkout: Checkout, path: string, kind: TestKind): LayoutCase | null {
  const source = checkout.read(path)!;
  if (kind !== 'html') return refuseOther(kind, source, path);
  for (const headers of [`${path}.headers`, posix.join(posix.dirname(path), '__dir__.headers')]) {
    if (checkout.exists(headers)) throw new Refusal('server_side', `its responses carry headers set by ${headers}`);
  }
  const doc = parse(source);
  const elements = elementsOf(doc);
  const url = Checkout.urlOf(path);
  const loads = (target: string) =>
    elements.some(
      (e) => e.tagName === 'script' && e.namespaceURI === HTML.NS.HTML && resolveUrl(attribute(e, 'src') ?? '', url, '') === target,
    );
  const reftest = elements.some((e) => e.tagName === 'link' && (relTokens(e).has('match') || relTokens(e).has('mismatch')));
  const checkLayout = loads(CHECK_LAYOUT);
  if (!checkLayout && !reftest)
    throw loads(HARNESS)
      ? new Refusal('not_layout', `a testharness test that does not load /${CHECK_LAYOUT}`)
      : new Refusal('not_testharness', `neither a check-layout test (/${CHECK_LAYOUT}) nor a reftest (<link rel=match>)`);
  for (const e of elements) {
    if (e.tagName === 'meta' && attribute(e, 'name') === 'variant')
      throw new Refusal('variant', 'it has variants (one run per query string)');
  }
  const closure = new SiteClosure(checkout, STAND_INS);
  closure.page(doc, path);
  const request: LayoutCase['request'] = { id: path, op: 'vote', html: source, site: closure.site(path) };
  const root = elements.find((e) => e.tagName === 'html');
  if (checkLayout) {
    request.wait = 'testharness';
    const scope = literalScope(closure.scripts);
    request.authored = scope === null ? {} : { scope };
  } else if (root && /(^|\s)reftest-wait(\s|$)/.test(attribute(root, 'class') ?? '')) request.wait = 'reftest-wait';
  return { request, kind: checkLayout ? 'check-layout' : 'reftest' };
}

/** An XML page (XHTML, SVG) or a script test: not a layout case of this route. */
function refuseOther(kind: TestKind, source: string, path: string): null {
  if (kind === 'xml') {
    if (/<link\b[^>]*\brel\s*=\s*["']?(match|mismatch)\b/i.test(source) || source.includes(CHECK_LAYOUT))
      throw new Refusal('unsupported', `an XML document (${posix.extname(path)}); a layout case is served as HTML`);
    return null;
  }
  throw new Refusal('not_layout', `a ${kind === 'any' ? '.any.js' : '.window.js'} script test checks no layout`);
}

/**
 * The selectors of every checkLayout() call in `scripts` (the page's own, and those it loads but
 * the stand-ins), in order of first appearance; null when a call's selector is not a string
 * literal, checkLayout is passed around rather than called, or no call is found (every element is
 * then measured).
 */
export function literalScope(scripts: readonly string[]): string[] | null {
  const found = new Set<string>();
  for (const text of scripts) {
    const tokens: (Token & { value?: unknown })[] = [];
    try {
      for (const token of tokenizer(text, { ecmaVersion: 'latest', allowHashBang: true })) tokens.push(token);
    } catch {
      if (text.includes('checkLayout')) return null;
      continue;
    }
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i]!.type.label !== 'name' || tokens[i]!.value !== 'checkLayout') continue;
      if (tokens[i - 1]?.type.label === 'function') continue;
      const literal = tokens[i + 1]?.type.label === '(' && tokens[i + 2]?.type.label === 'string';
      const ends = [',', ')'].includes(tokens[i + 3]?.type.label ?? '');
      if (!literal || !ends) return null;
      found.add(String(tokens[i + 2]!.value));
    }
  }
  return found.size ? [...found] : null;
}
