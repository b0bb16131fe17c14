// One Firefox page: a window in a user context of its own. Trusted programs run in a BiDi sandbox
// (Xray views of the page: a case's replaced built-ins and clobbered DOM properties are invisible
// there); a case's own script runs in the main world. Firefox may never answer a call whose
// document went away (a crashed content process), so the browser tells the page about such events
// and the page fails its in-flight calls itself.
import { OracleError, firstLine } from '../../../protocol/errors.js';
import type { ProgramName } from '../../../page/sources.js';
import type { Emulate } from '../../../protocol/emulation-schema.js';
import type { EngineGoneError, Emulated, EnginePage, ProgramCall } from '../../engine.js';
import { applyEach, type FeatureWork } from '../emulate.js';
import { PageCalls, runInWorld, type World } from '../world-page.js';
import type { Marionette } from './marionette.js';
import { PROGRAM_CALLS } from '../program-calls.js';
import { withDeadline, withGrace } from '../time-limits.js';
import { BidiError, ConnectionClosedError, type BidiConnection } from './connection.js';
import { fromRemoteValue, toLocalValue, type RemoteValue } from './remote-value.js';

/** The sandbox every trusted program runs in (one per window; the page cannot reach it). */
const SANDBOX = 'browser-oracle';
/** removeUserContext answers in milliseconds even for a hung page; this bounds a dead one. */
export const PAGE_CLOSE_GRACE_MS = 5_000;
/**
 * How long a call whose document went away waits for what comes next in its window: the
 * tab-crashed page (a crash) or another document (the case left). The wait ends at the first of
 * them, so this bounds only a window where neither comes; a fixed short wait misread crashes on a
 * loaded machine, where the crash page can take seconds.
 */
const SETTLE_LIMIT_MS = 10_000;

type EvaluateResult =
  | { type: 'success'; result: RemoteValue }
  | { type: 'exception'; exceptionDetails: { text: string; exception: RemoteValue } };

/** A load survives its own document's realm going away; a call does not. */
type CallKind = 'load' | 'call';

export class FirefoxPage implements EnginePage {
  private readonly calls = new PageCalls<CallKind>('firefox');
  /** The sandbox's programs and the main world's script, for runInWorld. */
  private readonly world: World = { program: (name, args) => this.program(name, args), script: (source) => this.evaluateScript(source) };
  /** Another document committed in the window while a call was in flight: the case left. */
  private leftDuringCall = false;
  /** Calls waiting to learn whether their document went away by a crash or by the case. */
  private readonly settling = new Set<() => void>();

  constructor(
    private readonly connection: BidiConnection,
    /** The page's top-level browsing context. */
    readonly context: string,
    /** Its user context: its own storage, and every window the case opens from it. */
    readonly userContext: string,
    /** Called once the page is closed, so the browser stops routing its events. */
    private readonly forget: () => void,
    /** The browser's Marionette, under the launch profile `devices` (its virtual authenticators). */
    private readonly marionette: Marionette | undefined,
  ) {}

  /**
   * WebDriver BiDi's emulation module on the page's own window (measured on firefox-esr 153:
   * geolocation, time zone, locale and orientation, and the permission geolocation needs, without
   * which the position waits on a prompt no one answers); the virtual authenticator through
   * Marionette, for the whole browser, removed by `undo`. Sensors, Compute Pressure and Web
   * Bluetooth are not in this build.
   */
  async emulate(emulate: Emulate, origin: string): Promise<Emulated> {
    const contexts = [this.context];
    const { geolocation, timezone, locale, screen_orientation, authenticator } = emulate;
    const work: FeatureWork = {};
    if (geolocation)
      work.geolocation = async () => {
        const { accuracy = 1, ...rest } = geolocation;
        await this.connection.send('permissions.setPermission', {
          descriptor: { name: 'geolocation' },
          state: 'granted',
          origin,
          userContext: this.userContext,
        });
        await this.connection.send('emulation.setGeolocationOverride', { coordinates: { ...rest, accuracy }, contexts });
      };
    if (timezone) work.timezone = async () => void (await this.connection.send('emulation.setTimezoneOverride', { timezone, contexts }));
    if (locale) work.locale = async () => void (await this.connection.send('emulation.setLocaleOverride', { locale, contexts }));
    if (screen_orientation)
      work.screen_orientation = async () =>
        void (await this.connection.send('emulation.setScreenOrientationOverride', { screenOrientation: screen_orientation, contexts }));
    let authenticatorId: string | undefined;
    const { marionette } = this;
    if (authenticator && marionette)
      work.authenticator = async () => {
        // Firefox answers a WebAuthn call only from the focused window ("CredentialsContainer
        // request is not allowed"), and a page opened after another is not (measured).
        await this.connection.send('browsingContext.activate', { context: this.context });
        const id = await marionette.send<unknown>('WebAuthn:AddVirtualAuthenticator', {
          isUserConsenting: true,
          ...authenticator,
        });
        if (typeof id !== 'string' || !id) throw new Error('WebAuthn:AddVirtualAuthenticator: no authenticator id');
        authenticatorId = id;
      };
    const undo = () =>
      withGrace(
        authenticatorId && marionette ? marionette.send('WebAuthn:RemoveVirtualAuthenticator', { authenticatorId }) : Promise.resolve(),
        PAGE_CLOSE_GRACE_MS,
      );
    return this.track('call', () => applyEach(emulate, work, (error) => this.emulationGone(error), undo));
  }

