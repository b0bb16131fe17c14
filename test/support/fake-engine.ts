// A LaunchEngine (src/workers/engine.ts) with no browser behind it, for the engine host's unit
// tests: its pages answer the trusted programs as a real engine's would, or crash, hang, tamper
// (answer what the trusted code cannot have made), leave the case's document, fail, measure in
// another viewport, take the whole browser down, or have a process killed for memory under it —
// whatever the test planted for the case, on each of its attempts. Never used by an e2e test:
// those run real engines.
//
// A case is named by the test: a case document's two copies are at fake://case/<name>/first and
// fake://case/<name>/retry (documentOf), and a written case's html is its name. Any other page (the
// fast path's blank page) loads as planned under its URL, when a plan names it: `hang` or `fail`.
import { VIEWPORT } from '../../src/protocol/common.js';
import { STYLE_PROPERTIES } from '../../src/protocol/schema.js';
import {
  EngineGoneError,
  type Emulated,
  type EngineBrowser,
  type EnginePage,
  type LaunchEngine,
  type ProgramCall,
} from '../../src/workers/engine.js';
import type { CaseDocument } from '../../src/workers/host/jobs.js';

/**
 * What a page does with one attempt at a case: `answer` as an engine would; `crash` (the renderer
 * went away); `hang` (never answers while its page lives); `tamper` (a walk of the wrong shape); `navigate` (the page is
 * no longer on the case's document); `fail` (a case document: the driver's call fails; a written
 * case: the page reports it could not write or walk it); `budget` (a written case: the page's time
 * budget ran out before it); `viewport` (a walk measured at 800×483); `exit` (the browser exits);
 * `memory` (a process of the engine is killed for memory, through the test's `killForMemory`, and
 * the call fails as a crash); `memory-hang` (the same, and the call never answers, as a WebKit page
 * whose network process was killed did).
 */
export type Behaviour =
  | 'answer'
  | 'crash'
  | 'hang'
  | 'tamper'
  | 'navigate'
  | 'fail'
  | 'budget'
  | 'viewport'
  | 'exit'
  | 'memory'
  | 'memory-hang';

/** A case's document as the case server would publish it, for the case named `name`. */
export function documentOf(name: string, freshStorage = false): CaseDocument {
  return {
    url: `fake://case/${name}/first`,
    nonce: `${name}-1`,
    retry: { url: `fake://case/${name}/retry`, nonce: `${name}-2` },
    freshStorage,
  };
}

const nameOf = (url: string) => /^fake:\/\/case\/([^/]+)\//.exec(url)?.[1] ?? url;

/** A one-element walk as src/page/walk.ts writes it, measured at `viewport`. */
function walkText([width, height]: readonly [number, number]): string {
  return JSON.stringify({
    viewport: [width, height],
    ratio: 1,
    overflowed: false,
    scrollbars: [0, 0],
    strings: ['HTML', 'block'],
    tags: [0],
    parents: [-1],
    bounding: [0, 0, width, height],
    rectCounts: [1],
    rects: [0, 0, width, height],
    styles: STYLE_PROPERTIES.map(() => 1),
    scriptCapable: false,
    loadMs: 0,
    walkMs: 0,
  });
}

const WALK = walkText([VIEWPORT.width, VIEWPORT.height]);
const OFF_VIEWPORT = walkText([VIEWPORT.width, 483]);
const TAMPERED = '{"walked":"by the case"}';
const ELSEWHERE = JSON.stringify({ elsewhere: 'https://elsewhere.example/' });

export class FakeEngine {
  /** Every browser launched, in order. */
  readonly browsers: FakeBrowser[] = [];
  /** Every page opened, in order. */
  readonly pages: FakePage[] = [];
  private readonly plans = new Map<string, Behaviour[]>();
  private readonly attempts = new Map<string, number>();
  /** What `memory` and `memory-hang` do first: the memory watch's kill, as the test plants it. */
  killForMemory: () => void = () => {
    throw new Error('the test planted a kill for memory but no way to make it');
  };

  readonly launch: LaunchEngine = async () => {
    const browser = new FakeBrowser(this);
    this.browsers.push(browser);
    return browser;
  };

  /** The case named `name` does `behaviours[n]` on its nth attempt, and the last one on every later attempt; unplanned, it answers. */
  plan(name: string, ...behaviours: Behaviour[]): this {
    this.plans.set(name, behaviours);
    return this;
  }

  /** Whether the test planted anything for `name`. */
  planned(name: string): boolean {
    return this.plans.has(name);
  }

  /** How many times the case named `name` was attempted (its document's program run, or it was written). */
  attemptsAt(name: string): number {
    return this.attempts.get(name) ?? 0;
  }

  /** The pages that loaded the case named `name`'s document, in order, with the copy each loaded. */
  loadsOf(name: string): { page: FakePage; url: string }[] {
    return this.pages.flatMap((page) => page.loads.filter((url) => nameOf(url) === name).map((url) => ({ page, url })));
  }

  /** The behaviour of the next attempt at `name`. */
  next(name: string): Behaviour {
    const n = this.attemptsAt(name);
    this.attempts.set(name, n + 1);
    const plan = this.plans.get(name) ?? ['answer'];
    return plan[Math.min(n, plan.length - 1)]!;
  }
}

