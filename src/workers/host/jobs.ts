// What an engine host runs: one engine's part of a case. A script-free geometry case is written
// into the fast path's blank page, many to one driver call (fast-path.ts); any other case loads its
// own document on a page of its own, which is retired afterwards so nothing the case started
// reaches a later one. What a document job does on its page is its op's (src/workers/tasks/); how
// its failures are judged is the case runner's.
import type { ServedDocument } from '../../worker-contract/tasks.js';
import type { RawWalk } from '../../protocol/page-output.js';
import type { CaseCheck } from '../../page/programs.js';
import type { WalkOptions } from '../../page/walk.js';
import type { Emulate } from '../../protocol/emulation-schema.js';
import type { Emulated, EnginePage } from '../engine.js';

/** A case document (its copies, each served once), and how the page is replaced after it. */
export interface CaseDocument extends ServedDocument {
  /** Replace the page with one whose storage is fresh, not only its browsing context (trace pages share an origin). */
  freshStorage: boolean;
}

/** A case on its own document: once the page has loaded it, `run` does the op's work there and answers. */
export interface DocumentJob<R = unknown> {
  kind: 'document';
  document: CaseDocument;
  /** How much longer than a case's time the op may take (a trace's own completion timeout). */
  extraMs: number;
  /**
   * Applied to the page before the document loads and undone once the run settled (a trace's
   * emulation); one that takes the whole browser runs with no other case of that browser (case-runner.ts).
   */
  emulate?: Emulate;
  /**
   * The op's work on the loaded page; `check` names the document the trusted in-page code must
   * find itself on, `emulation` what the driver made of `emulate` (when the job had one).
   */
  run(page: EnginePage, check: CaseCheck, emulation: Emulated['outcomes'] | undefined): Promise<R>;
}

/** A script-free geometry case, for the fast path; `fallback` is the same case loaded as its own document, should the parsed markup turn out script-capable. */
export interface WriteJob {
  kind: 'write';
  html: string;
  /** The page the fast path writes into: its CSP forbids page script. */
  blankUrl: string;
  walk: WalkOptions;
  /** Walk again after a fresh layout (the relayout check). */
  relayout: boolean;
  fallback: DocumentJob<RawWalk>;
  /** May turn on its document's bidi processing, which then stays on for cases written after it (fast-path.ts). */
  bidi: boolean;
}

export type Job = DocumentJob | WriteJob;

/** How much later than the case's own timer a driver's bound on a page load fires: the case's timer rules (case_timeout). */
export const DRIVER_SLACK_MS = 1_000;
