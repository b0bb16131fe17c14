// The trusted programs the engines run, in one table (PAGE_PROGRAMS at the end), each calling `done`
// exactly once with JSON text of its own making. A case program runs on a case's document: in
// Chromium and Firefox in an isolated world (a CDP isolated world, a BiDi sandbox), in WebKitGTK,
// which has none, through the guard (guard.ts) on built-ins it captured before any page script;
// both take its body from the table, so every engine runs the same code. A blank-page program runs
// in the page itself (a new page, the fast path's blank page), which never runs page script.
//
// Before its body, a case program checks that the document is the one the oracle loaded for this
// case: its URL (one unguessable path per case and engine, served once) and the secret nonce that
// came with it (a Server-Timing entry; the guard's own copy in WebKitGTK). On any other document
// it answers {"elsewhere": url} and does nothing else. Then it waits for the document's fonts to
// settle and, given `fresh` (the first program on the document, when no script ran before it),
// lays the document out from scratch: the steps every case's document takes before its script,
// the walk, the probes or the picture (docs/protocol.md, "What is measured when").
//
// Shipped as source text (sources.ts).
import { readAuthored, type AuthoredOptions } from './authored.js';
import { captureBuiltins, type Builtins } from './builtins.js';
import { quoteJson } from './json-text.js';
import { readProbes, type ReflectProbe } from './reflect.js';
import { swapIn } from './swap.js';
import { afterFonts, prepared, walkCase, type WalkOptions } from './walk.js';

/** Which document a program may act on: the case's URL and its nonce. */
export interface CaseCheck {
  url: string;
  nonce: string;
}

export type Done = (text: string) => void;

/** The nonce the document's response carried in its Server-Timing header, or null. */
export function servedNonce(b: Builtins): string | null {
  const entry = b.navigationEntry();
  if (entry === null || b.serverTiming === null) return null;
  const timings = b.serverTiming(entry);
  for (let i = 0; i < timings.length; i++) {
    if (b.serverTimingName(timings[i]!) === 'browser-oracle-nonce') return b.serverTimingDescription(timings[i]!);
  }
  return null;
}

/**
 * null when the current document is the case's own; else the JSON answer that says where the page
 * is. The nonce decides: it came with the one response that made the document, so a document
 * carrying it is the case's own even after the case changed its URL (a fragment, pushState).
 */
export function elsewhere(b: Builtins, check: CaseCheck, nonce: string | null): string | null {
  return nonce === check.nonce ? null : `{"elsewhere":${quoteJson(b, b.href())}}`;
}

/**
 * Calls `next` once the document as it is now has been painted: after two animation frames (the
 * first runs before a paint, the second after it), or after a second if frames do not come (a
 * hidden page paints none; it is not waited on for ever).
 * A screenshot that reads what was last presented (WebKitGTK's) shows the case then, not a frame
 * from before its load.
 */
export function afterPaint(b: Builtins, next: () => void): void {
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    next();
  };
  b.requestAnimationFrame(b.window, () => b.requestAnimationFrame(b.window, once));
  b.setTimeout(b.window, once, 1000);
}

/** What every program on a case document is told: which document, and whether to lay it out from scratch first. */
export interface CaseArgs {
  check: CaseCheck;
  fresh?: boolean;
  /** What the page signals when it is ready to be measured (a request's `wait`): waited for before anything else. */
  wait?: string;
}

/**
 * A program on a case document: its work once the document is known to be the case's own, its fonts
 * have settled, it was laid out from scratch where asked and the case's script has run. `b` was
 * captured at the call in an isolated world (Chromium, Firefox: inIsolatedWorld), or by the guard
 * before any page script (WebKitGTK: guard.ts).
 */
type OnCase<A> = (b: Builtins, args: A, done: Done) => void;

/** A program on a blank page (a new page, the fast path's blank page), which never runs page script: it captures its own built-ins. */
type OnBlankPage<A> = (args: A, done: Done) => void;

