// The one engine interface. Everything outside src/workers/engines talks to a browser
// through these two types; each engine has one adapter module that implements them.
import type { EngineName } from '../protocol/schema.js';
import type { LaunchOptions } from '../farm/launch.js';

export const VIEWPORT = { width: 800, height: 600 } as const;

/**
 * One page that runs one case at a time and is reused across cases. Two primitives, so every
 * request kind (geometry, reflection, trace) is an in-page function run the same way.
 */
export interface EnginePage {
  /** Load `url` as a fresh top-level document; resolves after its load event. */
  load(url: string, timeoutMs: number): Promise<void>;
  /**
   * Call `functionSource` (a function expression, usually async) in the page's main world with
   * JSON-serializable `args`, and resolve with its JSON result. An exception thrown in the page
   * rejects with an OracleError `script_error`.
   */
  call<T>(functionSource: string, args: readonly unknown[]): Promise<T>;
  /** Release the page; bounded in time even when the page is hung. */
  close(): Promise<void>;
}

export interface EngineBrowser {
  readonly engine: EngineName;
  /** The exact build, from the driver (never the user agent). */
  readonly version: string;
  newPage(): Promise<EnginePage>;
  /** Resolves when the browser process goes away for any reason. */
  readonly exited: Promise<void>;
  close(): Promise<void>;
}

export type LaunchEngine = (options: LaunchOptions) => Promise<EngineBrowser>;

/**
 * Thrown by an adapter when the page, its renderer, its driver or its browser went away under
 * a call — a crash, which the engine host retries once on a fresh page — as opposed to an
 * error the case itself caused in a live page.
 */
export class EngineGoneError extends Error {
  override name = 'EngineGoneError';
}
