// The browser: one BiDi session on one firefox-esr process. It opens pages (each a window in a
// user context of its own, sized like Playwright's) and routes Firefox's events to them.
import { log } from '../../../system/log.js';
import type { Executables } from '../../../protocol/launch-options.js';
import { VIEWPORT } from '../../../protocol/common.js';
import type { EngineBrowser, EnginePage, EngineTraits } from '../../engine.js';
import type { BidiConnection } from './connection.js';
import { withGrace } from '../time-limits.js';
import { FirefoxPage, PAGE_CLOSE_GRACE_MS } from './page.js';
import type { Marionette } from './marionette.js';
import type { FirefoxProcess } from './process.js';

/**
 * Only what the adapter acts on. Never `browsingContext.domContentLoaded` or `.historyUpdated`
 * (nor the whole browsingContext module): Firefox then does work on every document.open, about
 * 40 ms of latency and 5–10 ms of CPU per written case (measured).
 */
const EVENTS = [
  'browsingContext.contextCreated',
  'browsingContext.contextDestroyed',
  'browsingContext.navigationCommitted',
  'browsingContext.userPromptOpened',
  'browsingContext.downloadWillBegin',
  'script.realmCreated',
  'script.realmDestroyed',
];

/** Prompts answered as Playwright's auto-dismiss answers them, without a round trip; a beforeunload never blocks a navigation. */
const CAPABILITIES = { alwaysMatch: { webSocketUrl: true, unhandledPromptBehavior: { default: 'dismiss', beforeUnload: 'accept' } } };

const BROWSER_CLOSE_GRACE_MS = 3_000;

const TRAITS: EngineTraits = {
  guarded: false,
  writesKeepBidi: true,
  swapsWrites: true,
  browserWide: ['authenticator'],
  groupPerPage: false,
};

export class FirefoxBrowser implements EngineBrowser {
  readonly engine = 'firefox' as const;
  readonly traits = TRAITS;
  readonly exited: Promise<void>;
  /** Pages by their top-level context. */
  private readonly pages = new Map<string, FirefoxPage>();
  /** The current main-world realm of each window or frame, and back. */
  private readonly mainRealmOf = new Map<string, string>();
  private readonly contextOfRealm = new Map<string, string>();

  private constructor(
    private readonly process: FirefoxProcess,
    private readonly connection: BidiConnection,
    /** The same field Playwright's browser.version() reports, so engine_version is unchanged. */
    readonly version: string,
    readonly executables: Executables,
    /** Under the launch profile `devices`: its virtual authenticators. */
    private readonly marionette: Marionette | undefined,
  ) {
    this.exited = process.exited;
    void this.exited.then(() => marionette?.close());
    connection.onEvent((method, params) => this.route(method, params));
    connection.closed.then(() => {
      for (const page of this.pages.values()) page.gone('the browser went away');
    });
  }

  /** Starts the session on a connected Firefox: the version, prompts, events. */
  static async start(
    process: FirefoxProcess,
    connection: BidiConnection,
    executables: Executables,
    marionette?: Marionette,
  ): Promise<FirefoxBrowser> {
    const session = await connection.send<{ capabilities: { browserVersion?: string } }>('session.new', { capabilities: CAPABILITIES });
    const version = session.capabilities.browserVersion;
    if (!version) throw new Error('firefox-esr reported no browserVersion');
    const browser = new FirefoxBrowser(process, connection, version, executables, marionette);
    await connection.send('session.subscribe', { events: EVENTS });
    return browser;
  }

  async newPage(_options: { freshStorage: boolean }): Promise<EnginePage> {
    // Every page has a user context of its own, so its storage is always fresh.
    const { userContext } = await this.connection.send<{ userContext: string }>('browser.createUserContext', {});
    const userContexts = [userContext];
    try {
      // Per user context, so every popup a case opens inherits them too.
      await Promise.all([
        this.connection.send('browser.setDownloadBehavior', { downloadBehavior: { type: 'denied' }, userContexts }),
        this.connection.send('browsingContext.setViewport', { viewport: VIEWPORT, devicePixelRatio: 1, userContexts }),
        this.connection.send('emulation.setScreenOrientationOverride', {
          screenOrientation: { type: 'landscape-primary', natural: 'landscape' },
          userContexts,
        }),
        // Without it `screen` is 1366×768 and device-width media queries see that.
        this.connection.send('emulation.setScreenSettingsOverride', { screenArea: VIEWPORT, userContexts }),
      ]);
      // A window, as Playwright's pages are: tabs other than a window's selected one are hidden.
      const { context } = await this.connection.send<{ context: string }>('browsingContext.create', { type: 'window', userContext });
      const page = new FirefoxPage(this.connection, context, userContext, () => this.pages.delete(context), this.marionette);
      this.pages.set(context, page);
      return page;
    } catch (error) {
      // The page is its last step: what failed left a user context, and perhaps a window in it, to remove.
      await withGrace(this.connection.send('browser.removeUserContext', { userContext }), PAGE_CLOSE_GRACE_MS);
      throw error;
    }
  }

  processGroups(): readonly number[] {
    return [this.process.pid];
  }

  /** Ends the session, then kills the process group (whatever the session did); the profile goes with it. */
  async close(): Promise<void> {
    await this.process.close(() => this.connection.send('browser.close'), BROWSER_CLOSE_GRACE_MS);
    this.connection.terminate();
  }

  private route(method: string, params: Record<string, unknown>): void {
    const context = params.context as string | undefined;
    switch (method) {
      case 'script.realmCreated':
        // Frames and sandboxes have realms too; only a window's main world says which document it shows.
        if (params.type === 'window' && params.sandbox === undefined && context !== undefined) {
          this.mainRealmOf.set(context, params.realm as string);
          this.contextOfRealm.set(params.realm as string, context);
        }
        break;
      case 'script.realmDestroyed': {
        const realm = params.realm as string;
        const owner = this.contextOfRealm.get(realm);
        if (owner === undefined) break;
        this.contextOfRealm.delete(realm);
        if (this.mainRealmOf.get(owner) !== realm) break;
        this.mainRealmOf.delete(owner);
        this.pages.get(owner)?.documentGone();
        break;
      }
      case 'browsingContext.navigationCommitted':
        // Without MOZ_CRASHREPORTER_SHUTDOWN a crashed content process leaves its pages showing this.
        if (typeof params.url === 'string' && params.url.startsWith('about:tabcrashed')) {
          this.pages.get(context!)?.gone('its content process crashed');
        } else {
          this.pages.get(context!)?.navigated();
        }
        break;
      case 'browsingContext.contextDestroyed':
        this.pages.get(context!)?.gone('its window was closed');
        this.mainRealmOf.delete(context!);
        break;
      case 'browsingContext.contextCreated':
        if (params.originalOpener) log.debug(`firefox: a case opened another window (${String(params.url)}); it closes with its page`);
        break;
      case 'browsingContext.userPromptOpened':
        log.debug(`firefox: a case opened a ${String(params.type)} prompt; dismissed`);
        break;
      case 'browsingContext.downloadWillBegin':
        log.debug(`firefox: a case started a download (${String(params.suggestedFilename)}); refused`);
        break;
    }
  }
}
