// A Chromium page: its own browser context (storage, cookies, processes), loaded and closed
// through Playwright, and driven through raw CDP for the rest: the trusted programs run in an
// isolated world (Page.createIsolatedWorld), whose built-ins and wrappers page script cannot
// reach; the case's script runs in the main world as a script (Runtime.evaluate).
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { OracleError, firstLine } from '../../../protocol/errors.js';
import { PROGRAMS } from '../../../page/sources.js';
import { EngineGoneError, scriptAfterFonts, type EnginePage, type ProgramCall } from '../../engine.js';
import { withGrace } from '../time-limits.js';

const PAGE_CLOSE_GRACE_MS = 5_000;
const WORLD = 'browser-oracle';

interface Evaluated {
  result: { value?: unknown; description?: string };
  exceptionDetails?: { text: string; exception?: { description?: string; value?: unknown } };
}

export class ChromiumPage implements EnginePage {
  /** Settles (never rejects) once the page, its renderer or its browser is gone. */
  private readonly gone: Promise<void>;
  private isGone = false;

  constructor(
    private readonly context: BrowserContext,
    private readonly page: Page,
    private readonly cdp: CDPSession,
  ) {
    this.gone = new Promise((resolve) => {
      const gone = () => {
        this.isGone = true;
        resolve();
      };
      page.once('crash', gone);
      page.once('close', gone);
      context.browser()?.once('disconnected', gone);
    });
  }

  async load(url: string, timeoutMs: number): Promise<void> {
    try {
      await this.guard(this.page.goto(url, { waitUntil: 'load', timeout: timeoutMs }));
    } catch (error) {
      if (error instanceof EngineGoneError) throw error;
      throw new OracleError('navigation_failed', `chromium could not load the case: ${firstLine(error)}`);
    }
  }

  async run(call: ProgramCall): Promise<string> {
    if (call.script !== undefined && call.script !== null) {
      if (scriptAfterFonts(call.program)) {
        const settled = await this.trusted('settle', { check: (call.args as { check: unknown }).check });
        // Not on the case's document: the program would say the same.
        if (settled !== '{"settled":true}') return settled;
      }
      await this.script(call.script);
    }
    return this.trusted(call.program, call.args);
  }

  /** Through CDP, of the emulated 800×600 viewport at scale 1; painted from a fresh frame. */
  async screenshot(): Promise<Uint8Array> {
    const { data } = await this.send<{ data: string }>('Page.captureScreenshot', { format: 'png', captureBeyondViewport: false });
    return Buffer.from(data, 'base64');
  }

  async callMain(functionSource: string, args: readonly unknown[]): Promise<unknown> {
    const expression = `(${functionSource})(${args.map((a) => JSON.stringify(a)).join(', ')})`;
    const evaluated = await this.send<Evaluated>('Runtime.evaluate', {
      expression,
      awaitPromise: true,
      returnByValue: true,
      userGesture: true,
    });
    if (evaluated.exceptionDetails) throw new OracleError('script_error', describe(evaluated));
    return evaluated.result.value;
  }

  async close(): Promise<void> {
    await withGrace(this.context.close(), PAGE_CLOSE_GRACE_MS);
  }

  /** The case's script, in the main world, as a classic script at global scope. */
  private async script(source: string): Promise<void> {
    const evaluated = await this.send<Evaluated>('Runtime.evaluate', {
      expression: source,
      returnByValue: false,
      userGesture: true,
      silent: true,
    });
    if (evaluated.exceptionDetails) throw new OracleError('script_error', describe(evaluated));
  }

  /** A trusted program in the isolated world of the page's current document. */
  private async trusted(program: keyof typeof PROGRAMS, args: object): Promise<string> {
    const { frameTree } = await this.send<{ frameTree: { frame: { id: string } } }>('Page.getFrameTree', {});
    const { executionContextId } = await this.send<{ executionContextId: number }>('Page.createIsolatedWorld', {
      frameId: frameTree.frame.id,
      worldName: WORLD,
      grantUniveralAccess: false,
    });
    const evaluated = await this.send<Evaluated>('Runtime.callFunctionOn', {
      functionDeclaration: `(args) => new Promise((resolve) => (${PROGRAMS[program]})(args, resolve))`,
      executionContextId,
      arguments: [{ value: args }],
      awaitPromise: true,
      returnByValue: true,
    });
    if (evaluated.exceptionDetails) throw new OracleError('page_tampered', `the in-page ${program} program failed: ${describe(evaluated)}`);
    return evaluated.result.value as string;
  }

  private async send<T>(method: string, params: object): Promise<T> {
    return this.guard(this.cdp.send(method as never, params as never) as Promise<T>);
  }

  /** `call`, unless the page goes away first: then, or when the call failed because it went, EngineGoneError. */
  private async guard<T>(call: Promise<T>): Promise<T> {
    try {
      return await Promise.race([
        call,
        this.gone.then(() => Promise.reject(new EngineGoneError('chromium: the page or its renderer went away'))),
      ]);
    } catch (error) {
      if (error instanceof EngineGoneError) throw error;
      // The call can fail before the page's own crash or close event arrives: trust its words too.
      if (this.isGone || this.page.isClosed() || TARGET_GONE.test(firstLine(error)))
        throw new EngineGoneError(`chromium: ${firstLine(error)}`);
      if (CONTEXT_GONE.test(firstLine(error))) throw new OracleError('page_tampered', 'the case left its document during the call');
      throw error;
    }
  }
}

/** How Playwright and CDP word a call whose page, context or browser went away under it. */
const TARGET_GONE =
  /Target page, context or browser has been closed|Target crashed|Target closed|Browser has been closed|Connection closed|Session closed/i;

/** What the script threw: an error's "Name: message", or the thrown value. */
/** How CDP words a call whose document went away under it (the case navigated), the page still alive. */
const CONTEXT_GONE = /Execution context was destroyed|Cannot find context with specified id|Inspected target navigated or closed/i;

function describe({ exceptionDetails }: Evaluated): string {
  const exception = exceptionDetails?.exception;
  if (exception?.description !== undefined) return firstLine(exception.description);
  if (exception && 'value' in exception) return `uncaught ${JSON.stringify(exception.value)}`;
  return firstLine(exceptionDetails?.text ?? 'the script threw');
}
