// What an engine host runs: one engine's part of a case. A script-free case is written into the
// fast path's blank page, many to one driver call; any other case loads its own document on a
// page of its own, which is retired afterwards so nothing the case started reaches a later one.
import type { ServedDocument } from '../../farm/tasks.js';
import type { WalkOptions } from '../../page/walk.js';
import type { ReflectProbe } from '../../page/reflect.js';

/** A case document (its copies, each served once), and how the page is replaced after it. */
interface CaseDocument extends ServedDocument {
  /** Replace the page with one whose storage is fresh, not only its browsing context (trace pages share an origin). */
  freshStorage: boolean;
}

/** A script-free geometry case, for the fast path; `fallback` is the same case loaded as its own document, should the parsed markup turn out script-capable. */
export interface WriteJob {
  kind: 'write';
  html: string;
  /** The page the fast path writes into: its CSP forbids page script. */
  blankUrl: string;
  walk: WalkOptions;
  fallback: WalkJob;
  /** May turn on its document's bidi processing, which then stays on for cases written after it. */
  bidi: boolean;
}

/** A geometry case on its own document; `script` runs after load and fonts, before the walk. */
export interface WalkJob {
  kind: 'walk';
  document: CaseDocument;
  walk: WalkOptions;
  script: string | null;
}

interface ReflectJob {
  kind: 'reflect';
  document: CaseDocument;
  probes: readonly ReflectProbe[];
  script: string | null;
  /** Past this many bytes of values the case is dump_too_large. */
  maxBytes: number;
}

/** A trace: the document's recorder runs `script` and answers when the trace ends. */
interface TraceJob {
  kind: 'trace';
  document: CaseDocument;
  script: string;
  /** The trace's completion timeout: the case's time runs on top of it. */
  completionMs: number;
}

/** A picture of a geometry case on its own document, taken where a walk would run: after load, fonts and `script`. */
interface ScreenshotJob {
  kind: 'screenshot';
  document: CaseDocument;
  script: string | null;
}

export type Job = WriteJob | WalkJob | ReflectJob | TraceJob | ScreenshotJob;
export type DocumentJob = Exclude<Job, WriteJob>;
