// The browser: one CDP connection to one Chromium process. It opens pages (each a target in a
// browser context of its own, emulated as Playwright's newContext did) and routes the few events
// it receives to them.
import type { Executables } from '../../../protocol/launch-options.js';
import type { EngineBrowser, EnginePage, EngineTraits } from '../../engine.js';
import { withGrace } from '../time-limits.js';
import type { CdpConnection } from './connection.js';
import { pageEmulation, WINDOW_BOUNDS, type PageCommand } from './emulation.js';
import { ChromiumPage } from './page.js';
import type { ChromiumProcess } from './process.js';
import { PROFILE_PERMISSIONS } from './switches.js';
import type { ProfileName } from '../../../protocol/schema.js';

/*
 * Every event the adapter receives, and why its payload is bounded. No domain is enabled on a
 * page, so no Runtime (console calls, exceptions), Page, Network or Log event is ever sent; there
 * is no target discovery and no auto-attach, and downloads are denied without events.
 * - Target.attachedToTarget (browser): follows the adapter's own Target.attachToTarget of a target
 *   at about:blank — ids, about:blank and an empty title.
 * - Target.detachedFromTarget (browser): a session id, a target id — the page's target closed.
 * - Inspector.targetCrashed (page): no fields — its renderer died.
 * - Inspector.detached (page): a reason in Chromium's own words.
 * - DeviceAccess.deviceRequestPrompted (page, only once an emulated Bluetooth adapter enabled the
 *   domain there): a chooser's id and the devices it offers, which the emulation simulated.
 * - WebAuthn.credentialAdded and its kin (page, only once an emulated authenticator enabled the
 *   domain there): a credential of a few hundred bytes; not routed.
 * Whatever else came would be dropped unread past EVENT_MAX_BYTES (connection.ts).
 */

/** disposeBrowserContext answers in milliseconds even for a hung page; this bounds a dead browser. */
const PAGE_CLOSE_GRACE_MS = 5_000;
const BROWSER_CLOSE_GRACE_MS = 3_000;

const TRAITS: EngineTraits = { guarded: false, writesKeepBidi: false, swapsWrites: true, browserWide: ['bluetooth'], groupPerPage: false };

export class ChromiumBrowser implements EngineBrowser {
  readonly engine = 'chromium' as const;
  readonly traits = TRAITS;
  readonly exited: Promise<void>;
  /** Pages by their session. */
  private readonly pages = new Map<string, ChromiumPage>();
  private readonly connection: CdpConnection;
  private readonly emulation: readonly PageCommand[];

  private constructor(
    private readonly process: ChromiumProcess,
    private readonly profile: ProfileName,
    locale: string,
    /** As Playwright's browser.version() reported it, so engine_version is unchanged. */
    readonly version: string,
    private readonly userAgent: string,
    readonly executables: Executables,
  ) {
    this.connection = process.connection;
    this.exited = process.exited;
    this.emulation = pageEmulation(locale);
    this.connection.onEvent((method, params, sessionId) => this.route(method, params, sessionId));
    void this.connection.closed.then(() => {
      for (const page of this.pages.values()) page.gone('the browser went away');
    });
  }

  /** The browser on a started Chromium, once it answers: its version is the product's, past its "Chrome/". */
  static async start(
    process: ChromiumProcess,
    { profile, locale }: { profile: ProfileName; locale: string },
    executables: Executables,
  ): Promise<ChromiumBrowser> {
    const { product, userAgent } = await process.connection.send<{ product: string; userAgent: string }>('Browser.getVersion');
    return new ChromiumBrowser(process, profile, locale, product.slice(product.indexOf('/') + 1), userAgent, executables);
  }

  async newPage(_options: { freshStorage: boolean }): Promise<EnginePage> {
    // Every page has a browser context of its own, so its storage is always fresh.
    const { browserContextId } = await this.connection.send<{ browserContextId: string }>('Target.createBrowserContext', {
      disposeOnDetach: true,
    });
    let page: ChromiumPage | undefined;
    try {
      const permissions = PROFILE_PERMISSIONS[this.profile];
      await Promise.all([
        // Per context, so every popup a case opens inherits it too.
        this.connection.send('Browser.setDownloadBehavior', { behavior: 'deny', browserContextId }),
        permissions.length ? this.connection.send('Browser.grantPermissions', { browserContextId, permissions }) : undefined,
      ]);
      const { targetId } = await this.connection.send<{ targetId: string }>('Target.createTarget', {
        url: 'about:blank',
        browserContextId,
      });
      const { sessionId } = await this.connection.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
      const { windowId } = await this.connection.send<{ windowId: number }>('Browser.getWindowForTarget', { targetId });
      page = new ChromiumPage(
        this.connection,
        sessionId,
        targetId,
        windowId,
        browserContextId,
        () => this.dispose(sessionId, browserContextId),
        {
          profilePermissions: permissions,
          userAgent: this.userAgent,
        },
      );
      this.pages.set(sessionId, page);
      await Promise.all([
        this.connection.send('Browser.setWindowBounds', { windowId, bounds: WINDOW_BOUNDS }),
        ...this.emulation.map(({ method, params }) => this.connection.send(method, params, { sessionId })),
      ]);
      return page;
    } catch (error) {
      if (page) await page.close();
      else await withGrace(this.connection.send('Target.disposeBrowserContext', { browserContextId }), PAGE_CLOSE_GRACE_MS);
      throw error;
    }
  }

  processGroups(): readonly number[] {
    return [this.process.pid];
  }

  /** Closes the browser, then kills its process group (whatever it did); the user data folder goes with it. */
  close(): Promise<void> {
    return this.process.close(() => this.connection.send('Browser.close'), BROWSER_CLOSE_GRACE_MS);
  }

  private async dispose(sessionId: string, browserContextId: string): Promise<void> {
    await withGrace(this.connection.send('Target.disposeBrowserContext', { browserContextId }), PAGE_CLOSE_GRACE_MS);
    this.pages.delete(sessionId);
  }

  private route(method: string, params: Record<string, unknown>, sessionId: string | undefined): void {
    switch (method) {
      case 'Target.detachedFromTarget':
        this.pages.get(params.sessionId as string)?.gone('its target was closed');
        break;
      case 'Inspector.targetCrashed':
        this.pages.get(sessionId!)?.gone('its renderer crashed');
        break;
      case 'DeviceAccess.deviceRequestPrompted':
        this.pages.get(sessionId!)?.devicePrompted(params);
        break;
      case 'Inspector.detached':
        this.pages.get(sessionId!)?.gone(`its session was detached (${String(params.reason)})`);
        break;
    }
  }
}
