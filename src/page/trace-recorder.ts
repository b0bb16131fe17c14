// The trace recorder: the script every trace page carries first, so it is installed before
// any script of the case's own (inline <script> included) in every engine — WebKitGTK over
// WebDriver has no init-script hook, so serving it first is the one way that holds for all
// three. It defines `window.trace`, canonicalizes every observation into JSON-safe form and
// hands the finished trace to the driver through a symbol-keyed hook.
//
// Records, in push order, each `{seq, kind, label, …}`:
//   value   {…, value}          trace.value(label, v): v canonicalized
//   event   {…, type}           trace.event(target, types): one per firing; label is the
//                               listening target (window, document, TAG or TAG#id, else the
//                               object's class name)
//   settle  {…, state, value}   trace.settle(label, p): state "fulfilled" | "rejected", value
//                               the canonicalized result or reason
//   error   {…, name}           trace.error(label, err), and a synchronous throw of the
//                               request's script (label "script"): the error's name, null when
//                               the thrown value is not an Error
// Calls after the trace has ended record nothing.
//
// `trace.claim(afterScript?)` hands the whole recorder to the first caller, once: it answers a
// private recorder (the same five methods), removes `window.trace`, and from then on the public
// methods record nothing and end nothing. A report script that runs before any script of the
// case (a test harness's, src/wpt/report-script.ts) claims it, so the case cannot add records
// of its own or end the trace early, and its own global named `trace` is its own. When the
// request's script has run, `afterScript(threw, error)` is called instead of recording a throw.
//
// What leaves the page is JSON text the recorder writes itself (not JSON.stringify, which a
// page bends with a toJSON of its own), from built-ins captured here. The request's script runs
// a microtask after the driver's call, so the call's own machinery is in place before the case
// can replace anything. On WebKitGTK (`transport`: its WebDriver has no isolated world, and runs
// its plumbing on the page's built-ins, src/page/builtins.ts), the built-ins that plumbing uses
// are put back before the recorder answers; a page that replaced one while it loaded, before
// the driver's call began, is answered ['tampered', name] (page_tampered), as the guard does.
import { TRACE_TIMEOUT } from '../protocol/trace-schema.js';
import { captureBuiltins, type Builtins } from './builtins.js';

/** The property of `window` the recorder defines for the driver: not writable, not configurable, so no page script replaces it. */
export const HOOK_KEY = '__browserOracleTrace';

/** Shape walks stop this deep (the top-level value is depth 0) and list this many items per level. */
const MAX_DEPTH = 4;
const MAX_ITEMS = 64;

/**
 * What the hook answers, as JSON text of one of: [origin, isSecureContext, timed out, records]
 * (records null when they passed the byte budget); ['elsewhere', href] on a document that is not
 * the case's own (another URL or nonce); ['tampered', name] (see above). Decoded by
 * decodeTraceText (src/protocol/page-output.ts).
 */

/** Any built-in the recorder calls through Reflect.apply. */
type AnyFunction = (...args: never[]) => unknown;