/** A case program as an isolated world runs it: on built-ins captured at the call, after the checks and steps every case program takes. */
export function inIsolatedWorld<A extends CaseArgs>(body: OnCase<A>): (args: A, done: Done) => void {
  return (args, done) => {
    const b = captureBuiltins();
    const away = elsewhere(b, args.check, servedNonce(b));
    if (away !== null) done(away);
    else prepared(b, args.fresh, () => body(b, args, done), args.wait);
  };
}

/**
 * Takes the page's scrollbars away before another document is written over this one. WebKitGTK
 * keeps the view's scrollbars across document.open, and does not make a scrollbar that exists
 * again for the new document: a case styled with ::-webkit-scrollbar (a classic scrollbar that
 * takes its width) kept the overlay one of the case before it, which takes none, whenever that
 * case had one too. Its root was then 800 px wide, not 785 as on a page of its own, and the dump
 * depended on what the page ran before. Emptied and made overflow:hidden, the document leaves the
 * view with no scrollbar at once (display:none drops them only later), so the next document makes
 * its own, as after a navigation.
 */
export function dropScrollbars(b: Builtins, doc: Document): void {
  const root = b.documentElement(doc);
  if (root === null) return;
  b.replaceChildren(root);
  b.setAttribute(root, 'style', 'overflow:hidden!important');
  b.getBoundingClientRect(root);
}

/**
 * The fast path: script-free cases written one after another into the blank page's frame (which,
 * like the page, never runs page script), each walked once loaded and fonts settled, and walked
 * again after a fresh layout where `relayout` says so. The frame fills the page's 800×600 viewport
 * and is the case's viewport; it is there so that the page's own document never changes: a top-level
 * document's title and each new document in it are reported to the browser's process (its tab,
 * its window title), which cost the three browsers about 2 ms of CPU a case, and a frame's are not.
 * A written document needs no fresh layout first: its walk lays it out once, whole (a navigated one
 * was laid out part-way as it came, as often as timing had it). Where `swap` allows and swap.ts
 * finds it exact, a case is parsed off the page and its root swapped in instead of written.
 * Answers {"walks": [...], "swapped": [...]} — fewer than given when `budgetMs` ran out, and the
 * caller sends the rest again. Between cases it yields one task, through one MessageChannel closed
 * at the end: Gecko drops the load event of a document opened while the previous one's load event
 * is still being dispatched, and WebKit never frees ports left open.
 */
function batchProgram(
  args: {
    blankUrl: string;
    htmls: readonly string[];
    relayout?: readonly boolean[];
    /** Per case: parse it off the page and swap its root in where that is exact (swap.ts), instead of writing it. */
    swap?: readonly boolean[];
    walk: WalkOptions;
    budgetMs: number;
  },
  done: Done,
): void {
  const page = captureBuiltins();
  const frame = page.querySelector(page.document, 'iframe') as HTMLIFrameElement | null;
  const frameWindow = frame === null ? null : page.contentWindow(frame);
  if (page.href() !== args.blankUrl || frameWindow === null) {
    done(`{"elsewhere":${quoteJson(page, page.href())}}`);
    return;
  }
  const b = captureBuiltins(false, frameWindow);
  const doc = b.document;
  const start = b.now();
  const channel = b.newChannel();
  let walks = '';
  let swaps = '';
  let i = 0;
  const finish = (text: string) => {
    b.portClose(channel.port1);
    b.portClose(channel.port2);
    done(text);
  };
  const next = () => {
    if (i === args.htmls.length || (i > 0 && b.now() - start > args.budgetMs)) {
      finish(`{"walks":[${walks}],"swapped":[${swaps}]}`);
      return;
    }
    try {
      const writeStart = b.now();
      const swapped = args.swap?.[i] === true && swapIn(b, doc, args.htmls[i]!);
      if (!swapped) {
        // Only a write keeps the document, and with it the view's scrollbars; a swap's new root
        // owes nothing to the old one (and dropping it first cost Chromium a layout a case).
        dropScrollbars(b, doc);
        b.open(doc);
        b.write(doc, args.htmls[i]!);
        b.close(doc);
      }
      // The write (or parse and swap) stands in for a navigation: the parser's time in it is the case's load time.
      const loadMs = b.now() - writeStart;
      const walk = () =>
        afterFonts(b, () => {
          walks += (i ? ',' : '') + walkCase(b, { ...args.walk, loadMs }, args.relayout?.[i] === true);
          swaps += (i ? ',' : '') + swapped;
          i++;
          b.portPost(channel.port2, null);
        });
      if (swapped || b.readyState(doc) === 'complete') walk();
      else b.addEventListener(b.window, 'load', walk, { once: true });
    } catch (error) {
      finish(`{"failed":${quoteJson(b, b.errorName(error))},"walks":[${walks}],"swapped":[${swaps}]}`);
    }
  };
  b.portOnMessage(channel.port1, next);
  next();
}

