// What the pages of the adapters with a world of their own for the trusted programs (Chromium's
// isolated world, Firefox's sandbox) share, as Playwright's page core is shared by its delegates:
// the bookkeeping of a page that goes away under its calls, and how a call with the case's script
// runs. Each adapter keeps how it talks to its driver, and how its driver says a page went away.
import type { EngineName } from '../../protocol/common.js';
import type { ProgramName } from '../../page/sources.js';
import { EngineGoneError, type ProgramCall } from '../engine.js';

/** What the settle program answers on the case's document, its fonts settled (src/page/programs.ts). */
const SETTLED = '{"settled":true}';

/**
 * A page's calls in flight, of the kinds its adapter tells apart, and whether the page is gone.
 * Once it is, every call in flight fails at once with EngineGoneError (the driver may never
 * answer them), and so does every call after.
 */
export class PageCalls<Kind extends string = 'call'> {
  private goneReason: string | undefined;
  private readonly inFlight = new Set<{ kind: Kind; reject: (error: Error) => void }>();

  constructor(private readonly engine: EngineName) {}

  get isGone(): boolean {
    return this.goneReason !== undefined;
  }

  /** The page (its target or window, its process, or the browser) is gone for good; the first reason is the one given. */
  gone(reason: string): void {
    if (this.goneReason !== undefined) return;
    this.goneReason = reason;
    for (const call of this.inFlight) call.reject(this.goneError()!);
  }

  /** The error of a call on the page once it is gone. */
  goneError(): EngineGoneError | undefined {
    return this.goneReason === undefined ? undefined : new EngineGoneError(`${this.engine}: ${this.goneReason}`);
  }

  /** Runs `work` unless the page is gone, and fails it the moment the page goes. */
  async track<T>(kind: Kind, work: () => Promise<T>): Promise<T> {
    const gone = this.goneError();
    if (gone) throw gone;
    let reject: (error: Error) => void = () => {};
    const goneUnder = new Promise<never>((_, fail) => {
      reject = fail;
    });
    const call = { kind, reject };
    this.inFlight.add(call);
    try {
      return await Promise.race([work(), goneUnder]);
    } finally {
      this.inFlight.delete(call);
    }
  }

  /** How to fail each call of `kind` in flight now (the calls on a document that went away). */
  rejecters(kind: Kind): ((error: Error) => void)[] {
    return [...this.inFlight].filter((call) => call.kind === kind).map((call) => call.reject);
  }

  /**
   * `error` as an EngineGoneError when it says the page went away: it is one, the page is gone,
   * or `driverSays` finds the driver's words for it (a closed connection, a target gone).
   */
  asGone(error: unknown, driverSays: (error: unknown) => string | undefined): EngineGoneError | undefined {
    if (error instanceof EngineGoneError) return error;
    const words = this.goneReason ?? driverSays(error);
    return words === undefined ? undefined : new EngineGoneError(`${this.engine}: ${words}`);
  }
}

/** How an adapter runs a trusted program in its own world, and the case's script in the page's main world. */
export interface World {
  /** The program's JSON text. */
  program(name: ProgramName, args: object): Promise<string>;
  /** Rejects with OracleError `script_error` when the script throws. */
  script(source: string): Promise<void>;
}

/**
 * Runs `call` in `world`. A call with the case's script is cut at the script (ProgramCall.script):
 * the settle program first, with the call's check and `fresh`, whose answer is the call's unless
 * it settled on the case's document (the program would say the same); then the script in the
 * main world; then the program, on the document as the script left it, `fresh` no longer set.
 */
export async function runInWorld(call: ProgramCall, world: World): Promise<string> {
  if (typeof call.script !== 'string') return world.program(call.program, call.args);
  const { check, fresh, wait } = call.args as { check?: unknown; fresh?: boolean; wait?: string };
  const settled = await world.program('settle', { check, fresh, wait });
  if (settled !== SETTLED) return settled;
  await world.script(call.script);
  return world.program(call.program, { ...call.args, fresh: false });
}
