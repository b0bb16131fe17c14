// What a layout case is served at WPT's harness paths instead of the checkout's own files: the
// page's scripts call the harness as they would under wptrunner, and nothing of it runs a check,
// writes results into the page or changes its layout. The walk waits for the completion they
// signal (wait "testharness", src/page/walk.ts afterWait), then measures the page as its scripts
// left it; the authored expectations are judged from that walk, not by the page.
//
// - testharness.js: the part of the API check-layout pages use (setup, done, test, async_test,
//   promise_test, step_timeout, add_completion_callback, the asserts as no-ops), completing as
//   the real one does: at done() when setup asked for explicit_done, else once the page has loaded
//   and its tests ran. 186 kB less to parse per page, and no #log output that would take room.
// - testharnessreport.js: at completion, appends the comment `wpt-harness-complete` to the
//   document, which the walk looks for (a comment: no element, style or selector sees it).
// - check-layout-th.js: `checkLayout(selector, callDone = true)` checks nothing and calls done()
//   when the real one would, after its checks; loading it puts the harness in explicit_done mode,
//   as the real one does.

const HARNESS = `(() => {
  let explicit = false;
  let complete = false;
  let loaded = false;
  const callbacks = [];
  const finish = () => {
    if (complete) return;
    complete = true;
    for (const callback of callbacks) {
      try { callback([], { status: 0, message: null }); } catch (e) {}
    }
  };
  const run = (f, t) => {
    try { if (typeof f === 'function') return f.call(t, t); } catch (e) {}
  };
  const handle = () => {
    const t = {
      step: (f, self, ...args) => run(() => f.apply(self ?? t, args), t),
      step_func: (f, self) => (...args) => run(() => f.apply(self ?? t, args), t),
      step_func_done: (f, self) => (...args) => run(() => f && f.apply(self ?? t, args), t),
      step_timeout: (f, ms, ...args) => setTimeout(() => run(() => f.apply(t, args), t), ms),
      unreached_func: () => () => {},
      add_cleanup: () => {},
      done: () => {},
    };
    return t;
  };
  const self = window;
  self.setup = (a, b) => {
    const options = typeof a === 'function' ? b : a;
    if (typeof a === 'function') run(a);
    if (options && options.explicit_done) explicit = true;
  };
  self.done = () => finish();
  self.add_completion_callback = (f) => { callbacks.push(f); };
  self.add_result_callback = () => {};
  self.add_start_callback = () => {};
  self.test = (f) => { const t = handle(); run(f, t); };
  self.async_test = (f) => { const t = handle(); if (typeof f === 'function') run(f, t); return t; };
  self.promise_test = (f) => { const t = handle(); try { Promise.resolve(f(t)).catch(() => {}); } catch (e) {} };
  self.step_timeout = (f, ms, ...args) => setTimeout(() => run(() => f(...args)), ms);
  self.format_value = (v) => String(v);
  for (const name of ['assert_true', 'assert_false', 'assert_equals', 'assert_not_equals', 'assert_approx_equals',
    'assert_less_than', 'assert_greater_than', 'assert_less_than_equal', 'assert_greater_than_equal', 'assert_in_array',
    'assert_array_equals', 'assert_class_string', 'assert_own_property', 'assert_throws_js', 'assert_throws_dom',
    'assert_unreached', 'assert_implements', 'assert_implements_optional', 'assert_regexp_match', 'assert_object_equals'])
    self[name] = () => {};
  self.addEventListener('load', () => {
    loaded = true;
    setTimeout(() => { if (!explicit && loaded) finish(); }, 0);
  });
})();
`;

const REPORT = `add_completion_callback(() => document.appendChild(document.createComment('wpt-harness-complete')));
`;

const CHECK_LAYOUT = `setup({ explicit_done: true });
window.checkLayout = (selectorList, callDone = true) => {
  if (callDone) done();
};
`;

/** The stand-ins by their path in the checkout. */
export const STAND_INS: ReadonlyMap<string, string> = new Map([
  ['resources/testharness.js', HARNESS],
  ['resources/testharnessreport.js', REPORT],
  ['resources/check-layout-th.js', CHECK_LAYOUT],
]);