  /** A page or browser gone under an emulation command; any other refusal is that feature's failure. */
  private emulationGone(error: unknown): EngineGoneError | undefined {
    return this.calls.asGone(error, (e) =>
      e instanceof ConnectionClosedError || (e instanceof BidiError && e.error === 'no such frame') ? e.message : undefined,
    );
  }

  /** The page (its window, its content process, or the browser) is gone for good: every operation fails. */
  gone(reason: string): void {
    this.calls.gone(reason);
    this.settle();
  }

  /** A document other than the tab-crashed page committed in the window. */
  navigated(): void {
    if (this.calls.rejecters('call').length) this.leftDuringCall = true;
    this.settle();
  }

  private settle(): void {
    for (const resolve of this.settling) resolve();
    this.settling.clear();
  }

  /**
   * The document's main realm went away outside a load: Firefox will never answer the calls on it.
   * A crash looks the same at first, and its tab-crashed page follows within moments (then `gone`
   * fails the calls as a crash); otherwise the case left its document.
   */
  documentGone(): void {
    const calls = this.calls.rejecters('call');
    if (!calls.length) return;
    void this.leftOrCrashed().then((error) => {
      for (const reject of calls) reject(error);
    });
  }

  /** What a call whose document went away met: a crash if the tab-crashed page follows, else the case left. */
  private async leftOrCrashed(): Promise<Error> {
    if (!this.calls.isGone && !this.leftDuringCall) {
      await withGrace(new Promise<void>((resolve) => this.settling.add(resolve)), SETTLE_LIMIT_MS);
    }
    return this.calls.goneError() ?? new OracleError('page_tampered', 'the case left its document during the call');
  }

  async load(url: string, timeoutMs: number): Promise<void> {
    this.leftDuringCall = false;
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
      return await this.track('call', () => runInWorld(call, this.world));
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
      if (error instanceof BidiError && error.method === 'browsingContext.captureScreenshot' && !this.calls.isGone)
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
    if (error instanceof BidiError && error.error === 'no such frame' && !this.calls.isGone) return this.leftOrCrashed();
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
  private track<T>(kind: CallKind, work: () => Promise<T>): Promise<T> {
    // A document that committed during an earlier call says nothing about this one.
    if (kind === 'call') this.leftDuringCall = false;
    return this.calls.track(kind, work);
  }

  /**
   * The error as an EngineGoneError when it says the page, its process or the browser went away:
   * the window closed under the command ("no such frame"), or a call's "unsupported operation" (a
   * crashed tab is a parent-process page) or "unknown error" (its page was torn down), which are
   * not the case's doing; a navigation's are (a refused load), and "invalid argument" is the
   * adapter's own.
   */
  private asGone(error: unknown): EngineGoneError | undefined {
    return this.calls.asGone(error, (e) => {
      if (e instanceof ConnectionClosedError) return e.message;
      if (!(e instanceof BidiError)) return undefined;
      if (e.error === 'no such frame' || (e.method !== 'browsingContext.navigate' && e.error !== 'invalid argument')) return e.message;
      return undefined;
    });
  }
}
