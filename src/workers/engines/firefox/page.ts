// One Firefox page: a window in a user context of its own. Trusted programs run in a BiDi sandbox
// (Xray views of the page: a case's replaced built-ins and clobbered DOM properties are invisible
// there); a case's own script runs in the main world. Firefox may never answer a call whose
// document went away (a crashed content process), so the browser tells the page about such events
// and the page fails its in-flight calls itself.
import { setTimeout as sleep } from 'node:timers/promises';
import { OracleError, firstLine } from '../../../protocol/errors.js';
import type { ProgramName } from '../../../page/sources.js';
import { EngineGoneError, scriptAfterFonts, type EnginePage, type ProgramCall } from '../../engine.js';
import { PROGRAM_CALLS } from '../program-calls.js';
import { withDeadline, withGrace } from '../time-limits.js';
import { BidiError, ConnectionClosedError, type BidiConnection } from './connection.js';
import { fromRemoteValue, toLocalValue, type RemoteValue } from './remote-value.js';

/** The sandbox every trusted program runs in (one per window; the page cannot reach it). */
const SANDBOX = 'browser-oracle';
/** removeUserContext answers in milliseconds even for a hung page; this bounds a dead one. */
export const PAGE_CLOSE_GRACE_MS = 5_000;
/** How long a realm's end waits for the tab-crashed page that would make it a crash. */
const CRASH_SETTLE_MS = 300;

type EvaluateResult =
  | { type: 'success'; result: RemoteValue }
  | { type: 'exception'; exceptionDetails: { text: string; exception: RemoteValue } };

interface InFlight {
  /** A load survives its own document's realm going away; a call does not. */
  kind: 'load' | 'call';
  reject: (error: Error) => void;
}

export class FirefoxPage implements EnginePage {
  private goneReason: string | undefined;
  private readonly inFlight = new Set<InFlight>();

  constructor(
    private readonly connection: BidiConnection,
    /** The page's top-level browsing context. */
    readonly context: string,
    /** Its user context: its own storage, and every window the case opens from it. */
    readonly userContext: string,
    /** Called once the page is closed, so the browser stops routing its events. */
    private readonly forget: () => void,
  ) {}

  /** The page (its window, its content process, or the browser) is gone for good: every operation fails. */
  gone(reason: string): void {
    if (this.goneReason !== undefined) return;
    this.goneReason = reason;
    for (const op of this.inFlight) op.reject(new EngineGoneError(`firefox: ${reason}`));
  }

  /**
   * The document's main realm went away outside a load: Firefox will never answer the calls on it.
   * A crash looks the same at first, and its tab-crashed page follows within moments (then `gone`
   * fails the calls as a crash); otherwise the case left its document.
   */
  documentGone(): void {
    const calls = [...this.inFlight].filter((op) => op.kind === 'call');
    if (!calls.length) return;
    void this.leftOrCrashed().then((error) => {
      for (const op of calls) op.reject(error);
    });
  }

  /** What a call whose document went away met: a crash if the tab-crashed page follows within moments, else the case left. */
  private async leftOrCrashed(): Promise<Error> {
    await sleep(CRASH_SETTLE_MS);
    return this.goneReason === undefined
      ? new OracleError('page_tampered', 'the case left its document during the call')
      : new EngineGoneError(`firefox: ${this.goneReason}`);
  }

  async load(url: string, timeoutMs: number): Promise<void> {
    try {
      await this.track('load', () =>
        withDeadline(
          this.connection.send('browsingContext.navigate', { context: this.context, url, wait: 'complete' }),
          timeoutMs,
          () => new OracleError('navigation_failed', `firefox did not finish loading the case within ${timeoutMs} ms`),
        ),
      );
    } catch (error) {
      const gone = this.asGone(error);
      if (gone) throw gone;
      if (error instanceof BidiError) throw new OracleError('navigation_failed', `firefox could not load the case: ${firstLine(error)}`);
      throw error;
    }
  }

  async run(call: ProgramCall): Promise<string> {
    try {
      return await this.track('call', async () => {
        if (typeof call.script === 'string') {
          if (scriptAfterFonts(call.program)) {
            // The script runs once the case's fonts have settled, and only on the case's own document.
            const settled = await this.program('settle', { check: (call.args as { check?: unknown }).check });
            if (!isSettled(settled)) return settled;
          }
          await this.evaluateScript(call.script);
        }
        return this.program(call.program, call.args);
      });
    } catch (error) {
      throw await this.callError(error);
    }
  }

  /** The top-level context's viewport (800×600 at ratio 1, set per user context), painted by Firefox itself. */
  async screenshot(): Promise<Uint8Array> {
    try {
      const { data } = await this.track('call', () =>
        this.connection.send<{ data: string }>('browsingContext.captureScreenshot', {
          context: this.context,
          origin: 'viewport',
          format: { type: 'image/png' },
        }),
      );
      return Buffer.from(data, 'base64');
    } catch (error) {
      // Firefox answers "unable to capture" when the document went away under the picture: a
      // crash only if the tab-crashed page follows, else the case left (as for documentGone).
      if (error instanceof BidiError && error.method === 'browsingContext.captureScreenshot' && this.goneReason === undefined)
        throw await this.leftOrCrashed();
      throw await this.callError(error);
    }
  }

