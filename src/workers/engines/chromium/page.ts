// One Chromium page: a target in a browser context of its own (its storage, its processes, every
// popup it opens), driven over its flattened CDP session. Only what the adapter asks for comes
// back: no domain is enabled on it (no Runtime, Page, Network or Log events), so nothing the page
// logs, throws or loads is sent to Node. Trusted programs run in an isolated world
// (Page.createIsolatedWorld), whose built-ins and wrappers page script cannot reach; the case's
// script runs in the main world as a classic script (Runtime.evaluate). The window is minimized
// while the fast path writes into the blank page, so that it draws no frame for each case written,
// and shown again before a case document loads or a picture is taken. Headless Chromium 156 keeps
// a minimized window's document visible (measured); the page waits for it to say so all the same,
// as a script on the case document may read it.
import { OracleError, firstLine } from '../../../protocol/errors.js';
import type { ProgramName } from '../../../page/sources.js';
import type { Emulate } from '../../../protocol/emulation-schema.js';
import type { Emulated, EnginePage, ProgramCall } from '../../engine.js';
import { applyEach } from '../emulate.js';
import { PageCalls, runInWorld, type World } from '../world-page.js';
import { chromiumOverrides } from './overrides.js';
import { PROGRAM_CALLS } from '../program-calls.js';
import { withDeadline, withGrace } from '../time-limits.js';
import {
  AnswerTooLargeError,
  CdpError,
  ConnectionClosedError,
  type CdpConnection,
  PROGRAM_ANSWER_MAX_BYTES,
  type SendOptions,
} from './connection.js';

const WORLD = 'browser-oracle';

/**
 * An 800×600 RGBA PNG is at most about 1.9 MB however noisy the picture (deflate stores what it
 * cannot compress), so 2.6 MB as base64; anything past this is not a picture of the viewport.
 */
const SCREENSHOT_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Resolves once the document has loaded: in the task after readyState turns `complete`, that is
 * after the load event's listeners, as Playwright's `waitUntil: 'load'` did. The poll is for a page
 * listener that stops readystatechange before the isolated world's.
 */
const LOADED = `() => new Promise((resolve) => {
  const loaded = () => {
    if (document.readyState !== 'complete') return;
    document.removeEventListener('readystatechange', loaded);
    clearInterval(poll);
    setTimeout(resolve);
  };
  document.addEventListener('readystatechange', loaded);
  const poll = setInterval(loaded, 50);
  loaded();
})`;

/** Resolves once the document is visible: an event, since a hidden page's timers are throttled. */
const SHOWN = `() => document.visibilityState === 'visible' || new Promise((resolve) => {
  const shown = () => {
    if (document.visibilityState !== 'visible') return;
    document.removeEventListener('visibilitychange', shown);
    resolve(true);
  };
  document.addEventListener('visibilitychange', shown);
})`;
/** How long a shown window's document may take to say it is visible, outside a load's own time. */
const SHOWN_MS = 10_000;

/** How CDP words a call whose session, target or browser went away under it. */
const TARGET_GONE = /Target crashed|Target closed|Session with given id not found|No target with given id|Not attached to an active page/i;
/** How CDP words a call whose document went away under it (the case navigated), the page still alive. */
const CONTEXT_GONE = /Execution context was destroyed|Cannot find context with specified id|Inspected target navigated or closed/i;
/** How long undoing a browser-wide emulation may take before the case goes on without it. */
const UNDO_GRACE_MS = 5_000;

interface Evaluated {
  result: { value?: unknown };
  exceptionDetails?: { text: string; exception?: { description?: string; value?: unknown } };
}

export class ChromiumPage implements EnginePage {
  private readonly calls = new PageCalls('chromium');
  private minimized = false;
  /** The isolated world's programs and the main world's script, for runInWorld. */
  private readonly world: World = { program: (name, args) => this.program(name, args), script: (source) => this.script(source) };

  constructor(
    private readonly connection: CdpConnection,
    /** The page's flattened session. */
    readonly sessionId: string,
    /** Its target, whose id is also its main frame's. */
    readonly targetId: string,
    /** Its window. */
    private readonly windowId: number,
    /** Its browser context: its storage, and every window the case opens from it. */
    readonly browserContextId: string,
    /** Disposes of the browser context, bounded in time. */
    private readonly dispose: () => Promise<void>,
    /** What an emulated page keeps of its browser: the profile's permissions and the user agent. */
    private readonly browserSettings: { profilePermissions: readonly string[]; userAgent: string },
  ) {}

