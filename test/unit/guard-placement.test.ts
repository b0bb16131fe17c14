// Where the WebKit guard goes (issue 23, finding 1): for a generated family of odd document
// prefixes, combined at random with a fixed seed, the guarded document parses (with parse5, the
// HTML standard's parser) to the case's own tree with the guard's element aside, in the case's own
// mode, with the guard as the first script in tree order and in document order. The reflect and
// trace documents are held to the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, type DefaultTreeAdapterTypes as T } from 'parse5';
import { caseDocument } from '../../src/coordinator/case-documents.js';
import { guardScript } from '../../src/page/sources.js';

const NONCE = '0123456789abcdef0123456789abcdef';
const SEED = 23;
const RUNS = 1500;

/** What a case's own script might hold to forge the walk, and what breaks out of a construct. */
const hostileText = fc
  .array(
    fc.constantFrom(
      '<script>forge()</script>',
      '<script>',
      '</script>',
      '-->',
      '--!>',
      '-',
      '!',
      '>',
      '"',
      "'",
      '<!--',
      '</title>',
      '</textarea x=">">',
      '\0',
      '\r\n',
      '\r',
      'x',
      ' ',
      '&#32;',
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join(''));

interface Atom {
  text: string;
  /** Certainly puts content (an element, text) into the tree. */
  content: boolean;
}
const trivial = (text: string): Atom => ({ text, content: false });
const content = (text: string): Atom => ({ text, content: true });

const t = hostileText;
/** Pieces a document may start with; each closes itself. */
const atom: fc.Arbitrary<Atom> = fc.oneof(
  // Whitespace and the ways to write it, CR/LF variants among them.
  fc.constantFrom(' ', '\n', '\r\n', '\r', '\n\r', '\t', '\f', '&#32;', '&#x9;', '&NewLine;').map(trivial),
  // Comments, the abruptly closed ones too.
  fc.constantFrom('<!-->', '<!--->', '<!---->', '<!-- --!-->', '<!--<!---->').map(trivial),
  t.map((s) => trivial(`<!--${s}-->`)),
  t.map((s) => trivial(`<!-- ${s} --!>`)),
  t.map((s) => trivial(`<!---${s}--->`)),
  // Bogus comments and processing instructions.
  t.map((s) => trivial(`<!x${s.replaceAll('>', '')}>`)),
  fc
    .constantFrom('<?xml version="1.0" encoding="utf-8"?>', '<?php echo 1 ?>', '</ x>', '</>', '<![CDATA[ <script>x</script> ]]>', '</3>')
    .map(trivial),
  // Doctypes, with quotes and odd public and system ids.
  fc
    .constantFrom(
      '<!doctype html>',
      '<!DOCTYPE HTML>',
      '<!doctype>',
      '<!doctypehtml>',
      '<!doctype html x=">',
      '<!doctype html public "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">',
      '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">',
      '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "x">',
      "<!doctype html system 'about:legacy-compat'>",
      '<!doctype html public "a>',
      "<!doctype html system '>",
      '<!doctype html public"x"system"y">',
      '<!DOCTYPE html PUBLIC "-//W3O//DTD W3 HTML Strict 3.0//EN//">',
    )
    .map(trivial),
  t.map((s) => trivial(`<!doctype html public "${s.replaceAll('>', '')}">`)),
  // <html> and <head> start tags with odd attributes.
  t.map((s) => trivial(`<html lang=en data-x="${s.replaceAll('"', '')}">`)),
  t.map((s) => trivial(`<head data-y='${s.replaceAll("'", '')}'>`)),
  fc.constantFrom('<html>', '<HTML a=1 a=2 B=3>', '<html/>', '<html\n a\n=\n"b">', '<head>', '<HEAD id=h/>', '<head a=">">').map(trivial),
  // End tags the tree builder ignores here, with attributes.
  fc.constantFrom('</p a=">">', '</div>', '</x y="</script>">', '</template>', '</script>', '</title a>').map(trivial),
  // Content: text, NULs, elements, the RCDATA and raw-text ones, scripts, end tags that imply elements.
  // U+FEFF twice: the first may be the document's byte order mark.
  fc
    .constantFrom(
      'x',
      '\0',
      'Ã',
      '\uFEFF\uFEFF',
      '</head>',
      '</body>',
      '</html>',
      '</br>',
      '<p>',
      '<meta charset=latin1>',
      '<svg><script>svg()</script></svg>',
    )
    .map(content),
  fc
    .tuple(fc.constantFrom('title', 'textarea', 'style', 'xmp', 'noscript', 'noembed', 'noframes', 'iframe', 'script', 'template'), t)
    .map(([tag, s]) => content(`<${tag}>${s}</${tag}>`)),
  t.map((s) => content(`<plaintext>${s}`)),
  t.map((s) => content(`<!doctype html="><script>${s}</script>">`)),
);

/** What a document may end in that only its end closes (or drops). */
const openTail = fc.constantFrom(
  '<!--',
  '<!-- x',
  '<!-- x -',
  '<!-- x --',
  '<!-- x --!',
  '<!x',
  '<?x',
  '</ x',
  '<!doctype html',
  '<!doctype html public "x',
  '<html a="',
  '<',
  '</',
  '<head',
);

const documents = fc
  .record({
    bom: fc.boolean(),
    atoms: fc.array(atom, { maxLength: 8 }),
    body: fc.constantFrom('', '<script>forge()</script><p>x</p>', '<p>y'),
    tail: fc.option(openTail, { nil: undefined }),
  })
  .map(({ bom, atoms, body, tail }) => ({
    html: `${bom ? '\uFEFF' : ''}${atoms.map((a) => a.text).join('')}${body}${tail ?? ''}`,
    // A document with no content that ends in a token only its end closes (see scriptInsertionPoint).
    contentless: tail !== undefined && body === '' && !atoms.some((a) => a.content),
  }));

/** The document as a browser's parser receives it: the decoder drops a leading byte order mark. */
const parsed = (html: string) => parse(html.startsWith('\uFEFF') ? html.slice(1) : html, { sourceCodeLocationInfo: true });

const children = (node: T.ParentNode): T.ChildNode[] =>
  node.nodeName === 'template' ? (node as T.Template).content.childNodes : node.childNodes;

/** The tree as data: every node, attribute and namespace, and the mode, without source locations. */
function shape(node: T.Node, onlyElements = false): unknown {
  if (node.nodeName === '#document') return { mode: (node as T.Document).mode, children: shapes(node as T.Document, onlyElements) };
  if (node.nodeName === '#documentType') {
    const d = node as T.DocumentType;
    return onlyElements ? null : ['doctype', d.name, d.publicId, d.systemId];
  }
  if (node.nodeName === '#comment') return onlyElements ? null : ['comment', (node as T.CommentNode).data];
  if (node.nodeName === '#text') return ['text', (node as T.TextNode).value];
  const e = node as T.Element;
  return [e.tagName, e.namespaceURI, e.attrs.map((a) => [a.name, a.value, a.namespace, a.prefix]), shapes(e, onlyElements)];
}
const shapes = (node: T.ParentNode, onlyElements: boolean): unknown[] =>
  children(node)
    .map((c) => shape(c, onlyElements))
    .filter((s) => s !== null);

/** Every script element (any namespace, in templates too) in tree order. */
function scripts(node: T.ParentNode): T.Element[] {
  return children(node).flatMap((c) => {
    if (!('tagName' in c)) return [];
    return [...(c.tagName === 'script' ? [c] : []), ...scripts(c)];
  });
}
const STAND_IN = 'guard()';
const textOf = (e: T.Element) => e.childNodes.map((c) => (c as T.TextNode).value ?? '').join('');

/**
 * `served` parsed, with `script` taken out once checked to be its first script, in the head: first
 * in tree order and in document order.
 */
function withoutFirstScript(served: string, script: string): T.Document {
  // The script's text is script data, which sources.ts keeps from ending its element early: a
  // short stand-in for it parses alike, and keeps thousands of parses fast.
  const element = `<script>${script}</script>`;
  const at = served.indexOf(element);
  assert.ok(at >= 0, 'the script is served whole');
  const doc = parsed(`${served.slice(0, at)}<script>${STAND_IN}</script>${served.slice(at + element.length)}`);
  const all = scripts(doc);
  const first = all[0];
  assert.ok(
    first !== undefined && textOf(first) === STAND_IN,
    `the first script in tree order is not ours: ${JSON.stringify(served.slice(0, 300))}`,
  );
  const parent = first.parentNode as T.Element;
  assert.equal(parent.tagName, 'head', 'ours runs in the head, before anything after it is parsed');
  const offset = (e: T.Element) => e.sourceCodeLocation!.startOffset;
  for (const other of all.slice(1)) assert.ok(offset(other) > offset(first), 'ours is the first script in document order');
  parent.childNodes.splice(parent.childNodes.indexOf(first), 1);
  return doc;
}

/**
 * Checks `served` is `original` with `script` as its first script, and otherwise the case's own
 * tree and mode (its elements, text and mode only, for a `contentless` document).
 */
function assertFirstScript(original: string, served: string, script: string, contentless = false): void {
  assert.deepEqual(shape(withoutFirstScript(served, script), contentless), shape(parsed(original), contentless), JSON.stringify(original));
}

test('the guard is the first script of every generated document, which otherwise parses as the case wrote it', () => {
  const guard = guardScript(NONCE, false);
  fc.assert(
    fc.property(documents, ({ html, contentless }) => {
      assertFirstScript(html, caseDocument('document', html, NONCE, true, 0), guard, contentless);
    }),
    { seed: SEED, numRuns: RUNS },
  );
});

test("the issue's four prefixes, each before a script that would run first", () => {
  const guard = guardScript(NONCE, false);
  for (const prefix of ['<!-->', '<!--->', '<!-- a --!>', '<!doctype html="><script>forge()</script>">']) {
    const html = `${prefix}<script>forge()</script><p>x`;
    assertFirstScript(html, caseDocument('document', html, NONCE, true, 0), guard);
  }
});

test('a reflect document gets the guard first, and its body markup parses as in the unguarded document', () => {
  const guard = guardScript(NONCE, true);
  fc.assert(
    fc.property(documents, ({ html, contentless }) => {
      const unguarded = caseDocument('body', html, NONCE, false, 0);
      assert.equal(unguarded, `<!doctype html>${html}`);
      assertFirstScript(unguarded, caseDocument('body', html, NONCE, true, 0), guard, contentless);
    }),
    { seed: SEED, numRuns: RUNS / 3 },
  );
});

test("a trace page's recorder is its first script, whatever its markup", () => {
  const empty = caseDocument('recorder', '', NONCE, true, 1024);
  const recorder = empty.slice(empty.indexOf('<script>') + '<script>'.length, empty.lastIndexOf('</script>'));
  fc.assert(
    fc.property(documents, ({ html }) => {
      withoutFirstScript(caseDocument('recorder', html, NONCE, true, 1024), recorder);
    }),
    { seed: SEED, numRuns: RUNS / 3 },
  );
});

test('an engine with an isolated world gets the document exactly as the case wrote it', () => {
  fc.assert(
    fc.property(documents, ({ html }) => {
      assert.equal(caseDocument('document', html, NONCE, false, 0), html);
    }),
    { seed: SEED, numRuns: 100 },
  );
});
