// What the importer needs to know of a test's own script, read from its tokens (acorn's
// tokenizer, so a word inside a string or comment is not mistaken for code, nor the reverse).
import { tokenizer, type Token } from 'acorn';

export interface ScriptFacts {
  /** The text of every string and template-literal part, for the URLs the script may load. */
  strings: string[];
  /** It calls `done()` itself (explicit_done or single_test): the harness's end is the test's. */
  callsDone: boolean;
  /** Why the script must run where the parser met it rather than after load; null when it need not. */
  parseTime: string | null;
  /** Why the script needs a worker; null when it starts none. */
  worker: string | null;
  /** It drives testdriver's `test_driver`. */
  testdriver: boolean;
  /** It asks `get_host_info()` for other hosts. */
  otherHosts: boolean;
}

/** Names whose use ties a script to the moment the parser runs it (load events, document.write, the parser's state). */
const PARSE_TIME_NAMES = new Set(['onload', 'onreadystatechange', 'onDOMContentLoaded', 'readyState', 'currentScript', 'onpageshow']);
/** Event names a script listening before load would miss after it. */
const PARSE_TIME_STRINGS = new Set(['load', 'DOMContentLoaded', 'readystatechange', 'pageshow']);
/** Receivers whose load-time events fire once, around the page's own load. */
const PAGE_TARGETS = new Set(['window', 'self', 'globalThis', 'document', 'body']);
const DOCUMENT_WRITES = new Set(['write', 'writeln', 'open']);

/** The facts of `text`; a script acorn cannot tokenize stays where it is (parseTime says so). */
export function scriptFacts(text: string): ScriptFacts {
  const facts: ScriptFacts = { strings: [], callsDone: false, parseTime: null, worker: null, testdriver: false, otherHosts: false };
  // acorn's Token type leaves out the `value` every token has.
  const tokens: (Token & { value?: unknown })[] = [];
  try {
    for (const token of tokenizer(text, { ecmaVersion: 'latest', allowHashBang: true })) tokens.push(token);
  } catch (error) {
    facts.parseTime = `acorn cannot read it (${(error as Error).message})`;
  }
  const label = (i: number) => tokens[i]?.type.label;
  const name = (i: number) => (label(i) === 'name' ? String(tokens[i]!.value) : undefined);
  tokens.forEach((token, i) => {
    const kind = token.type.label;
    if (kind === 'string' || kind === 'template') {
      const value = String(token.value);
      facts.strings.push(value);
      // `frame.addEventListener('load', …)` waits for a frame, which a moved script can do as well;
      // any other mention may be the page's own load (window, document, on_event, EventWatcher).
      const onElement =
        name(i - 2) === 'addEventListener' && label(i - 1) === '(' && label(i - 3) === '.' && !PAGE_TARGETS.has(name(i - 4) ?? '');
      if (PARSE_TIME_STRINGS.has(value) && !onElement) facts.parseTime ??= `it names the ${JSON.stringify(value)} event`;
      return;
    }
    const word = name(i);
    if (word === undefined) return;
    const member = label(i - 1) === '.';
    if (PARSE_TIME_NAMES.has(word)) facts.parseTime ??= `it uses ${word}`;
    if (word === 'document' && label(i + 1) === '.' && DOCUMENT_WRITES.has(name(i + 2) ?? ''))
      facts.parseTime ??= `it calls document.${name(i + 2)}`;
    if (word === 'done' && !member && label(i + 1) === '(') facts.callsDone = true;
    if ((word === 'Worker' || word === 'SharedWorker') && label(i - 1) === 'new') facts.worker ??= `it starts a ${word}`;
    if (word === 'fetch_tests_from_worker') facts.worker ??= 'it runs tests in a worker (fetch_tests_from_worker)';
    if (word === 'serviceWorker' && member) facts.worker ??= 'it uses a service worker';
    if (word === 'test_driver') facts.testdriver = true;
    if (word === 'get_host_info') facts.otherHosts = true;
  });
  return facts;
}
