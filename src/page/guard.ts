// The guard: WebKitGTK's stand-in for an isolated world. Its WebDriver has no way to run code
// where page script cannot reach it, so the case server makes this the first script of every
// case document it serves to WebKitGTK, before anything of the case's own. It captures the
// built-ins while they are pristine, clears what a browsing context carries from one document
// to the next (window.name), and defines one hook, as a non-writable, non-configurable property
// a page cannot replace, through which the driver runs the case programs with the built-ins
// captured here: the bodies of programs.ts's one table, the same Chromium and Firefox run in their
// isolated worlds. Then it removes its own element, so the document is the case's alone. The hook answers only for this document: the nonce it was served with must be
// the one the caller expects.
//
// Shipped as source text inside the served document (sources.ts).
import { captureBuiltins, type Builtins } from './builtins.js';
import { quoteJson } from './json-text.js';
import type { CaseArgs, CaseProgramName, Done, PAGE_PROGRAMS } from './programs.js';
import { elsewhere } from './programs.js';
import { prepared } from './walk.js';

/** The case programs' bodies, by name: PAGE_PROGRAMS's, which sources.ts hands the guard as source text. */
type CasePrograms = { readonly [K in CaseProgramName]: (typeof PAGE_PROGRAMS)[K]['onCase'] };

/**
 * What a driver asks of the hook: a case program with its args, and the case's script to run first
 * (main world, global scope), once the document's fonts have settled and, with `fresh`, it was laid
 * out from scratch. `result`: the answer of the call before, which a dialog cut short on the driver's side.
 */
type GuardCall = CaseArgs & { script: string | null } & (
    | ({ program: CaseProgramName } & Parameters<CasePrograms[CaseProgramName]>[1])
    | { program: 'result' }
  );

export function installGuard(hookName: string, nonce: string, snapshotPrototypes: boolean, programs: CasePrograms): void {
  const b = captureBuiltins(snapshotPrototypes);
  b.setWindowName('');
  // WebKitGTK's WebDriver runs its own plumbing in the page's world, with the page's built-ins: a
  // page that replaced one of those while it loaded would leave the driver's next call hanging.
  // Once the document has loaded they go back to the engine's own — and the case is answered
  // page_tampered, since its page no longer runs as it asked.
  let replaced: string[] = [];
  // The last answer, and who waits for it: WebKitGTK's WebDriver gives up on a call during which
  // a dialog was dismissed, though the call goes on in the page; the driver then asks again.
  let last: string | null = null;
  const waiting: Done[] = [];
  b.addEventListener(
    b.window,
    'pageshow',
    () => {
      replaced = b.transportChanged();
      if (replaced.length) b.restoreTransport();
    },
    { once: true },
  );
  const hook = (call: GuardCall, done: Done) => {
    if (call.program === 'result') {
      if (last !== null) done(last);
      else waiting[waiting.length] = done;
      return;
    }
    let answered = false;
    const answer = (text: string) => {
      if (answered) return;
      answered = true;
      last = text;
      // The case is over; the page is retired after this answer. Its built-ins go back to the
      // engine's own first, so the driver's plumbing carries the answer as it is.
      b.restoreTransport();
      done(text);
      for (let i = 0; i < waiting.length; i++) waiting[i]!(text);
    };
    try {
      const away = elsewhere(b, call.check, nonce);
      if (away !== null) return answer(away);
      if (replaced.length)
        return answer(`{"failed":${quoteJson(b, `the page replaced ${replaced[0]}, which WebKitGTK's WebDriver runs on`)}}`);
      const body = programs[call.program] as (b: Builtins, args: GuardCall, done: Done) => void;
      const program = () => body(b, call, answer);
      const script = () => {
        try {
          b.globalEval(call.script!);
          return true;
        } catch (error) {
          answer(`{"scriptError":${quoteJson(b, describeThrown(b, error))}}`);
          return false;
        }
      };
      // As in an isolated world: fonts, the fresh layout, the script, fonts again, the program.
      if (call.script === null) prepared(b, call.fresh, program, call.wait);
      else prepared(b, call.fresh, () => script() && prepared(b, false, program), call.wait);
    } catch (error) {
      answer(`{"failed":${quoteJson(b, b.errorName(error))}}`);
    }
  };
  b.defineProperty(b.window, hookName, { value: b.freeze(hook), writable: false, enumerable: false, configurable: false });
  const self = b.currentScript(b.document);
  if (self !== null) b.removeElement(self);
}

/**
 * "Name: message" of what a case's script threw, as far as it can be read without trusting it, to
 * its first line break: the adapters with an isolated world report the first line too.
 */
export function describeThrown(b: Builtins, error: unknown): string {
  const name = b.errorName(error);
  let text: string;
  try {
    const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : error;
    text = typeof message === 'string' ? `${name}: ${message}` : name;
  } catch {
    return name;
  }
  for (let i = 0; i < text.length; i++) if (b.charCodeAt(text, i) === 10) return b.stringSlice(text, 0, i);
  return text;
}
