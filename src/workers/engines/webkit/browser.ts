// The browser: the WebDriver sessions of one engine host, each a WebKitWebDriver and its
// MiniBrowser (session.ts). A page is a window of a session; when a page is done, its session
// opens a new window and closes the old one — a new browsing context with nothing of the old
// one's (the closed window's web process goes with it, a deferred hang included) — and the next
// page reuses the session, waiting for a session being so released rather than starting one (a
// session's start costs the CPU of about ten pages). A page that must have fresh storage gets a new session instead:
// WebKit's website data (IndexedDB, the Cache API, service workers) is shared by the windows of a
// session.
import type { Executables } from '../../../protocol/launch-options.js';
import { webkitExecutables } from './minibrowser.js';
import pTimeout from 'p-timeout';
import type { EngineLaunch } from '../../../worker-contract/launch.js';
import type { Display } from '../../../system/xvfb.js';
import { log } from '../../../system/log.js';
import type { EngineBrowser, EnginePage, EngineTraits } from '../../engine.js';
import { WebKitPage } from './page.js';
import { WebKitSession } from './session.js';

const WINDOW_SWAP_TIMEOUT_MS = 10_000;

// No swap: it missed a font once with the swap, on a 1500-fixture corpus, and what it waited for is not found.
const TRAITS: EngineTraits = { guarded: true, writesKeepBidi: false, swapsWrites: false, browserWide: [], groupPerPage: true };

export class WebKitBrowser implements EngineBrowser {
  readonly engine = 'webkit' as const;
  readonly traits = TRAITS;
  readonly version: string;
  readonly executables: Executables;
  // There is no single browser process: each session is its own, and a lost one is replaced by the host.
  readonly exited = new Promise<void>(() => {});
  /** Sessions whose page is done, each with a fresh window, ready for the next page. */
  private readonly spare: WebKitSession[] = [];
  private readonly sessions = new Set<WebKitSession>();
  /** The releases of pages under way: each ends with its session spare, or closed. */
  private readonly releasing = new Set<Promise<void>>();
  private closing = false;

  constructor(
    /** With the display its sessions run on. */
    private readonly options: EngineLaunch,
    first: WebKitSession,
    /** The private Xvfb it started, stopped with it. */
    private readonly display: Display | undefined,
  ) {
    this.version = first.version;
    this.executables = webkitExecutables(options.paths);
    this.adopt(first);
    this.spare.push(first);
  }

  async newPage({ freshStorage }: { freshStorage: boolean }): Promise<EnginePage> {
    if (!freshStorage && this.spare.length === 0 && this.releasing.size > 0) await Promise.race(this.releasing);
    let session = this.spare.pop();
    if (session && (freshStorage || !session.alive)) {
      void session.close();
      session = undefined;
    }
    session ??= this.adopt(await WebKitSession.start(this.options));
    try {
      await session.sizeViewport();
    } catch (error) {
      void session.close();
      throw error;
    }
    return new WebKitPage(session, (page) => {
      const released = this.release(page);
      const settled = released.then(
        () => undefined,
        () => undefined,
      );
      this.releasing.add(settled);
      void settled.then(() => this.releasing.delete(settled));
      return released;
    });
  }

  processGroups(): readonly number[] {
    return [...this.sessions].map((session) => session.group);
  }

  async close(): Promise<void> {
    this.closing = true;
    // The display is stopped whatever a session's close did (a rejection here skipped it): a display
    // left running restarts its Xvfb whenever it dies, after the oracle's last sweep of its processes
    // too, and that Xvfb outlives the oracle (CI saw one after the chaos test).
    const closed = await Promise.allSettled([...this.sessions].map((s) => s.close()));
    for (const c of closed) if (c.status === 'rejected') log.warn(`webkit: closing a session: ${(c.reason as Error).message}`);
    await this.display?.stop();
  }

  private adopt(session: WebKitSession): WebKitSession {
    // A session that finished starting after the browser closed goes at once.
    if (this.closing) void session.close();
    this.sessions.add(session);
    void session.closed.then(() => this.sessions.delete(session));
    return session;
  }

  /** A page is done: its session gets a new window, every other window closed, and waits for the next page. */
  private async release(page: WebKitPage): Promise<void> {
    const { session } = page;
    try {
      await pTimeout(
        (async () => {
          const { client } = session;
          const fresh = await client.createWindow('window');
          for (const handle of await client.getWindowHandles()) {
            if (handle === fresh) continue;
            await client.switchToWindow(handle);
            await client.closeWindow();
          }
          await client.switchToWindow(fresh);
        })(),
        { milliseconds: WINDOW_SWAP_TIMEOUT_MS },
      );
      if (this.closing) await session.close();
      else this.spare.push(session);
    } catch {
      // A window that does not close (its page hung) takes its session with it.
      await session.close();
    }
  }
}
