// The in-page scripts a converted test carries ahead of its own, shipped as source text: they
// refer to nothing outside themselves, and read the page's globals through one typed view (this
// file compiles without DOM types).
//
// - The prelude sets what WPT's own wrapper would (`self.GLOBAL` for a .any.js test) and
//   `META_TITLE`, the name testharness.js gives an unnamed test when the page has no <title>
//   (otherwise it would take the page's file name, which here is random), then removes itself.
// - The report script stands where WPT's testharnessreport.js stands, right after
//   testharness.js and before any script of the test. It claims the trace recorder
//   (src/page/trace-recorder.ts) and captures what it calls, so nothing the test does later —
//   calling `trace`, replacing Promise.prototype.then or Array.prototype.sort — reaches the
//   records. It puts the harness in its explicit modes: explicit_done, with done() called once
//   the request's script has run (unless the test calls done() itself); explicit_timeout, with
//   the harness's own timeout() called at `deadlineMs`, before the trace's own timeout; output
//   off. Through the harness's documented completion callback it records one value per subtest,
//   label its name and value its status name, in name order, then the harness status under
//   `harnessLabel`, and ends the trace. A page without testharness.js's functions (a reduction's
//   candidate that lost it) ends at once, its harness record NO_HARNESS, rather than at the
//   trace's timeout.

/** The label of the harness status record. */
export const HARNESS_LABEL = 'harness';
/** The harness record of a page where testharness.js did not run. */
export const NO_HARNESS = 'NO_HARNESS';

/** What the scripts see of the page: the recorder and testharness.js's globals. */
interface Recorder {
  value(label: string, value: unknown): void;
  done(): void;
}
interface Page {
  trace?: { claim(afterScript: (threw: boolean, error: unknown) => void): Recorder | null };
  setup?(properties: Record<string, boolean>): void;
  add_completion_callback?(callback: (tests: ArrayLike<{ name: unknown; status: unknown }>, status: { status: unknown }) => void): void;
  done(): void;
  timeout(): void;
  reportError(error: unknown): void;
  setTimeout(callback: () => void, ms: number): unknown;
  GLOBAL?: unknown;
  META_TITLE?: string;
  document: { currentScript: { remove(): void } | null };
}

function prelude(title: string, anyGlobal: boolean): void {
  const page = globalThis as unknown as Page;
  if (anyGlobal) page.GLOBAL = { isWindow: () => true, isWorker: () => false, isShadowRealm: () => false };
  page.META_TITLE = title;
  page.document.currentScript?.remove();
}

function report(deadlineMs: number, testCallsDone: boolean, harnessLabel: string, noHarness: string): void {
  const page = globalThis as unknown as Page;
  const { apply } = Reflect;
  const sort = Array.prototype.sort;
  const text = String;
  const { done, timeout, reportError, setTimeout: later } = page;
  const testStatuses = ['PASS', 'FAIL', 'TIMEOUT', 'NOTRUN', 'PRECONDITION_FAILED'];
  const harnessStatuses = ['OK', 'ERROR', 'TIMEOUT', 'PRECONDITION_FAILED'];
  const nameOf = (names: string[], status: unknown) =>
    typeof status === 'number' && status >= 0 && status < names.length ? names[status]! : text(status);
  const byName = (x: string[], y: string[]) => (x[0]! < y[0]! ? -1 : x[0]! > y[0]! ? 1 : x[1]! < y[1]! ? -1 : x[1]! > y[1]! ? 1 : 0);

  const recorder = page.trace?.claim((threw, error) => {
    // As if the script had run where the parser met it: an uncaught error reaches the harness.
    if (threw) apply(reportError, page, [error]);
    if (!testCallsDone) apply(done, page, []);
  });
  if (!recorder) throw new Error('browser-oracle: the trace recorder was claimed before the report script ran');
  const { setup, add_completion_callback: onCompletion } = page;
  if (typeof setup !== 'function' || typeof onCompletion !== 'function') {
    recorder.value(harnessLabel, noHarness);
    recorder.done();
    return;
  }
  setup({ explicit_done: true, explicit_timeout: true, output: false });
  onCompletion((tests, status) => {
    const rows: string[][] = [];
    for (let i = 0; i < tests.length; i++) rows[i] = [text(tests[i]!.name), nameOf(testStatuses, tests[i]!.status)];
    apply(sort, rows, [byName]);
    for (let i = 0; i < rows.length; i++) recorder.value(rows[i]![0]!, rows[i]![1]);
    recorder.value(harnessLabel, nameOf(harnessStatuses, status.status));
    recorder.done();
  });
  apply(later, page, [() => apply(timeout, page, []), deadlineMs]);
}

// `<` escaped, so that no argument can end the <script> element the source stands in.
const call = (f: (...args: never[]) => void, args: unknown[]) =>
  `(${f.toString()})(${args.map((a) => JSON.stringify(a).replace(/</g, '\\u003c')).join(', ')});`;

/** The prelude's source: `title` is the name of an unnamed test, `anyGlobal` whether the test is a .any.js one. */
export const preludeSource = (title: string, anyGlobal: boolean): string => call(prelude, [title, anyGlobal]);

/** The report script's source: the harness times out at `deadlineMs`; `testCallsDone` when the test calls done() itself. */
export const reportSource = (deadlineMs: number, testCallsDone: boolean): string =>
  call(report, [deadlineMs, testCallsDone, HARNESS_LABEL, NO_HARNESS]);
