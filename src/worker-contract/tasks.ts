// The contract between the coordinator and the worker threads: what a task carries. What comes
// back is the op's answer without its id (AnswerFields, src/protocol/ops.ts), as msgpack in a
// transferred buffer (see case-worker.ts); control messages use a BroadcastChannel because
// Piscina cannot address one particular worker.
import type { EngineName } from '../protocol/schema.js';
import type { Executables, OracleOptions } from '../protocol/launch-options.js';
import type { AnswerFields, CaseOp, RequestOf } from '../protocol/ops.js';
import type { EngineColumns } from '../protocol/walk-columns.js';
import type { EngineLaunch, WORKER_OPTIONS } from './launch.js';

/** How big a dump may grow before the walk stops and the case is answered dump_too_large. */
export interface DumpLimits {
  maxNodes: number;
  maxFragments: number;
  /** Roughly the bytes of one engine's dump. */
  maxBytes: number;
}

/** What every worker is started with: its engines' launch, and the launch options its engine hosts read (src/protocol/launch-options.ts). */
export type WorkerConfig = Pick<OracleOptions, (typeof WORKER_OPTIONS)[number]> & {
  launch: EngineLaunch;
  limits: DumpLimits;
  /** maxEngineMemory in bytes (src/workers/host/memory-watch.ts). */
  maxEngineMemory: number;
};

/** One engine's copy of a case document: served once, at an unguessable path, with its nonce. */
export interface DocumentCopy {
  url: string;
  nonce: string;
}

/** An engine's copies of a case: one to load, and one more for a run on a fresh page, since each is served once. */
export interface ServedDocument extends DocumentCopy {
  retry: DocumentCopy;
}

/** A case for the workers: the validated request itself, and what the coordinator adds to it. */
export interface CaseTask<K extends CaseOp = CaseOp> {
  op: K;
  request: RequestOf<K>;
  /** The requested engines this oracle runs. */
  engines: EngineName[];
  /** The requested engines it does not run, with their errors (the answer names them; a vote counts them too). */
  unavailable: Partial<Record<EngineName, string>>;
  /** The case as a fresh document, one per engine in `engines`. */
  documents: Partial<Record<EngineName, ServedDocument>>;
  /** An empty page whose CSP forbids page script: the fast path writes cases into it. */
  blankUrl: string;
  /** Answer with each engine's walk in columns too (a `vote`): a campaign judges a candidate on them, and parses no dump to do it. */
  columns?: boolean;
}

/** What a worker answers a task with: its op's answer fields, and its walks' columns when the task asked. */
export type TaskAnswer<K extends CaseOp> = AnswerFields<K> & { columns?: EngineColumns };

/** Any case task: the one a worker's task table dispatches on `op`. */
export type WorkerTask = { [K in CaseOp]: CaseTask<K> }[CaseOp];

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