  async callMain(functionSource: string, args: readonly unknown[]): Promise<unknown> {
    try {
      return await this.track('call', async () => {
        const answer = await this.connection.send<EvaluateResult>('script.callFunction', {
          functionDeclaration: functionSource,
          arguments: args.map(toLocalValue),
          target: { context: this.context },
          awaitPromise: true,
          resultOwnership: 'none',
        });
        if (answer.type === 'exception') throw new OracleError('script_error', firstLine(answer.exceptionDetails.text));
        return fromRemoteValue(answer.result);
      });
    } catch (error) {
      throw await this.callError(error);
    }
  }

  /**
   * A call's error as the case runner reads it. With remote.retry-on-abort off, Firefox answers a
   * call whose document was discarded at once ("no such frame") — before the events that tell a
   * crash from a case that navigated away, so that is decided as for documentGone.
   */
  private async callError(error: unknown): Promise<unknown> {
    if (error instanceof BidiError && error.error === 'no such frame' && this.goneReason === undefined) return this.leftOrCrashed();
    return this.asGone(error) ?? error;
  }

  async close(): Promise<void> {
    this.gone('the page was closed');
    // Closes the window and every popup the case opened, and stops whatever runs in them.
    await withGrace(this.connection.send('browser.removeUserContext', { userContext: this.userContext }), PAGE_CLOSE_GRACE_MS);
    this.forget();
  }

  /** A trusted program in the sandbox: its JSON text. */
  private async program(name: ProgramName, args: object): Promise<string> {
    const answer = await this.connection.send<EvaluateResult>('script.callFunction', {
      functionDeclaration: PROGRAM_CALLS[name],
      arguments: [toLocalValue(args)],
      target: { context: this.context, sandbox: SANDBOX },
      awaitPromise: true,
      resultOwnership: 'none',
    });
    if (answer.type === 'exception') throw new Error(`firefox: the ${name} program threw: ${firstLine(answer.exceptionDetails.text)}`);
    if (answer.result.type !== 'string') throw new Error(`firefox: the ${name} program answered a ${answer.result.type}, not JSON text`);
    return answer.result.value as string;
  }

  /**
   * The case's script in the main world, as a classic script at global scope. It gets a user
   * activation, as Playwright's evaluate gave it before; its completion value is not looked into.
   */
  private async evaluateScript(script: string): Promise<void> {
    const answer = await this.connection.send<EvaluateResult>('script.evaluate', {
      expression: script,
      target: { context: this.context },
      awaitPromise: false,
      resultOwnership: 'none',
      serializationOptions: { maxObjectDepth: 0, maxDomDepth: 0 },
      userActivation: true,
    });
    if (answer.type === 'exception') throw new OracleError('script_error', firstLine(answer.exceptionDetails.text) || 'the script threw');
  }

  /** Runs `work` unless the page is gone, and fails it the moment the page goes. */
  private async track<T>(kind: InFlight['kind'], work: () => Promise<T>): Promise<T> {
    if (this.goneReason !== undefined) throw new EngineGoneError(`firefox: ${this.goneReason}`);
    let op: InFlight | undefined;
    const gone = new Promise<never>((_, reject) => {
      op = { kind, reject };
    });
    this.inFlight.add(op!);
    try {
      return await Promise.race([work(), gone]);
    } finally {
      this.inFlight.delete(op!);
    }
  }

  /** The error as an EngineGoneError when it says the page, its process or the browser went away. */
  private asGone(error: unknown): EngineGoneError | undefined {
    if (error instanceof EngineGoneError) return error;
    if (this.goneReason !== undefined) return new EngineGoneError(`firefox: ${this.goneReason}`);
    if (error instanceof ConnectionClosedError) return new EngineGoneError(`firefox: ${error.message}`);
    if (error instanceof BidiError) {
      // The window closed under the command.
      if (error.error === 'no such frame') return new EngineGoneError(`firefox: ${error.message}`);
      // A call's "unsupported operation" (a crashed tab is a parent-process page) or "unknown error"
      // (its page was torn down) is not the case's doing; a navigation's is (a refused load), and
      // "invalid argument" is the adapter's own.
      if (error.method !== 'browsingContext.navigate' && error.error !== 'invalid argument')
        return new EngineGoneError(`firefox: ${error.message}`);
    }
    return undefined;
  }
}

/** Did the settle program say the fonts have settled (rather than that the page is elsewhere)? */
function isSettled(text: string): boolean {
  try {
    return (JSON.parse(text) as { settled?: unknown }).settled === true;
  } catch {
    return false;
  }
}
