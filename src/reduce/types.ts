// The reducer's public types.
import type { HtmlKind } from './html-case.js';

/** The fields the reducer edits; every other field of a request is passed through unchanged. */
export interface ReducibleRequest {
  op?: string;
  html?: string;
  script?: string;
  mutations?: unknown[];
}

/** The texts of a case: its html, and its script or its mutations (as JSON text). */
export interface CaseTexts {
  html?: string;
  script?: string;
  mutations?: string;
}

/**
 * Whether a trial still shows what is being reduced (for the oracle: the same bucket
 * signature). It receives the original request with `html`, `script` and `mutations` replaced, and may
 * be called many times concurrently.
 */
export type Predicate<R> = (trial: R) => Promise<boolean>;

/** Why a reduction stopped before its fixpoint. */
export type StopReason = 'max-tests' | 'time-limit' | 'aborted';

/** Where a reduction is, as it goes: the pass running, predicate calls so far, and the current case's size. */
export interface ReductionStatus {
  pass: string;
  tested: number;
  /** UTF-8 bytes of html plus script. */
  size: number;
  /** Elements in the page's DOM. */
  nodes: number;
}

/** How a reduction runs: parallelism, budget, and where progress goes. */
export interface ReduceOptions {
  /** Trials tested at a time (default 8). */
  parallel?: number;
  /** Trials tested at most, the original included (default 10 000); each may take `runs` predicate calls. */
  maxTests?: number;
  /**
   * How many times the original and every trial that passes are run: a case holds only if
   * the predicate holds in each run (default 1, for a predicate that always answers alike).
   */
  runs?: number;
  /** No test starts after this many milliseconds (default: no limit). */
  timeLimitMs?: number;
  /** Aborting stops the reduction like a spent budget. */
  signal?: AbortSignal;
  /** How `html` becomes a page; by default from `op`: body markup for reflect and trace, else a document. */
  htmlKind?: HtmlKind;
  /** Called as the reduction goes; never writes anywhere itself. */
  onProgress?: (status: ReductionStatus) => void;
}

/** A case's size: elements in its DOM (html, head and body included) and UTF-8 bytes of html plus script. */
export interface CaseSize {
  nodes: number;
  bytes: number;
}

/** The reduced request, its sizes before and after, and how the run went. */
export interface ReduceResult<R> {
  /** The reduced request: the original with `html` and `script` reduced. */
  request: R;
  before: CaseSize;
  after: CaseSize;
  /** Trials tested, the original included. */
  tests: number;
  /** Predicate calls made: a trial that passes is run `runs` times, one that fails until it fails. */
  runs: number;
  /** Trials answered from the cache instead. */
  cacheHits: number;
  /** Null when the reduction reached its fixpoint. */
  stopped: StopReason | null;
  /** The final check ran to the end: removing any one element (or hoisting its children) fails. */
  oneMinimal: boolean;
  /** True when parse5's serialization of the html alone lost the signature, so the html was kept verbatim. */
  htmlVerbatim: boolean;
}