/**
 * Every trusted program, by name: the one table both routes take them from. A case program runs in
 * Chromium's and Firefox's isolated worlds (inIsolatedWorld) and in WebKitGTK's guard alike; a
 * blank-page program runs from its source in every engine. Each entry is an arrow function or a
 * function declared above: it is shipped as its source text (sources.ts), so it refers to nothing
 * outside itself but the functions sources.ts ships beside it.
 */
export const PAGE_PROGRAMS = {
  /** After the case's document has loaded: a script runs next, in the main world; with `painted`, once the document has been painted since. */
  settle: {
    onCase: (b: Builtins, args: { painted?: boolean }, done: Done) =>
      args.painted ? afterPaint(b, () => done('{"settled":true}')) : done('{"settled":true}'),
  },
  /** The walk of the case's document, with the relayout check's second walk when asked. */
  walk: {
    onCase: (b: Builtins, args: { walk: WalkOptions; relayout?: boolean }, done: Done) =>
      done(walkCase(b, args.walk, args.relayout === true)),
  },
  /** The walk, as `walk` makes it, with the check-layout attributes' reading (authored.ts) as its `authored` member. */
  walkAuthored: {
    onCase: (b: Builtins, args: { walk: WalkOptions; relayout?: boolean; authored: AuthoredOptions }, done: Done) => {
      const walked = walkCase(b, args.walk, args.relayout === true);
      if (b.stringSlice(walked, 0, 12) === '{"tooLarge":') return done(walked);
      const reading = readAuthored(b, args.authored);
      done(b.stringSlice(reading, 0, 12) === '{"tooLarge":' ? reading : `${b.stringSlice(walked, 0, -1)},"authored":${reading}}`);
    },
  },
  /** The reflect probes on the case's document. */
  reflect: {
    onCase: (b: Builtins, args: { probes: readonly ReflectProbe[]; maxBytes: number }, done: Done) =>
      done(readProbes(b, args.probes, args.maxBytes)),
  },
  batch: { onBlankPage: batchProgram },
  /** The page itself: where it is, and its viewport (checked on every page the oracle opens). */
  pageState: {
    onBlankPage: (_args: unknown, done: Done) => {
      const b = captureBuiltins();
      done(`{"href":${quoteJson(b, b.href())},"viewport":[${b.innerWidth()},${b.innerHeight()}],"ratio":${b.devicePixelRatio()}}`);
    },
  },
} as const satisfies Record<string, { onCase: OnCase<never> } | { onBlankPage: OnBlankPage<never> }>;

export type ProgramName = keyof typeof PAGE_PROGRAMS;
/** The programs that run on a case document. */
export type CaseProgramName = { [K in ProgramName]: (typeof PAGE_PROGRAMS)[K] extends { onCase: unknown } ? K : never }[ProgramName];