  /** Answers the page's device choosers, once an emulation has asked for it. */
  private answerPrompt: ((prompt: { id: string; devices: { id: string }[] }) => void) | undefined;

  /** The page opened a device chooser (DeviceAccess.deviceRequestPrompted; enabled only for an emulated adapter). */
  devicePrompted(params: Record<string, unknown>): void {
    const { id, devices } = params as { id?: unknown; devices?: unknown };
    if (typeof id === 'string' && Array.isArray(devices)) this.answerPrompt?.({ id, devices: devices as { id: string }[] });
  }

  async emulate(emulate: Emulate, _origin: string): Promise<Emulated> {
    const { work, undo } = chromiumOverrides(emulate, {
      page: (method, params = {}) => this.send(method, params),
      browser: (method, params = {}) => this.connection.send(method, params),
      browserContextId: this.browserContextId,
      ...this.browserSettings,
      onDevicePrompt: (answer) => {
        this.answerPrompt = answer;
      },
    });
    return this.calls.track('call', () =>
      applyEach(
        emulate,
        work,
        (error) => this.asGone(error),
        () => withGrace(undo(), UNDO_GRACE_MS),
      ),
    );
  }

  /** The page (its target, its renderer, or the browser) is gone for good: every operation fails. */
  gone(reason: string): void {
    this.calls.gone(reason);
  }

  async load(url: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    try {
      await this.calls.track('call', () =>
        withDeadline(
          this.visible(true, timeoutMs).then(() => this.navigate(url, deadline)),
          timeoutMs,
          () => new OracleError('navigation_failed', `chromium did not finish loading the case within ${timeoutMs} ms`),
        ),
      );
    } catch (error) {
      const gone = this.asGone(error);
      if (gone) throw gone;
      if (error instanceof OracleError) throw error;
      throw new OracleError('navigation_failed', `chromium could not load the case: ${firstLine(error)}`);
    }
  }

  async run(call: ProgramCall): Promise<string> {
    return this.calling(async () => {
      if (call.program === 'batch') await this.visible(false);
      return runInWorld(call, this.world);
    });
  }

  /** The emulated 800×600 viewport at scale 1, painted from a fresh frame (--enable-features=CDPScreenshotNewSurface). */
  async screenshot(): Promise<Uint8Array> {
    return this.calling(async () => {
      await this.visible(true);
      const { data } = await this.send<{ data: string }>(
        'Page.captureScreenshot',
        { format: 'png', captureBeyondViewport: false },
        SCREENSHOT_MAX_BYTES,
      );
      return Buffer.from(data, 'base64');
    });
  }

  async callMain(functionSource: string, args: readonly unknown[]): Promise<unknown> {
    return this.calling(async () => {
      await this.activate();
      const evaluated = await this.send<Evaluated>(
        'Runtime.evaluate',
        {
          expression: `(${functionSource})(${args.map((a) => JSON.stringify(a)).join(', ')})`,
          awaitPromise: true,
          returnByValue: true,
          userGesture: true,
        },
        PROGRAM_ANSWER_MAX_BYTES,
      );
      if (evaluated.exceptionDetails) throw new OracleError('script_error', describe(evaluated));
      return evaluated.result.value;
    });
  }

  /** Ends every call in flight, then disposes of the browser context: the page, its popups and workers. */
  async close(): Promise<void> {
    this.gone('the page was closed');
    await this.dispose();
  }

  /**
   * Minimizes the window, or shows it and waits until its current document says it is visible (the
   * renderer hears of the change after the browser answers), so that the next document starts
   * visible. A minimized window cannot be resized; shown, it keeps the size it had.
   */
  private async visible(wanted: boolean, ms = SHOWN_MS): Promise<void> {
    if (this.minimized === !wanted) return;
    const windowState = wanted ? 'normal' : 'minimized';
    await this.connection.send('Browser.setWindowBounds', { windowId: this.windowId, bounds: { windowState } });
    this.minimized = !wanted;
    if (wanted) await withDeadline(this.inWorld(SHOWN, {}), ms, () => new Error(`the window was not visible ${ms} ms after it was shown`));
  }

