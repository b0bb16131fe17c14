// One page per engine, launched straight through the adapters beside a case server of its own —
// no worker, no queue, no retries: the simplest oracle (each case loaded, fonts awaited, walked,
// one engine after another), for the bench's baselines and for tests that hold the fast path's
// batches to the navigation route.
import type { Site } from '../../src/protocol/site-schema.js';
import { CaseServer } from '../../src/coordinator/case-server.js';
import { EgressLog } from '../../src/coordinator/egress-log.js';
import { defaultOptions, dumpLimits } from '../../src/coordinator/launch-settings.js';
import type { EngineLaunch } from '../../src/worker-contract/launch.js';
import { FONT_SETS } from '../../src/fonts/font-sets.js';
import { cLocaleName, localeCacheDir } from '../../src/system/locales.js';
import { decodeBatchText, decodeWalk, decodeWalkText, type RawWalk } from '../../src/protocol/page-output.js';
import { ENGINE_NAMES, type EngineName } from '../../src/protocol/schema.js';
import type { EngineBrowser, EnginePage } from '../../src/workers/engine.js';
import { LAUNCHERS } from '../../src/workers/engines/index.js';
import { walkOptions } from '../../src/workers/worker-context.js';

const TIMEOUT_MS = 30_000;
/** The walk as the oracle runs it with its default limits. */
export const WALK = walkOptions(dumpLimits({ ...defaultOptions(), engines: [...ENGINE_NAMES] }));

/**
 * How the oracle launches an engine by default, with `proxyUrl` as its proxy: every default launch
 * option (the adapter reads its own, as from a resolved EngineLaunch), and the defaults resolved.
 */
export const launchOptions = (proxyUrl: string, overrides: Partial<EngineLaunch> = {}): EngineLaunch => ({
  ...defaultOptions(),
  // As the oracle compiles it; an adapter's own tests read no language, and WebKitGTK says en-US without it too.
  cLocale: { name: cLocaleName('en-US'), dir: localeCacheDir() },
  fontconfigFile: FONT_SETS.liberation.fontconfigFile,
  fontDirs: FONT_SETS.liberation.dirs,
  proxyUrl,
  ...overrides,
});

export class DirectEngines {
  private constructor(
    private readonly server: CaseServer,
    private readonly browsers: EngineBrowser[],
    /** Each engine's one page; `written` pages sit on the blank page the fast path writes into. */
    readonly pages: Map<EngineName, { page: EnginePage; guarded: boolean; browser: EngineBrowser }>,
  ) {}

  /** Launches `engines`, one page each, loaded with the blank page when `written`. */
  static async open(engines: readonly EngineName[], written: boolean): Promise<DirectEngines> {
    const server = await CaseServer.start(new EgressLog(), WALK.maxBytes);
    const browsers: EngineBrowser[] = [];
    const pages = new Map<EngineName, { page: EnginePage; guarded: boolean; browser: EngineBrowser }>();
    try {
      for (const engine of engines) {
        const browser = await LAUNCHERS[engine](launchOptions(server.proxyUrl));
        browsers.push(browser);
        const page = await browser.newPage({ freshStorage: false });
        if (written) await page.load(server.blankUrl, TIMEOUT_MS);
        pages.set(engine, { page, guarded: browser.traits.guarded, browser });
      }
      return new DirectEngines(server, browsers, pages);
    } catch (error) {
      await Promise.all(browsers.map((b) => b.close()));
      await server.close();
      throw error;
    }
  }

  /** The version `engine` reports (its dumps' engine_version). */
  versionOf(engine: EngineName): string {
    return this.browsers.find((b) => b.engine === engine)!.version;
  }

  /** The page the fast path writes cases into. */
  get blankUrl(): string {
    return this.server.blankUrl;
  }

  /** `html` loaded as a document of its own in `engine` (with its `site`, once it says so by `wait`), then fonts and one walk (the navigation route). */
  async loadAndWalk(engine: EngineName, id: string, html: string, { site, wait }: { site?: Site; wait?: string } = {}): Promise<RawWalk> {
    const { page, guarded } = this.pages.get(engine)!;
    const published = this.server.publish(id, 'document', { html, site }, [engine], guarded ? new Set([engine]) : new Set());
    try {
      const { url, nonce } = published.documents[engine]!;
      await page.load(url, TIMEOUT_MS);
      const answer = decodeWalkText(await page.run({ program: 'walk', args: { check: { url, nonce }, fresh: true, walk: WALK, wait } }));
      if (!('walk' in answer)) throw new Error(`${engine}: ${id}: ${JSON.stringify(answer).slice(0, 200)}`);
      return answer.walk;
    } finally {
      published.release();
    }
  }

  /** `htmls` written one after another into `engine`'s blank page and walked, in one driver call (the fast path's batch). */
  async writeAndWalk(engine: EngineName, htmls: readonly string[]): Promise<RawWalk[]> {
    return (await this.batch(engine, htmls)).walks;
  }

  /** The same, each case swapped in where `swap` asks and the page finds it exact: the walks, and which were swapped. */
  async batch(engine: EngineName, htmls: readonly string[], swap?: readonly boolean[]): Promise<{ walks: RawWalk[]; swapped: boolean[] }> {
    const { page } = this.pages.get(engine)!;
    const text = await page.run({
      program: 'batch',
      args: { blankUrl: this.server.blankUrl, htmls, swap, walk: WALK, budgetMs: TIMEOUT_MS },
    });
    const answer = decodeBatchText(text);
    if (!('walks' in answer) || answer.walks.length !== htmls.length) throw new Error(`${engine}: ${text.slice(0, 200)}`);
    const walks = answer.walks.map((w) => {
      const walk = decodeWalk(w);
      if (!('walk' in walk)) throw new Error(`${engine}: ${JSON.stringify(walk).slice(0, 200)}`);
      return walk.walk;
    });
    return { walks, swapped: answer.swapped ?? [] };
  }

  async close(): Promise<void> {
    await Promise.all(this.browsers.map((b) => b.close()));
    await this.server.close();
  }
}
