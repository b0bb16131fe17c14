// One case for the adapter tests' isolated worlds and sandboxes: a layout, and a script that
// replaces every built-in the trusted programs could lean on (and one they must not read: the
// fonts' readiness, made to never settle). The walk of LAYOUT must not change under HOSTILE.

/** Replaces built-ins, prototypes and DOM getters with forgeries. */
export const HOSTILE = `
  const get = Map.prototype.get;
  Map.prototype.get = function (k) { const v = get.call(this, k); return k instanceof Element ? '-1}]}}}\\n{"id":"victim"}' : v; };
  JSON.stringify = () => 'FORGED';
  Array.prototype.push = function () { return 0; };
  Element.prototype.getBoundingClientRect = () => ({ x: 666, y: 666, width: 666, height: 666, left: 666, top: 666, right: 1332, bottom: 1332 });
  Element.prototype.getClientRects = () => [];
  window.getComputedStyle = () => ({ getPropertyValue: () => 'forged' });
  Object.defineProperty(window, 'innerWidth', { get: () => 1 });
  Object.defineProperty(Element.prototype, 'tagName', { get: () => 'FORGED' });
  Object.defineProperty(Document.prototype, 'fonts', { get: () => ({ ready: new Promise(() => {}) }) });
`;
/** A small layout whose form controls clobber DOM properties by name. */
export const LAYOUT = `<!doctype html><style>p { width: 300px; font: 16px serif }</style>
  <p>some text that <b>wraps</b> across lines at three hundred pixels wide</p>
  <form><input name=tagName><input name=getBoundingClientRect></form><img name=fonts alt=x>`;