class FakeBrowser implements EngineBrowser {
  readonly engine = 'chromium';
  readonly version = '1.0.fake';
  readonly executables = {};
  readonly traits = { guarded: false, writesKeepBidi: false, swapsWrites: false, browserWide: [], groupPerPage: false };
  readonly exited: Promise<void>;
  private exit!: () => void;
  gone = false;

  constructor(private readonly fake: FakeEngine) {
    this.exited = new Promise((resolve) => {
      this.exit = resolve;
    });
  }

  async newPage(): Promise<EnginePage> {
    if (this.gone) throw new EngineGoneError('the browser exited');
    const page = new FakePage(this.fake, this, this.fake.pages.length);
    this.fake.pages.push(page);
    return page;
  }

  /** No process: the memory watch reads none (its kills are the test's, through killForMemory). */
  processGroups(): readonly number[] {
    return [];
  }

  /** The process goes away: every call of its pages fails from now on. */
  die(): void {
    this.gone = true;
    for (const page of this.fake.pages) if (page.browser === this) page.end();
    this.exit();
  }

  async close(): Promise<void> {
    this.die();
  }
}

export class FakePage implements EnginePage {
  /** Every URL loaded, in order. */
  readonly loads: string[] = [];
  closed = false;
  private readonly hung: ((error: Error) => void)[] = [];

  constructor(
    private readonly fake: FakeEngine,
    readonly browser: FakeBrowser,
    /** Its place among the pages the fake engine opened. */
    readonly index: number,
  ) {}

  async load(url: string): Promise<void> {
    this.alive();
    this.loads.push(url);
    if (url.startsWith('fake://case/') || !this.fake.planned(url)) return;
    const behaviour = this.fake.next(url);
    if (behaviour === 'hang') await this.hang();
    if (behaviour === 'fail') throw new Error('the driver could not load the page');
  }

  async emulate(): Promise<Emulated> {
    throw new Error('the fake engine emulates nothing');
  }

  async run(call: ProgramCall): Promise<string> {
    this.alive();
    const args = call.args as { check?: { url: string }; htmls?: string[] };
    if (call.program === 'pageState') return JSON.stringify({ href: 'about:blank', viewport: [VIEWPORT.width, VIEWPORT.height], ratio: 1 });
    if (call.program === 'batch') return this.batch(args.htmls!);
    if (!args.check) throw new Error(`the fake engine answers no ${call.program} program without a case document`);
    const behaviour = this.fake.next(nameOf(args.check.url));
    switch (behaviour) {
      case 'tamper':
        return TAMPERED;
      case 'navigate':
        return ELSEWHERE;
      case 'viewport':
        return OFF_VIEWPORT;
      case 'fail':
        throw new Error('the driver refused the call');
      default:
        return this.befall(behaviour, WALK);
    }
  }

  /** The batch program: each written case as planned, in order. */
  private async batch(htmls: readonly string[]): Promise<string> {
    const walks: string[] = [];
    for (const html of htmls) {
      const behaviour = this.fake.next(html);
      switch (behaviour) {
        case 'budget':
          return `{"walks":[${walks.join(',')}]}`;
        case 'fail':
          return `{"failed":"TypeError","walks":[${walks.join(',')}]}`;
        case 'navigate':
          return ELSEWHERE;
        case 'tamper':
          walks.push(TAMPERED);
          break;
        case 'viewport':
          walks.push(OFF_VIEWPORT);
          break;
        default:
          walks.push(await this.befall(behaviour, WALK));
      }
    }
    return `{"walks":[${walks.join(',')}]}`;
  }

  /** `answer` answers `text`; the others befall the page or its browser. */
  private befall(behaviour: Behaviour, text: string): Promise<string> {
    switch (behaviour) {
      case 'hang':
        return this.hang();
      case 'crash':
        return Promise.reject(new EngineGoneError('the renderer crashed'));
      case 'exit':
        this.browser.die();
        return Promise.reject(new EngineGoneError('the browser exited'));
      case 'memory':
        this.fake.killForMemory();
        return Promise.reject(new EngineGoneError('the renderer crashed'));
      case 'memory-hang':
        this.fake.killForMemory();
        return this.hang();
      default:
        return Promise.resolve(text);
    }
  }

  async screenshot(): Promise<Uint8Array> {
    throw new Error('the fake engine takes no screenshot');
  }

  async callMain(): Promise<unknown> {
    throw new Error('the fake engine runs no main-world call');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.end();
  }

  /** Ends every call in flight. */
  end(): void {
    for (const reject of this.hung.splice(0)) reject(new EngineGoneError('the page is gone'));
  }

  /**
   * A call that never answers while the page lives; closing the page, or the browser going away,
   * ends it (the adapter contract: a page's close ends every call in flight).
   */
  private hang(): Promise<never> {
    return new Promise((_, reject) => this.hung.push(reject));
  }

  private alive(): void {
    if (this.browser.gone || this.closed) throw new EngineGoneError('the page is gone');
  }
}
