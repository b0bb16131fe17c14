// Every built-in the oracle's trusted in-page code calls, captured while it is pristine: at the
// start of a call in an isolated world, or in a page that has never run page script, or by the
// guard before any page script runs (WebKitGTK, guard.ts). A case may replace any built-in it
// likes afterwards — a prototype's method or getter, Function.prototype.call, an element's own
// property (DOM clobbering: <img name=fonts>, <form><input name=tagName>) — and the trusted code
// still reaches the engine's own implementation: each entry here is bound, so calling it looks
// nothing up on an object a page can reach.
//
// Shipped as source text (programs.ts): no imports, nothing outside its own body.

/**
 * `snapshotPrototypes`: also keep every DOM interface's own property descriptors as they are now,
 * so that reading an IDL attribute later finds the engine's accessor even if page script has
 * since redefined it on the prototype (the guard does this; an isolated world needs no copy).
 * `ofWindow`: the window whose document, viewport and style the built-ins read, when it is not
 * the caller's own (the blank page's frame, which the fast path writes cases into); the
 * interfaces' methods are the caller's, which the engines let act on a same-origin frame's nodes.
 */
export function captureBuiltins(snapshotPrototypes = false, ofWindow: typeof window | null = null) {
  const FunctionProto = Function.prototype;
  // uncurry(f)(self, ...args) is f.call(self, ...args), with call and f bound once, here.
  const uncurry = FunctionProto.bind.bind(FunctionProto.call) as <A extends unknown[], R>(
    f: (...args: A) => R,
  ) => (self: unknown, ...args: A) => R;
  const { getOwnPropertyDescriptor, getPrototypeOf, defineProperty, freeze, getOwnPropertyNames } = Object;
  const describe = (target: object, name: string) => {
    for (let o: object | null = target; o !== null; o = getPrototypeOf(o)) {
      const d = getOwnPropertyDescriptor(o, name);
      if (d) return d;
    }
    throw new TypeError(`no built-in ${name}`);
  };
  const getter = <T>(target: object, name: string) => uncurry(describe(target, name).get as () => T);
  // Some attributes exist only in secure contexts (Firefox: serverTiming): absent on about:blank.
  const optionalGetter = <T>(target: object, name: string) => {
    const get = getOwnPropertyDescriptor(target, name)?.get as (() => T) | undefined;
    return get ? uncurry(get) : null;
  };
  const method = <A extends unknown[], R>(target: object, name: string) => uncurry(describe(target, name).value as (...args: A) => R);

  const win = ofWindow ?? window;
  const doc = win.document;
  const DocumentProto = Document.prototype;
  const ElementProto = Element.prototype;
  // Taken from the interfaces, never from the document or an element: their own properties may
  // be named elements (DOM clobbering). Window's attributes are its own properties, and no
  // element name shadows those.
  const perfGet = getter<Performance>(win, 'performance');
  const perf = perfGet(win);
  const locationGet = getter<Location>(win, 'location');
  const hrefGet = getter<string>(locationGet(win), 'href');
  const innerWidthGet = getter<number>(win, 'innerWidth');
  const nameSet = uncurry(describe(win, 'name').set as (name: string) => void);
  const innerHeightGet = getter<number>(win, 'innerHeight');
  const visualViewportGet = getter<VisualViewport>(win, 'visualViewport');
  const viewportWidthGet = getter<number>(VisualViewport.prototype, 'width');
  const viewportHeightGet = getter<number>(VisualViewport.prototype, 'height');
  const ratioGet = getter<number>(win, 'devicePixelRatio');
  const computedStyle = method<[Element], CSSStyleDeclaration>(win, 'getComputedStyle');
  const getEntriesByType = method<[string], PerformanceEntryList>(Performance.prototype, 'getEntriesByType');
  const performanceNow = method<[], number>(Performance.prototype, 'now');
  const byTagName = method<[string], HTMLCollectionOf<Element>>(DocumentProto, 'getElementsByTagName');
  const mapGet = method<[unknown], unknown>(Map.prototype, 'get');
  const mapSet = method<[unknown, unknown], unknown>(Map.prototype, 'set');
  const Channel = MessageChannel;
  const contentWindowGet = getter<typeof window | null>(HTMLIFrameElement.prototype, 'contentWindow');
  const Parser = DOMParser;
  const parseFromString = method<[string, DOMParserSupportedType], Document>(DOMParser.prototype, 'parseFromString');
  const regexExec = method<[string], RegExpExecArray | null>(RegExp.prototype, 'exec');
  const MapType = Map;
  const PromiseType = Promise;
  const serverTimingProto = typeof PerformanceServerTiming === 'function' ? PerformanceServerTiming.prototype : null;
  const slice = method<[number, number?], string>(String.prototype, 'slice');
  const objectToString = uncurry(Object.prototype.toString as () => string);
  const protoOf = uncurry(Object.prototype.isPrototypeOf as (v: unknown) => boolean);
  const exceptionName = getter<string>(DOMException.prototype, 'name');
  const DOMExceptionProto = DOMException.prototype;
  const errorTypes = [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError];
  const errorNames = errorTypes.map((type) => type.name);
  const errorProtos = errorTypes.map((type) => type.prototype as object);

  // What WebKitGTK's WebDriver plumbing calls in the page's own world around a call with one
  // JSON argument and a string result (WebAutomationSessionProxy.js, WebKitGTK 2.50: _execute,
  // _clearStaleNodes, _jsonParse, _jsonStringify), kept as captured: a case that replaced one of
  // them is told apart, and they go back before the guard answers.
  const transport: [object, PropertyKey, PropertyDescriptor][] = [];
  const keep = (target: object, names: PropertyKey[]) => {
    for (let i = 0; i < names.length; i++) {
      const d = getOwnPropertyDescriptor(target, names[i]!);
      if (d) transport[transport.length] = [target, names[i]!, d];
    }
  };
  keep(win, ['JSON', 'Promise', 'setTimeout', 'clearTimeout']);
  keep(JSON, ['parse', 'stringify']);
  keep(Promise, ['race']);
  keep(Promise.prototype, ['then', 'catch', 'finally']);
  keep(Array.prototype, ['map', 'push', 'join', Symbol.iterator]);
  keep(getPrototypeOf([][Symbol.iterator]()) as object, ['next']);
  keep(String.prototype, ['split', 'startsWith']);
  keep(Function.prototype, ['apply']);
  keep(Map.prototype, [Symbol.iterator]);
  keep(getPrototypeOf(new Map()[Symbol.iterator]()) as object, ['next']);

  // Descriptors are copied per prototype only when asked for (the guard, before page script).
  let snapshot: Map<object, Map<string, PropertyDescriptor>> | null = null;
  if (snapshotPrototypes) {
    snapshot = new MapType();
    const NodeProto = Node.prototype;
    const names = getOwnPropertyNames(win);
    for (let i = 0; i < names.length; i++) {
      const d = getOwnPropertyDescriptor(win, names[i]!);
      const proto = typeof d?.value === 'function' ? (getOwnPropertyDescriptor(d.value, 'prototype')?.value as unknown) : undefined;
      if (typeof proto !== 'object' || proto === null || (proto !== NodeProto && !protoOf(NodeProto, proto))) continue;
      const own = new MapType<string, PropertyDescriptor>();
      const keys = getOwnPropertyNames(proto);
      for (let k = 0; k < keys.length; k++) mapSet(own, keys[k]!, getOwnPropertyDescriptor(proto, keys[k]!)!);
      mapSet(snapshot, proto, own);
    }
  }

  return freeze({
    window: win,
    document: doc,
    /** Called by another name, eval is indirect: global scope, like a classic script. */
    globalEval: win.eval,
    isFinite: Number.isFinite,
    isNaN: Number.isNaN,
    freeze,
    defineProperty,
    getPrototypeOf,
    getOwnPropertyDescriptor,
    getOwnPropertyNames,
    charCodeAt: method<[number], number>(String.prototype, 'charCodeAt'),
    stringSlice: slice,
    newMap: () => new MapType<unknown, unknown>(),
    mapGet: (map: Map<unknown, unknown>, key: unknown) => mapGet(map, key),
    mapSet: (map: Map<unknown, unknown>, key: unknown, value: unknown) => mapSet(map, key, value),
    newPromise: <T>(executor: (resolve: (value: T) => void) => void) => new PromiseType<T>(executor),
    promiseThen: method<[(v: unknown) => unknown, (e: unknown) => unknown], Promise<unknown>>(Promise.prototype, 'then'),
    setTimeout: method<[() => void, number], number>(win, 'setTimeout'),
    requestAnimationFrame: method<[FrameRequestCallback], number>(win, 'requestAnimationFrame'),
    newChannel: () => new Channel(),
    contentWindow: (frame: HTMLIFrameElement) => contentWindowGet(frame),
    /** `html` parsed as a document of its own, off the page (scripting off, nothing loaded). */
    parseHtml: (html: string) => parseFromString(new Parser(), html, 'text/html'),
    /** Whether `pattern` (no `g` or `y` flag: it keeps no state) matches somewhere in `text`. */
    matches: (pattern: RegExp, text: string) => regexExec(pattern, text) !== null,
    toLowerCase: method<[], string>(String.prototype, 'toLowerCase'),
    /** `text` with every match of `pattern` (a `g` regular expression: replace resets its state) replaced by what `by` makes of it. */
    replaceAll: method<[RegExp, (match: string) => string], string>(String.prototype, 'replace'),
    portPost: method<[unknown], void>(MessagePort.prototype, 'postMessage'),
    portClose: method<[], void>(MessagePort.prototype, 'close'),
    portOnMessage: uncurry(describe(MessagePort.prototype, 'onmessage').set as (handler: () => void) => void),
    addEventListener: method<[string, (e: Event) => void, AddEventListenerOptions?], void>(EventTarget.prototype, 'addEventListener'),
    removeEventListener: method<[string, (e: Event) => void], void>(EventTarget.prototype, 'removeEventListener'),
    now: () => performanceNow(perf),
    navigationEntry: () => (getEntriesByType(perf, 'navigation')[0] ?? null) as PerformanceNavigationTiming | null,
    loadEventEnd: getter<number>(PerformanceNavigationTiming.prototype, 'loadEventEnd'),
    responseEnd: getter<number>(PerformanceResourceTiming.prototype, 'responseEnd'),
    serverTiming: optionalGetter<readonly PerformanceServerTiming[]>(PerformanceResourceTiming.prototype, 'serverTiming'),
    serverTimingName: serverTimingProto ? getter<string>(serverTimingProto, 'name') : () => '',
    serverTimingDescription: serverTimingProto ? getter<string>(serverTimingProto, 'description') : () => '',
    innerWidth: () => innerWidthGet(win),
    innerHeight: () => innerHeightGet(win),
    devicePixelRatio: () => ratioGet(win),
    href: () => hrefGet(locationGet(win)),
    setWindowName: (name: string) => nameSet(win, name),
    currentScript: getter<HTMLOrSVGScriptElement | null>(DocumentProto, 'currentScript'),
    getComputedStyle: (element: Element) => computedStyle(win, element),
    getPropertyValue: method<[string], string>(CSSStyleDeclaration.prototype, 'getPropertyValue'),
    documentElement: getter<Element | null>(DocumentProto, 'documentElement'),
    scrollingElement: getter<Element | null>(DocumentProto, 'scrollingElement'),
    readyState: getter<DocumentReadyState>(DocumentProto, 'readyState'),
    compatMode: getter<string>(DocumentProto, 'compatMode'),
    doctype: getter<DocumentType | null>(DocumentProto, 'doctype'),
    publicId: getter<string>(DocumentType.prototype, 'publicId'),
    replaceChild: method<[Node, Node], Node>(Node.prototype, 'replaceChild'),
    textContent: getter<string | null>(Node.prototype, 'textContent'),
    firstChild: getter<ChildNode | null>(Node.prototype, 'firstChild'),
    nextSibling: getter<ChildNode | null>(Node.prototype, 'nextSibling'),
    nodeType: getter<number>(Node.prototype, 'nodeType'),
    /** The room the viewport's scrollbars take, [x, y]: innerWidth − visualViewport.width, innerHeight − visualViewport.height. */
    scrollbarRoom: (): [number, number] => {
      const viewport = visualViewportGet(win);
      return [innerWidthGet(win) - viewportWidthGet(viewport), innerHeightGet(win) - viewportHeightGet(viewport)];
    },
    localName: getter<string>(ElementProto, 'localName'),
    allElements: (d: Document) => byTagName(d, '*'),
    querySelector: method<[string], Element | null>(DocumentProto, 'querySelector'),
    open: method<[], Document>(DocumentProto, 'open'),
    write: method<[string], void>(DocumentProto, 'write'),
    close: method<[], void>(DocumentProto, 'close'),
    fonts: getter<FontFaceSet>(DocumentProto, 'fonts'),
    fontsReady: getter<Promise<FontFaceSet>>(FontFaceSet.prototype, 'ready'),
    collectionLength: getter<number>(HTMLCollection.prototype, 'length'),
    collectionItem: method<[number], Element | null>(HTMLCollection.prototype, 'item'),
    tagName: getter<string>(ElementProto, 'tagName'),
    parentElement: getter<Element | null>(Node.prototype, 'parentElement'),
    getClientRects: method<[], DOMRectList>(ElementProto, 'getClientRects'),
    getBoundingClientRect: method<[], DOMRect>(ElementProto, 'getBoundingClientRect'),
    getAttributeNames: method<[], string[]>(ElementProto, 'getAttributeNames'),
    getAttribute: method<[string], string | null>(ElementProto, 'getAttribute'),
    setAttribute: method<[string, string], void>(ElementProto, 'setAttribute'),
    removeAttribute: method<[string], void>(ElementProto, 'removeAttribute'),
    scrollX: getter<number>(win, 'scrollX'),
    scrollY: getter<number>(win, 'scrollY'),
    scrollTo: method<[ScrollToOptions], void>(win, 'scrollTo'),
    removeElement: method<[], void>(ElementProto, 'remove'),
    replaceChildren: method<[], void>(ElementProto, 'replaceChildren'),
    scrollWidth: getter<number>(ElementProto, 'scrollWidth'),
    scrollHeight: getter<number>(ElementProto, 'scrollHeight'),
    clientWidth: getter<number>(ElementProto, 'clientWidth'),
    clientHeight: getter<number>(ElementProto, 'clientHeight'),
    clientLeft: getter<number>(ElementProto, 'clientLeft'),
    clientTop: getter<number>(ElementProto, 'clientTop'),
    // HTMLElement's alone: on any other element (SVG) they throw, where a page reads undefined (authored.ts).
    offsetWidth: getter<number>(HTMLElement.prototype, 'offsetWidth'),
    offsetHeight: getter<number>(HTMLElement.prototype, 'offsetHeight'),
    offsetLeft: getter<number>(HTMLElement.prototype, 'offsetLeft'),
    offsetTop: getter<number>(HTMLElement.prototype, 'offsetTop'),
    offsetParent: getter<Element | null>(HTMLElement.prototype, 'offsetParent'),
    querySelectorAll: method<[string], NodeListOf<Element>>(DocumentProto, 'querySelectorAll'),
    nodeListLength: getter<number>(NodeList.prototype, 'length'),
    nodeListItem: method<[number], Node | null>(NodeList.prototype, 'item'),
    rectListLength: getter<number>(DOMRectList.prototype, 'length'),
    rectListItem: method<[number], DOMRect | null>(DOMRectList.prototype, 'item'),
    rectX: getter<number>(DOMRectReadOnly.prototype, 'x'),
    rectY: getter<number>(DOMRectReadOnly.prototype, 'y'),
    rectWidth: getter<number>(DOMRectReadOnly.prototype, 'width'),
    rectHeight: getter<number>(DOMRectReadOnly.prototype, 'height'),
    /** `proto`'s own descriptor of `name`: as snapshotted, for a snapshotted prototype. */
    ownDescriptor: (proto: object, name: string): PropertyDescriptor | undefined => {
      const own = snapshot === null ? undefined : (mapGet(snapshot, proto) as Map<string, PropertyDescriptor> | undefined);
      return own === undefined ? getOwnPropertyDescriptor(proto, name) : (mapGet(own, name) as PropertyDescriptor | undefined);
    },
    /** `[object X]`'s X. */
    className: (value: unknown) => slice(objectToString(value), 8, -1),
    /** The name of a thrown value, as the engine's own error types give it; `typeof` for anything else. */
    errorName: (error: unknown): string => {
      if (typeof error !== 'object' || error === null) return typeof error;
      if (protoOf(DOMExceptionProto, error)) return exceptionName(error);
      const proto = getPrototypeOf(error);
      for (let i = 0; i < errorProtos.length; i++) if (proto === errorProtos[i]) return errorNames[i]!;
      return protoOf(errorProtos[0], error) ? 'Error' : 'object';
    },
    /** Which of those built-ins the page has changed since they were captured. */
    transportChanged: (): string[] => {
      const changed: string[] = [];
      // Indexing, not destructuring: destructuring an array calls Array.prototype[Symbol.iterator].
      for (let i = 0; i < transport.length; i++) {
        const entry = transport[i]!;
        const now = getOwnPropertyDescriptor(entry[0], entry[1]);
        const was = entry[2];
        if (!now || now.value !== was.value || now.get !== was.get || now.set !== was.set) {
          changed[changed.length] = typeof entry[1] === 'symbol' ? 'a Symbol-keyed built-in' : `${entry[1] as string}`;
        }
      }
      return changed;
    },
    /** Puts back the built-ins WebKitGTK's WebDriver plumbing uses, as they were when captured. */
    restoreTransport: () => {
      for (let i = 0; i < transport.length; i++) {
        const entry = transport[i]!;
        try {
          defineProperty(entry[0], entry[1], entry[2]);
        } catch {
          // made unconfigurable by the page: nothing to do but try the rest
        }
      }
    },
    describe,
    uncurry,
  });
}

export type Builtins = ReturnType<typeof captureBuiltins>;
