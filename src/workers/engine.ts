// The one engine interface. Everything outside src/workers/engines talks to a browser through
// these types; each engine has one adapter folder that implements them (Playwright's
// PageDelegate, for three engines driven three ways).
import type { EngineName } from '../protocol/schema.js';
import type { Executables } from '../protocol/launch-options.js';
import type { EngineLaunch } from '../worker-contract/launch.js';
import type { ProgramName } from '../page/sources.js';
import type { Emulate, EmulationFeature, FeatureOutcome } from '../protocol/emulation-schema.js';

/** A trusted program to run on the page's current document (src/page/programs.ts). */
export interface ProgramCall {
  program: ProgramName;
  /** The program's arguments, JSON-serializable. */
  args: object;
  /**
   * The case's own script, run first in the page's main world as a classic script at global
   * scope, once the document's fonts have settled and, when the args say `fresh`, it has been laid
   * out from scratch (the `settle` program); the program then runs on the document as the script
   * left it, `fresh` no longer set: nothing lays the page out again behind the script's back. A script that throws rejects the call with OracleError `script_error`.
   */
  script?: string | null;
}

/** What a page's driver made of a trace's `emulate`. */
export interface Emulated {
  /** Each feature asked for: `applied` only when the driver confirmed it (an answer that reads it back, an id), never because it was sent. */
  outcomes: Partial<Record<EmulationFeature, FeatureOutcome>>;
  /** Undoes what the page's end does not (a browser-wide feature); bounded in time, never rejects. */
  undo(): Promise<void>;
}

/** One page: one case at a time, on a document the host chose. */
export interface EnginePage {
  /**
   * Applies `emulate` to the page before it loads a case document of `origin`: the page's
   * overrides end with the page, a browser-wide one when `undo` is called. A feature the driver
   * refuses is `failed: …`, one it cannot apply `unsupported`; only the page or browser going away
   * rejects (EngineGoneError).
   */
  emulate(emulate: Emulate, origin: string): Promise<Emulated>;
  /** Loads `url` as a fresh top-level document; resolves after its load event. */
  load(url: string, timeoutMs: number): Promise<void>;
  /**
   * Runs a trusted program where page script cannot reach it (an isolated world, a sandbox, or the
   * guard served before any page script) and resolves with the JSON text the program made. The
   * text is the page's word, not checked here: the caller decodes it (src/protocol/page-output.ts).
   * A program whose args carry a `check` runs on a case document (a guarded adapter goes through
   * the guard); one without runs on a page that never ran page script (the blank page).
   */
  run(call: ProgramCall): Promise<string>;
  /**
   * A PNG of the viewport as the page shows it now. The bytes are the page's word, not checked
   * here: the caller decodes them (src/protocol/page-output.ts).
   */
  screenshot(): Promise<Uint8Array>;
  /** Calls `functionSource` with `args` in the page's main world (the trace recorder's hook); resolves with its JSON result. */
  callMain(functionSource: string, args: readonly unknown[]): Promise<unknown>;
  /** Releases the page and whatever the case opened from it (popups, workers); bounded in time even when the page is hung. */
  close(): Promise<void>;
}

/** What the engine host must know of an engine's adapter to run cases on it. */
export interface EngineTraits {
  /**
   * True when the adapter runs programs through the guard (src/page/guard.ts) instead of an
   * isolated world: the case server must then make the guard the first script of every case
   * document it serves to this engine.
   */
  readonly guarded: boolean;
  /**
   * True when a document written over keeps its bidi processing on once right-to-left content
   * turned it on (Gecko, measured): the fast path then writes no left-to-right case after a case
   * that may turn it on, in the same document.
   */
  readonly writesKeepBidi: boolean;
  /**
   * True when the fast path may parse a case off the page and swap its root in (src/page/swap.ts,
   * which falls back to a write wherever the two could differ) rather than document.open, which
   * costs Chromium and Firefox about half of a small case. Not for a case that may turn bidi on
   * where writesKeepBidi: the bidi switch lives on the document, which a swap keeps, and whether
   * swapped-in rtl text turns it on as a write would has not been shown.
   */
  readonly swapsWrites: boolean;
  /**
   * The emulation features the browser applies to every page at once (Chromium's simulated
   * Bluetooth adapter, Firefox's virtual authenticator): a case that asks for one runs alone in the
   * browser, and what it set is undone before the next case starts.
   */
  readonly browserWide: readonly EmulationFeature[];
  /**
   * True when each of the browser's process groups is one page's own browser (WebKitGTK: a driver
   * and its MiniBrowser per page), which a process of it killed for memory leaves useless: the
   * whole group is killed then, and the page's call fails at once instead of waiting out its timeout.
   */
  readonly groupPerPage: boolean;
}

export interface EngineBrowser {
  readonly engine: EngineName;
  /** The exact build, from the driver (never the user agent). */
  readonly version: string;
  /** The executables it runs, absolute (what `ping` reports as `paths`). */
  readonly executables: Executables;
  /** How the engine host runs cases on it: the same for every browser its adapter launches. */
  readonly traits: EngineTraits;
  /**
   * A new page at about:blank, sized to VIEWPORT (the engine host checks it before the page takes a
   * case: src/workers/host/page-pool.ts). `freshStorage`: with nothing of any earlier page's
   * storage (cookies, IndexedDB, Cache API, service workers) — every adapter gives each page its own
   * storage anyway except where that is costly (one WebKitGTK session serves many pages).
   */
  newPage(options: { freshStorage: boolean }): Promise<EnginePage>;
  /** Resolves when the browser process goes away for any reason. */
  readonly exited: Promise<void>;
  /**
   * The process groups its processes run in now (each adapter starts its browser, or each WebKit
   * driver, as the leader of a group of its own): what the memory watch holds to the budget.
   */
  processGroups(): readonly number[];
  close(): Promise<void>;
}

export type LaunchEngine = (options: EngineLaunch) => Promise<EngineBrowser>;

/**
 * Thrown by an adapter when the page, its renderer, its driver or its browser went away under
 * a call — a crash, which the engine host retries once on a fresh page — as opposed to an
 * error the case itself caused in a live page.
 */
export class EngineGoneError extends Error {
  override name = 'EngineGoneError';
}
