// What a file of a checkout is, from its path alone: a test the importer takes (an .html/.htm
// testharness page, a .any.js or .window.js script), a test it refuses by its name (WPT's file
// name flags: -manual, .https., .sub., .worker.js …), or not a test at all (support files,
// references, anything else). An XHTML or SVG file is a test only when it loads testharness.js,
// which its text tells (`xmlIsTest`): the importer refuses those, since a trace page is HTML.
import { posix } from 'node:path';
import { Refusal } from './refusal.js';

export type TestKind = 'html' | 'any' | 'window' | 'xml';

/** Folders whose files are support files wherever they are, as WPT's manifest has them. */
const SUPPORT_FOLDERS = new Set(['resources', 'support', 'reference', 'tools']);
/** Top-level folders that hold no tests. */
const ROOT_SUPPORT = new Set(['common', 'docs', 'fonts', 'images', 'media', 'conformance-checkers', 'interfaces']);

/**
 * The kind of the test at `path` (relative to the checkout, `/`-separated), null when it is not a
 * test; a Refusal when it is a test whose name says it needs what a trace page does not give.
 */
export function testKindOf(path: string): TestKind | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name.startsWith('.') || supportFolder(path.slice(0, Math.max(0, path.lastIndexOf('/'))))) return null;
  const kind = kindByExtension(name);
  if (kind === null) return null;
  // Everything between the stem and the extension is a flag: a.b.https.sub.html has b, https, sub.
  const flags = new Set(name.split('.').slice(1, kind === 'html' ? -1 : -2));
  if (/-(not)?ref$/.test(name.split('.')[0]!)) return null;
  if (/-manual$/.test(name.split('.')[0]!) || flags.has('manual')) throw new Refusal('manual', 'a manual test (-manual in its name)');
  if (flags.has('https')) throw new Refusal('https', 'runs over https (.https. in its name); a trace page is http://localhost');
  if (flags.has('sub')) throw new Refusal('server_side', "needs wptserve's substitutions (.sub. in its name)");
  if (flags.has('h2')) throw new Refusal('server_side', 'needs an HTTP/2 server (.h2. in its name)');
  if (flags.has('www')) throw new Refusal('other_origin', 'runs on another host (.www. in its name)');
  if (kind === 'worker') throw new Refusal('worker', 'a worker test (.worker.js)');
  if (flags.has('serviceworker') || flags.has('sharedworker'))
    throw new Refusal('worker', `a worker test (.${[...flags].find((f) => f.endsWith('worker'))}.)`);
  return kind;
}

/** Whether the folder at `path` ('' for the root) holds support files only: no file under it is a test. */
export function supportFolder(path: string): boolean {
  if (!path) return false;
  const segments = path.split('/');
  return ROOT_SUPPORT.has(segments[0]!) || segments.some((s) => s.startsWith('.') || SUPPORT_FOLDERS.has(s));
}

/** Whether a file named `name` could be a test by its name (an .html page, a .js test, an XML document). */
export const testLikeName = (name: string): boolean => kindByExtension(name) !== null;

/** An XHTML or SVG file that is a testharness test, refused; else it is a support file (null). */
export function xmlTest(path: string, text: string): null {
  if (!text.includes('/resources/testharness.js')) return null;
  throw new Refusal('unsupported', `an XML document (${posix.extname(path)}); a trace page is HTML`);
}

function kindByExtension(name: string): TestKind | 'worker' | null {
  if (/\.html?$/.test(name)) return 'html';
  if (name.endsWith('.any.js')) return 'any';
  if (name.endsWith('.window.js')) return 'window';
  if (name.endsWith('.worker.js')) return 'worker';
  if (/\.(xhtml|xht|svg)$/.test(name)) return 'xml';
  return null;
}
