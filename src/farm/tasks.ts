// The contract between the coordinator and the worker threads: what a task carries and what
// comes back. Results travel as msgpack in a transferred buffer (see case-worker.ts); control
// messages use a BroadcastChannel because Piscina cannot address one particular worker.
import type { EngineName } from '../protocol/schema.js';
import type { Executables } from '../protocol/launch-options.js';
import type { Probe } from '../protocol/reflect-schema.js';
import type { JsonText } from '../protocol/wire.js';
import type { LaunchOptions } from './launch.js';

/** How big a dump may grow before the walk stops and the case is answered dump_too_large. */
export interface DumpLimits {
  maxNodes: number;
  maxFragments: number;
  /** Roughly the bytes of one engine's dump. */
  maxBytes: number;
}

export interface WorkerConfig {
  engines: EngineName[];
  launch: LaunchOptions;
  /** Pages per engine in each worker: the cases one worker runs at once per engine. */
  pages: number;
  /** The most script-free cases one driver call writes and walks. */
  maxBatch: number;
  /** Per case and engine. */
  timeoutMs: number;
  limits: DumpLimits;
}

/** One engine's copy of a case document: served once, at an unguessable path, with its nonce. */
export interface DocumentCopy {
  url: string;
  nonce: string;
}

/** An engine's copies of a case: one to load, and one more for a run on a fresh page, since each is served once. */
export interface ServedDocument extends DocumentCopy {
  retry: DocumentCopy;
}

/** What every case task carries: its documents, served by the coordinator, and its engines. */
export interface CaseTask {
  /** The requested engines this oracle runs. */
  engines: EngineName[];
  /** The requested engines it does not run, with their errors (a vote counts them too). */
  unavailable: Partial<Record<EngineName, string>>;
  /** The case as a fresh document, one per engine. */
  documents: Partial<Record<EngineName, ServedDocument>>;
  /** An empty page whose CSP forbids page script: the fast path writes cases into it. */
  blankUrl: string;
  html: string;
  script: string | null;
}

export interface GeometryTask extends CaseTask {
  kind: 'geometry';
  /** Vote on the dumps here, in the worker (the `vote` op). */
  vote: boolean;
  /** Send the dumps back (a `vote` op answers without them unless asked). */
  keepDumps: boolean;
}

export interface ReflectTask extends CaseTask {
  kind: 'reflect';
  /** The request's probes, with `idl` defaulted to `attr`. */
  probes: Required<Probe>[];
}

/** A trace: its documents are trace pages (the recorder first), `script` the request's script. */
export interface TraceTask extends CaseTask {
  kind: 'trace';
  /** The trace's completion timeout (its `timeout_ms`, or the default). */
  completionMs: number;
}

/** A picture of a geometry case's viewport per engine, after load, fonts and `script`. */
export interface ScreenshotTask extends CaseTask {
  kind: 'screenshot';
}

export type WorkerTask = GeometryTask | ReflectTask | TraceTask | ScreenshotTask;

export interface GeometryResult {
  /** Dump JSON text per engine that succeeded, in the contract's key order. */
  dumps: Partial<Record<EngineName, JsonText>>;
  errors: Partial<Record<EngineName, string>>;
  /** In-page milliseconds per engine (parse + style + layout + walk), for the bench. */
  inPageMs: Partial<Record<EngineName, number>>;
  /** The vote, when the task asked for one. */
  vote?: JsonText;
}

export interface ReflectResult {
  /** Reflection state JSON text per engine that succeeded, in the contract's key order. */
  states: Partial<Record<EngineName, JsonText>>;
  errors: Partial<Record<EngineName, string>>;
}

export interface TraceResult {
  /** Trace JSON text per engine that completed, in the contract's key order. */
  traces: Partial<Record<EngineName, JsonText>>;
  errors: Partial<Record<EngineName, string>>;
}

export interface ScreenshotResult {
  /** An 800×600 PNG per engine that succeeded (msgpack binary on the way here). */
  images: Partial<Record<EngineName, Uint8Array>>;
  errors: Partial<Record<EngineName, string>>;
}

export const CONTROL_CHANNEL = 'browser-oracle/control';

export type ControlMessage =
  | {
      type: 'status';
      threadId: number;
      versions: Partial<Record<EngineName, string>>;
      /** The engines whose documents must carry the guard (src/page/guard.ts). */
      guarded: EngineName[];
      failures: Partial<Record<EngineName, string>>;
      /** The executables the launched engines run, as the adapters resolved them (what `ping` reports as `paths`). */
      executables: Executables;
    }
  | { type: 'close' }
  | { type: 'closed'; threadId: number };
