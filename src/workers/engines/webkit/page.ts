// A WebKitGTK page: one window of a session (session.ts). Trusted programs reach a case document
// through the guard its first script installed (src/page/guard.ts) — WebDriver has no isolated
// world — and run from their own source on the blank page, which never runs page script. The
// window is minimized while the fast path writes into the blank page (MiniBrowser under Xvfb
// paints a frame per call otherwise, about half of WebKit's CPU) and restored for a case
// document, whose script may want a visible page (requestAnimationFrame, timers at full rate).
import pTimeout from 'p-timeout';
import { OracleError, firstLine } from '../../../protocol/errors.js';
import { GUARD_HOOK, programCall, type ProgramName } from '../../../page/sources.js';
import type { Emulate } from '../../../protocol/emulation-schema.js';
import { EngineGoneError, type Emulated, type EnginePage, type ProgramCall } from '../../engine.js';
import { applyEach } from '../emulate.js';
import { errorCode } from './client.js';
import type { WebKitSession } from './session.js';

/** The most pictures taken in search of two in a row that agree. */
const MAX_SCREENSHOTS = 5;

/**
 * How long a page that failed a call has to show it is still there. A live window answers at
 * once on an idle machine, but a loaded one can take seconds, and a live page taken for a dead
 * one turns the case's own error into a crash.
 */
const ALIVE_PROBE_MS = 15_000;

// Calls the hook, or says where the page is when it has none (the case left its document). A
// callback, not a promise: a page may have replaced Promise.
const viaGuard = `const done = arguments[arguments.length - 1];
const hook = window[${JSON.stringify(GUARD_HOOK)}];
if (typeof hook === 'function') hook(arguments[0], done);
else done('{"elsewhere":' + JSON.stringify(String(location.href)) + '}');`;

// On the blank page, which never runs page script, so a program kept in its global is out of page script's reach too.
const viaSource = (program: ProgramName) => `${programCall(program, 'arguments[0]', 'arguments[arguments.length - 1]')};`;

// A main-world call that always calls back, so an exception reaches Node as data. The function
// gets its arguments and then a reply callback: one that returns that callback answers through
// it with a string, which the driver carries as it is (the trace recorder's JSON text: no
// promise, array iterator or toJSON of the page's is on its way); otherwise its result, awaited,
// is the answer.
const mainCall = (functionSource: string, count: number) => `const done = arguments[arguments.length - 1];
const args = arguments[0];
const fail = (e) => done({ error: (e && e.name ? e.name + ': ' + e.message : String(e)) });
const reply = (text) => done(text);
try {
  const result = (${functionSource})(${Array.from({ length: count }, (_, i) => `args[${i}], `).join('')}reply);
  if (result !== reply) Promise.resolve(result).then((value) => done({ value }), fail);
} catch (e) {
  fail(e);
}`;

export class WebKitPage implements EnginePage {
  private minimized = false;

  constructor(
    readonly session: WebKitSession,
    /** Called once the page is done with its session (its successor may reuse it). */
    private readonly release: (page: WebKitPage) => Promise<void>,
  ) {}

  async load(url: string, _timeoutMs: number): Promise<void> {
    await this.visible(true);
    await this.driver(() => this.session.client.navigateTo(url));
  }

  async run(call: ProgramCall): Promise<string> {
    const onCase = 'check' in call.args;
    if (!onCase) await this.visible(call.program !== 'batch');
    const script = onCase ? viaGuard : viaSource(call.program);
    const args = onCase ? { ...call.args, program: call.program, script: call.script ?? null } : call.args;
    let text = await this.driver(() => this.session.client.executeAsyncScript(script, [args]), true);
    // The driver gives up on a call during which a dialog was dismissed; the guard kept the answer.
    if (text === null && onCase)
      text = await this.driver(
        () => this.session.client.executeAsyncScript(viaGuard, [{ program: 'result', check: (call.args as { check?: unknown }).check }]),
        true,
      );
    if (typeof text !== 'string') throw new OracleError('page_tampered', `the in-page ${call.program} program answered a ${typeof text}`);
    return text;
  }

  /**
   * WebKitGTK 2.50 applies none of it: its WebDriver has no BiDi and answers 404 to the W3C
   * extension commands (virtual authenticators, permissions), and the build has no sensors or Web
   * Bluetooth (measured). Every feature is unsupported.
   */
  emulate(emulate: Emulate): Promise<Emulated> {
    return applyEach(emulate, {}, () => undefined);
  }

  /**
   * WebDriver's Take Screenshot: the current window's viewport, which sizeViewport made 800×600.
   * The window is shown first (a page that took a fast-path batch is minimized). WebKitGTK's
   * picture is what the window last presented, and every page is a window just sized, which may
   * not have presented its new size yet (seen about once in 40 under load: the frame before the
   * resize, black where the view grew); so pictures are taken until two in a row agree. A page
   * that never stands still (an animation) gets its last one.
   */
  async screenshot(): Promise<Uint8Array> {
    await this.visible(true);
    const take = () => this.driver(() => this.session.client.takeScreenshot());
    let last = await take();
    for (let i = 1; i < MAX_SCREENSHOTS; i++) {
      const next = await take();
      if (next === last) break;
      last = next;
    }
    return Buffer.from(last, 'base64');
  }

  async callMain(functionSource: string, args: readonly unknown[]): Promise<unknown> {
    const result = (await this.driver(() =>
      this.session.client.executeAsyncScript(mainCall(functionSource, args.length), [args as unknown[]]),
    )) as { value: unknown } | { error: string } | string | null;
    // The driver gave up on the call (a dialog was dismissed during it): nothing came back.
    if (result === null) return null;
    if (typeof result === 'string') return result;
    if (typeof result !== 'object' || !('value' in result || 'error' in result))
      throw new OracleError('page_tampered', `the main-world call answered a ${typeof result}, not the oracle's reply`);
    if ('error' in result) throw new OracleError('script_error', result.error);
    return result.value;
  }

  close(): Promise<void> {
    return this.release(this);
  }

  private async visible(wanted: boolean): Promise<void> {
    if (this.minimized === !wanted) return;
    // Setting the window's rect restores a minimized window; the size stays what sizeViewport made it.
    await this.driver(async () => {
      if (wanted) await this.session.sizeViewport();
      else await this.session.client.minimizeWindow();
    });
    this.minimized = !wanted;
  }

  /** Whether the session and its window still answer, within a moment. */
  private async alive(): Promise<boolean> {
    try {
      await pTimeout(this.session.client.getWindowHandle(), { milliseconds: ALIVE_PROBE_MS });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * A driver command. An error from the driver is the case's doing when the window is still there
   * (its page broke the oracle's call, or left its document under it), and a crash when the driver,
   * MiniBrowser or the window went away. With `trusted`, an exception in the call's own script is
   * the page breaking the oracle's code.
   */
  private async driver<T>(command: () => Promise<T>, trusted = false): Promise<T> {
    try {
      return await command();
    } catch (error) {
      const code = errorCode(error);
      // W3C error codes are lowercase; the driver's answer to an exception thrown by page code is "javascript error".
      const w3c = /^[a-z ]+$/.test(code);
      const detail = `${code}: ${firstLine(error)}`;
      if (trusted && (code === 'javascript error' || (!w3c && code !== 'Error'))) {
        throw new OracleError('page_tampered', `the page broke the oracle's call (${detail})`);
      }
      if (w3c && !/crash/i.test(firstLine(error)) && (await this.alive())) {
        throw new OracleError('page_tampered', `the case left its document during the call (${detail})`);
      }
      throw new EngineGoneError(`webkit: ${detail}`);
    }
  }
}