function installRecorder(
  completionMs: number,
  hookKey: string,
  maxDepth: number,
  maxItems: number,
  nonce: string,
  maxBytes: number,
  transport: Builtins | null,
): void {
  // Captured before any page script runs, so a page that replaces built-ins cannot bend the trace.
  const { getOwnPropertyNames, getOwnPropertyDescriptor, getPrototypeOf, defineProperty, freeze, hasOwn } = Object;
  const { apply, deleteProperty } = Reflect;
  const { isArray } = Array;
  const { isFinite: finite } = Number;
  const ErrorType = Error;
  const Bytes = Uint8Array;
  const text = String;
  const fromCharCode = String.fromCharCode;
  const charCodeAt = String.prototype.charCodeAt;
  const stringSlice = String.prototype.slice;
  const subarray = Uint8Array.prototype.subarray;
  const objectToString = Object.prototype.toString;
  const toBase64 = btoa;
  const globalEval = eval; // called by another name: an indirect eval, global scope like a classic script
  const listen = EventTarget.prototype.addEventListener;
  const then = Promise.prototype.then;
  const microtask = queueMicrotask;
  const later = setTimeout;
  const resolved = Promise.resolve.bind(Promise);
  const getter = (proto: object | undefined, name: PropertyKey) => (proto ? getOwnPropertyDescriptor(proto, name)?.get : undefined);
  const typedArrayProto = getPrototypeOf(Uint8Array.prototype) as object;
  const typedArrayName = getter(typedArrayProto, Symbol.toStringTag)!;
  const typedArrayBytes = [
    getter(typedArrayProto, 'buffer')!,
    getter(typedArrayProto, 'byteOffset')!,
    getter(typedArrayProto, 'byteLength')!,
  ];
  const typedArrayLength = getter(typedArrayProto, 'length')!;
  const dataViewBytes = [
    getter(DataView.prototype, 'buffer')!,
    getter(DataView.prototype, 'byteOffset')!,
    getter(DataView.prototype, 'byteLength')!,
  ];
  const arrayBufferLength = getter(ArrayBuffer.prototype, 'byteLength')!;
  const imageDataProto = typeof ImageData === 'function' ? ImageData.prototype : undefined;
  const imageDataFields = [getter(imageDataProto, 'width'), getter(imageDataProto, 'height'), getter(imageDataProto, 'data')];
  const audioProto = typeof AudioBuffer === 'function' ? AudioBuffer.prototype : undefined;
  const audioFields = [getter(audioProto, 'numberOfChannels'), getter(audioProto, 'length'), getter(audioProto, 'sampleRate')];
  const channelData = audioProto?.getChannelData;
  const hrefGet = getOwnPropertyDescriptor(location, 'href')!.get!;
  const here = location;
  const origin = location.origin;
  const secure = isSecureContext;
  // A browsing context carries its name from one document to the next: this one starts without.
  apply(getOwnPropertyDescriptor(window, 'name')!.set!, window, ['']);

  /** Calls a built-in getter on `value`; undefined when `value` lacks the brand (the getter throws). */
  const branded = (get: AnyFunction | undefined, value: object): unknown => {
    if (!get) return undefined;
    try {
      return apply(get, value, []);
    } catch {
      return undefined;
    }
  };

  // The records as JSON text, written as they come: a case records as much as it likes, and
  // past `maxBytes` the trace is over budget (its answer is dump_too_large), not a huge string.
  let records = '';
  let count = 0;
  let overBudget = false;
  let ended = false;
  let timedOut = false;
  // Callbacks, not a promise: awaiting consults Promise.prototype, which the page may replace.
  const waiting: (() => void)[] = [];
  const finish = (byTimeout: boolean) => {
    if (ended) return;
    ended = true;
    timedOut = byTimeout;
    for (let i = 0; i < waiting.length; i++) waiting[i]!();
  };
  // The clock starts when the request's script does, not at install: the load and the driver's
  // call before it take what the machine's load gives them (up to 1.9 s of Firefox's at load 23).
  let clockStarted = false;
  const startClock = () => {
    if (clockStarted) return;
    clockStarted = true;
    apply(later, window, [() => finish(true), completionMs]);
  };
  /** `s` as a JSON string literal: quotes, backslashes, control characters and lone surrogates escaped. */
  const digits = '0123456789abcdef';
  const quote = (s: string): string => {
    let out = '"';
    let start = 0;
    for (let i = 0; i < s.length; i++) {
      const c = apply(charCodeAt, s, [i]) as number;
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c && (c < 0xd800 || c > 0xdfff)) continue;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const next = apply(charCodeAt, s, [i + 1]) as number;
        if (next >= 0xdc00 && next <= 0xdfff) {
          i++;
          continue;
        }
      }
      const hex = `${digits[(c >> 12) & 15]}${digits[(c >> 8) & 15]}${digits[(c >> 4) & 15]}${digits[c & 15]}`;
      out += `${apply(stringSlice, s, [start, i])}${c === 0x22 ? '\\"' : c === 0x5c ? '\\\\' : `\\u${hex}`}`;
      start = i + 1;
    }
    return `${out}${apply(stringSlice, s, [start])}"`;
  };
  /** JSON text of a value the recorder built: null, booleans, finite numbers, strings, arrays and plain objects. */
  const json = (value: unknown): string => {
    if (value === null) return 'null';
    switch (typeof value) {
      case 'boolean':
        return value ? 'true' : 'false';
      case 'number':
        return finite(value) ? `${value}` : 'null';
      case 'string':
        return quote(value);
    }
    let out = '';
    if (isArray(value)) {
      for (let i = 0; i < value.length; i++) out += `${i ? ',' : ''}${json(value[i])}`;
      return `[${out}]`;
    }
    const keys = getOwnPropertyNames(value);
    for (let i = 0; i < keys.length; i++) out += `${i ? ',' : ''}${quote(keys[i]!)}:${json((value as Record<string, unknown>)[keys[i]!])}`;
    return `{${out}}`;
  };
  const push = (record: object) => {
    if (ended || overBudget) return;
    const written = json(record);
    if (records.length + written.length > maxBytes) overBudget = true;
    else records += `${count++ ? ',' : ''}${written}`;
  };
  const labelOf = (label: unknown) => (typeof label === 'string' ? label : text(label));

  const base64 = (bytes: Uint8Array): string => {
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000)
      binary += apply(fromCharCode, null, apply(subarray, bytes, [i, i + 0x8000]) as unknown as number[]);
    return toBase64(binary);
  };
  // Indexing, not destructuring or map: both go through built-ins a page may replace.
  const bufferOf = (elementType: string, length: number, view: unknown[]) => ({
    $buffer: true,
    elementType,
    length,
    base64: base64(new Bytes(view[0] as ArrayBuffer, view[1] as number, view[2] as number)),
  });
  const viewBytes = (getters: AnyFunction[], value: object) => [
    apply(getters[0]!, value, []),
    apply(getters[1]!, value, []),
    apply(getters[2]!, value, []),
  ];

  const errorName = (value: unknown): string | null => {
    if (!(value instanceof ErrorType)) return null;
    const name = (value as Error).name;
    return typeof name === 'string' ? name : text(name);
  };

  function canonical(value: unknown, depth: number, path: object[]): unknown {
    switch (typeof value) {
      case 'undefined':
        return { $undefined: true };
      case 'boolean':
      case 'string':
        return value;
      case 'number':
        if (finite(value) && !(value === 0 && 1 / value < 0)) return value;
        return { $num: value === 0 ? '-0' : text(value) };
      case 'bigint':
        return { $bigint: text(value) };
      case 'symbol':
        return { $symbol: text(value) };
    }
    if (value === null) return null;
    const object = value as object;
    const name = errorName(object);
    if (name !== null) return { $error: true, name };
    const elementType = branded(typedArrayName, object) as string | undefined;
    if (elementType) return bufferOf(elementType, apply(typedArrayLength, object, []) as number, viewBytes(typedArrayBytes, object));
    const viewSize = branded(dataViewBytes[2], object) as number | undefined;
    if (viewSize !== undefined) return bufferOf('DataView', viewSize, viewBytes(dataViewBytes, object));
    const bufferSize = branded(arrayBufferLength, object) as number | undefined;
    if (bufferSize !== undefined) return bufferOf('ArrayBuffer', bufferSize, [object, 0, bufferSize]);
    const width = branded(imageDataFields[0], object) as number | undefined;
    if (width !== undefined) {
      const data = apply(imageDataFields[2]!, object, []) as Uint8ClampedArray;
      const { $buffer, ...payload } = canonical(data, depth, path) as Record<string, unknown>;
      return { $imageData: true, width, height: apply(imageDataFields[1]!, object, []), ...payload };
    }
    const channels = branded(audioFields[0], object) as number | undefined;
    if (channels !== undefined) {
      const list: unknown[] = [];
      for (let i = 0; i < channels; i++) list[i] = canonical(apply(channelData!, object, [i]), depth, path);
      return {
        $audioBuffer: true,
        numberOfChannels: channels,
        length: apply(audioFields[1]!, object, []),
        sampleRate: apply(audioFields[2]!, object, []),
        channels: list,
      };
    }
    return shape(object, depth, path);
  }

  /** The own-property structure walk, bounded in depth and breadth; an ancestor seen again is a cycle. */
  function shape(object: object, depth: number, path: object[]): unknown {
    const kind = isArray(object) ? 'array' : typeof object === 'function' ? 'function' : 'object';
    for (let i = 0; i < path.length; i++) if (path[i] === object) return { $shape: 'cycle' };
    if (kind === 'array') {
      const array = object as unknown[];
      if (depth >= maxDepth) return { $shape: kind, length: array.length };
      path[path.length] = object;
      const elements: unknown[] = [];
      for (let i = 0; i < array.length && i < maxItems; i++) elements[i] = canonical(array[i], depth + 1, path);
      path.length--;
      return { $shape: kind, length: array.length, elements };
    }
    if (depth >= maxDepth) return { $shape: kind };
    path[path.length] = object;
    const keys = getOwnPropertyNames(object);
    const props = {};
    for (let i = 0; i < keys.length && i < maxItems; i++) {
      const descriptor = getOwnPropertyDescriptor(object, keys[i]!)!;
      let prop: object;
      if (hasOwn(descriptor, 'value')) {
        const v = descriptor.value as unknown;
        prop = { type: v === null ? 'null' : typeof v, value: canonical(v, depth + 1, path) };
      } else {
        prop = { type: descriptor.get && descriptor.set ? 'accessor' : descriptor.get ? 'getter' : 'setter' };
      }
      // defineProperty, not assignment: a key named "__proto__" must stay a plain key.
      defineProperty(props, keys[i]!, { value: prop, enumerable: true, writable: true, configurable: true });
    }
    path.length--;
    return { $shape: kind, keys, props };
  }

  const targetLabel = (target: unknown): string => {
    if (target === window) return 'window';
    if (target === document) return 'document';
    if (target instanceof Element) return target.id ? `${target.tagName}#${target.id}` : target.tagName;
    return apply(stringSlice, apply(objectToString, target, []), [8, -1]) as string;
  };

  let claimed = false;
  let afterScript: ((threw: boolean, error: unknown) => void) | undefined;
  const recorder = freeze({
    value(label: unknown, value: unknown) {
      push({ seq: count, kind: 'value', label: labelOf(label), value: canonical(value, 0, []) });
    },
    event(target: EventTarget, types: string | string[]) {
      const label = targetLabel(target);
      const list = isArray(types) ? types : [types];
      for (let i = 0; i < list.length; i++) {
        apply(listen, target, [list[i], (event: Event) => push({ seq: count, kind: 'event', label, type: event.type })]);
      }
    },
    settle(label: unknown, promise: unknown) {
      const text = labelOf(label);
      const settled = (state: string) => (value: unknown) =>
        push({ seq: count, kind: 'settle', label: text, state, value: canonical(value, 0, []) });
      apply(then, resolved(promise), [settled('fulfilled'), settled('rejected')]);
    },
    error(label: unknown, error: unknown) {
      push({ seq: count, kind: 'error', label: labelOf(label), name: errorName(error) });
    },
    done() {
      finish(false);
    },
  });
  /** The public recorder: the private one's methods, until claimed. */
  const unlessClaimed =
    <A extends unknown[]>(method: (...args: A) => void) =>
    (...args: A) => {
      if (!claimed) apply(method, recorder, args);
    };
  const trace = freeze({
    value: unlessClaimed(recorder.value),
    event: unlessClaimed(recorder.event),
    settle: unlessClaimed(recorder.settle),
    error: unlessClaimed(recorder.error),
    done: unlessClaimed(recorder.done),
    claim(after?: unknown) {
      if (claimed) return null;
      claimed = true;
      if (typeof after === 'function') afterScript = after as typeof afterScript;
      deleteProperty(window, 'trace');
      return recorder;
    },
  });
  // Configurable, so that a claim can take it away; not writable, so an assignment does not.
  defineProperty(window, 'trace', { value: trace, enumerable: true, configurable: true });

  // Runs the request's script once the page has loaded, and answers when the trace has ended —
  // only on this document: its URL and the nonce it was served with must be the caller's.
  // A null script only waits for the end: WebKitGTK's WebDriver gives up on a call during which a
  // dialog was dismissed, though the trace goes on, and the driver then asks again.
  const run = (check: { url: string; nonce: string }, script: string | null, done: (text: string) => void) => {
    const answer = (text: string) => {
      transport?.restoreTransport();
      done(text);
    };
    const href = apply(hrefGet, here, []) as string;
    if (check.nonce !== nonce) return answer(json(['elsewhere', href]));
    if (tampered !== null) return answer(json(['tampered', tampered]));
    startClock();
    if (script !== null) {
      microtask(() => {
        let threw = false;
        let thrown: unknown;
        try {
          globalEval(script);
        } catch (error) {
          threw = true;
          thrown = error;
        }
        if (afterScript) {
          try {
            afterScript(threw, thrown);
          } catch {
            // the claimant's own failure: it has what it recorded
          }
        } else if (threw) recorder.error('script', thrown);
      });
    }
    const reply = () => answer(`[${json(origin)},${json(secure)},${json(timedOut)},${overBudget ? 'null' : `[${records}]`}]`);
    if (ended) reply();
    else waiting[waiting.length] = reply;
  };
  // What WebKitGTK's WebDriver runs on, as it stood when the page had loaded and before the
  // driver's call: a replaced one is put back, and the case answered as tampered.
  let tampered: string | null = null;
  if (transport) {
    apply(listen, window, [
      'pageshow',
      () => {
        const replaced = transport.transportChanged();
        if (!replaced.length) return;
        tampered = replaced[0]!;
        transport.restoreTransport();
      },
      { once: true },
    ]);
  }
  defineProperty(window, hookKey, { value: freeze(run), writable: false, enumerable: false, configurable: false });

  // Every trace page shares one real origin: start from empty storage whatever an earlier trace left.
  try {
    localStorage.clear();
    sessionStorage.clear();
    for (const cookie of document.cookie.split(';')) {
      const name = cookie.split('=')[0]!.trim();
      for (const path of ['/', '/trace']) document.cookie = `${name}=; max-age=0; path=${path}`;
    }
  } catch {
    // storage disabled: nothing to clear
  }
  // The page's DOM is the case's alone.
  document.currentScript?.remove();
}

/**
 * The trace page for `html` (body markup) and its nonce: the recorder's <script> first, then the
 * markup, which the parser places in head or body as it would in any document. A trace that
 * does not call trace.done() ends `completionMs` after the driver's call to run its script. `guarded` for
 * an engine without an isolated world (WebKitGTK), whose driver runs on the page's built-ins.
 */
export function tracePage(
  html: string,
  nonce: string,
  maxBytes: number,
  completionMs: number = TRACE_TIMEOUT.defaultMs,
  guarded = false,
): string {
  const args = [completionMs, HOOK_KEY, MAX_DEPTH, MAX_ITEMS, nonce, maxBytes].map((a) => JSON.stringify(a));
  const transport = guarded ? `(${captureBuiltins.toString()})(false)` : 'null';
  return `<!doctype html><script>(${installRecorder.toString()})(${args.join(', ')}, ${transport});</script>${html}`;
}

const recorderText = (guarded: boolean) => tracePage('', '0', 0, 1, guarded).slice('<!doctype html><script>'.length, -'</script>'.length);
if ([false, true].some((guarded) => /<\/script|<!--|<script/i.test(recorderText(guarded)))) {
  throw new Error('the recorder source would break out of its <script> element');
}