  /**
   * Page.navigate answers once the new document has committed (or failed to); its load is then
   * waited for in the isolated world. A document the case replaced as it loaded is waited for in
   * its turn: the programs will find the page elsewhere than its case.
   */
  private async navigate(url: string, deadline: number): Promise<void> {
    const navigated = await this.send<{ errorText?: string; isDownload?: boolean }>('Page.navigate', {
      url,
      frameId: this.targetId,
      referrerPolicy: 'unsafeUrl',
    });
    if (navigated.isDownload) throw new Error(`${url} is a download`);
    if (navigated.errorText) throw new Error(`${navigated.errorText} at ${url}`);
    while (Date.now() < deadline) {
      try {
        await this.inWorld(LOADED, {});
        return;
      } catch (error) {
        if (!(error instanceof CdpError && CONTEXT_GONE.test(error.message))) throw error;
      }
    }
    throw new Error('the case kept leaving its document as it loaded');
  }

  /** The case's script, in the main world, as a classic script at global scope, with a user activation as Playwright's evaluate gave it. */
  private async script(source: string): Promise<void> {
    await this.activate();
    let evaluated: Evaluated;
    try {
      // The host made its completion value undefined, so an answer over the limit can only be what it threw.
      evaluated = await this.send<Evaluated>('Runtime.evaluate', {
        expression: source,
        returnByValue: false,
        userGesture: true,
        silent: true,
      });
    } catch (error) {
      if (error instanceof AnswerTooLargeError)
        throw new OracleError('script_error', `the script threw an error too large to read (${error.bytes} bytes)`);
      throw error;
    }
    if (evaluated.exceptionDetails) throw new OracleError('script_error', describe(evaluated));
  }

  /**
   * A user activation one round trip before the script's own. The renderer tells the browser of an
   * activation on another channel than a later request for a device, so a script that asks at once
   * (requestDevice()) could reach the browser first and be refused for want of one, as seen 10
   * times in 160 at load 20 to 40; by the time this call has answered, the browser has it.
   */
  private async activate(): Promise<void> {
    await this.send('Runtime.evaluate', { expression: '0', returnByValue: true, userGesture: true, silent: true });
  }

  /** A trusted program in the isolated world of the page's current document: its JSON text. */
  private async program(name: ProgramName, args: object): Promise<string> {
    const evaluated = await this.inWorld(PROGRAM_CALLS[name], args);
    if (evaluated.exceptionDetails) throw new OracleError('page_tampered', `the in-page ${name} program failed: ${describe(evaluated)}`);
    return evaluated.result.value as string;
  }

  /** `functionDeclaration` called with `args` in the isolated world, its result by value. */
  private async inWorld(functionDeclaration: string, args: object): Promise<Evaluated> {
    const { executionContextId } = await this.send<{ executionContextId: number }>('Page.createIsolatedWorld', {
      frameId: this.targetId,
      worldName: WORLD,
      grantUniveralAccess: false,
    });
    return this.send<Evaluated>(
      'Runtime.callFunctionOn',
      { functionDeclaration, executionContextId, arguments: [{ value: args }], awaitPromise: true, returnByValue: true },
      PROGRAM_ANSWER_MAX_BYTES,
    );
  }

  private send<T>(method: string, params: object, maxBytes?: SendOptions['maxBytes']): Promise<T> {
    return this.connection.send<T>(method, params, { sessionId: this.sessionId, maxBytes });
  }

  /** A call on the current document: a page gone under it is EngineGoneError; a document gone under it, page_tampered. */
  private async calling<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await this.calls.track('call', work);
    } catch (error) {
      const gone = this.asGone(error);
      if (gone) throw gone;
      if (error instanceof CdpError && CONTEXT_GONE.test(error.message))
        throw new OracleError('page_tampered', 'the case left its document during the call');
      throw error;
    }
  }

  /** The error as an EngineGoneError when it says the page, its renderer or the browser went away. */
  private asGone(error: unknown) {
    return this.calls.asGone(error, (e) =>
      e instanceof ConnectionClosedError || (e instanceof CdpError && TARGET_GONE.test(e.message)) ? e.message : undefined,
    );
  }
}

/** What the script threw: an error's "Name: message", or the thrown value. */
function describe({ exceptionDetails }: Evaluated): string {
  const exception = exceptionDetails?.exception;
  if (exception?.description !== undefined) return firstLine(exception.description);
  if (exception && 'value' in exception) return `uncaught ${JSON.stringify(exception.value)}`;
  return firstLine(exceptionDetails?.text ?? 'the script threw');
}
