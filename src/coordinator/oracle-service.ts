// The oracle in one object: the case server, the egress guard and the engine farm, started
// together and closed together, with one method that answers any case request. The stdio loop
// (stdio.ts) and every command that runs cases in process sit on top of it.
import type { EngineName, ProfileName } from '../protocol/schema.js';
import type { Answer, AnswerFields, CaseOp, RequestOf } from '../protocol/ops.js';
import type { FontSetName } from '../protocol/font-sets.js';
import type { DumpLimits } from '../worker-contract/tasks.js';
import type { EngineColumns } from '../protocol/walk-columns.js';
import { engineMemoryBytes, EXECUTABLES, type ExecutableKey, type Executables, type LaunchOptions } from '../protocol/launch-options.js';
import { ConfigError } from '../protocol/errors.js';
import { FONT_SETS, fontSetProblem } from '../fonts/font-sets.js';
import { fontconfigFileOf } from '../fonts/fontconfig-file.js';
import { isTimeZone } from '../protocol/emulation-schema.js';
import { checkExecutables } from '../system/executables.js';
import { compiledLocale } from '../system/locales.js';
import { killDescendants, killStrays } from '../system/processes.js';
import { removeStrayFolders } from '../system/scratch.js';
import { removeStrayCgroups } from '../system/memory/cgroup.js';
import { log } from '../system/log.js';
import { networkIsolation, type NetworkIsolation } from '../system/network.js';
import { CaseServer } from './case-server.js';
import { EgressLog } from './egress-log.js';
import { EngineFarm } from './engine-farm.js';
import { runCase } from './run-case.js';

/** Every launch option with its value (src/protocol/launch-options.ts); only `display` may be left out. */
export type OracleOptions = Required<Omit<LaunchOptions, 'display'>> & Pick<LaunchOptions, 'display'>;

/** How big each engine's dump may grow: the answer's byte budget is shared by its engines. */
export function dumpLimits(options: Pick<OracleOptions, 'maxNodes' | 'maxAnswerBytes' | 'engines'>): DumpLimits {
  // A fragment per node on average is already a lot of text; four is a generous ceiling.
  return {
    maxNodes: options.maxNodes,
    maxFragments: 4 * options.maxNodes,
    maxBytes: Math.floor(options.maxAnswerBytes / Math.max(1, options.engines.length)),
  };
}

/** Requests to keep in hand at once: every worker's window, and as many again waiting to refill it. */
export const admission = (options: OracleOptions): number => 2 * options.workers * options.window;

/** Each engine's exact build. */
export type Versions = Partial<Record<EngineName, string>>;

/** A case's answer, and the builds of the engines that made it (what a campaign records beside each result). */
export interface Answered<K extends CaseOp> {
  answer: Answer<K>;
  versions: Versions;
  /** Each engine's walk in columns, when asked for (RunOptions) and the oracle runs the engines itself. */
  columns?: EngineColumns;
}

/** How a case is run. */
export interface RunOptions {
  /** A `vote` also gives each engine's walk in columns (Answered.columns): what a campaign judges a candidate on without parsing a dump. */
  columns?: boolean;
}

export class OracleService {
  private constructor(
    private readonly farm: EngineFarm,
    private readonly cases: CaseServer,
    /** What the engines tried to reach and were refused. */
    readonly egress: EgressLog,
    private readonly options: OracleOptions,
  ) {}

  /** How the engines are kept off the network. */
  readonly network: NetworkIsolation = networkIsolation();

  /**
   * Starts every engine the options name. A given executable or font set that cannot be used is a
   * ConfigError, before anything starts; so is an engine that cannot start, unless
   * `allowMissingEngines` (then it is left out, with its reason on stderr).
   */
  static async start(options: OracleOptions): Promise<OracleService> {
    const paths = checkExecutables(options.paths, options.engines);
    const fontProblem = fontSetProblem(FONT_SETS[options.fonts]);
    if (fontProblem) throw new ConfigError(fontProblem);
    if (!isTimeZone(options.timezone))
      throw new ConfigError(`--timezone=${options.timezone}: not an IANA time zone name as ICU spells it (UTC, Asia/Tokyo)`);
    const cLocale = await compiledLocale(options.locale);
    if (networkIsolation() === 'proxy') {
      log.warn(
        'network: no namespace of its own (run through bin/browser-oracle, as root or with user namespaces): ' +
          "the oracle's proxy refuses every request but its own documents', but WebRTC UDP from Chromium is not stopped",
      );
    }
    const strays = killStrays();
    if (strays.length)
      log.warn(`killed ${strays.length} process(es) left behind by an earlier oracle that was killed (${[...new Set(strays)].join(', ')})`);
    const folders = removeStrayFolders();
    if (folders) log.warn(`removed ${folders} temporary folder(s) left behind by an earlier oracle that was killed`);
    removeStrayCgroups();
    const egress = new EgressLog();
    const cases = await CaseServer.start(egress, dumpLimits(options).maxBytes);
    try {
      const farm = await EngineFarm.start({
        engines: options.engines,
        workers: options.workers,
        pages: options.pages,
        maxBatch: options.maxBatch,
        window: options.window,
        timeoutMs: options.timeoutMs,
        limits: dumpLimits(options),
        maxEngineMemory: engineMemoryBytes(options.maxEngineMemory, 'maxEngineMemory'),
        launch: {
          profile: options.profile,
          locale: options.locale,
          cLocale,
          timezone: options.timezone,
          display: options.display,
          fontconfigFile: fontconfigFileOf(options.fonts),
          fontDirs: FONT_SETS[options.fonts].dirs,
          proxyUrl: cases.proxyUrl,
          browsers: options.browsers,
          paths,
          extra: options.extra,
        },
      });
      const missing = options.engines.filter((e) => !farm.engines.includes(e));
      if (missing.length && !options.allowMissingEngines) {
        await farm.close();
        const reasons = missing.map((e) => `${e}: ${farm.failures[e] ?? 'did not launch'}`).join('; ');
        throw new ConfigError(`could not start ${reasons} (--allow-missing-engines serves the others)`);
      }
      for (const e of missing)
        log.warn(`${e} did not launch (${farm.failures[e] ?? 'see above'}); requests naming it get "engine_not_launched"`);
      return new OracleService(farm, cases, egress, { ...options, paths });
    } catch (error) {
      await cases.close();
      throw error;
    }
  }

  /** The engines that launched, in engine order. */
  get engines(): EngineName[] {
    return this.farm.engines;
  }

  get versions(): Versions {
    return this.farm.versions;
  }

  get profile(): ProfileName {
    return this.options.profile;
  }

  get fonts(): FontSetName {
    return this.options.fonts;
  }

  /** Answers one case request; never rejects for the case's own failures. */
  async run<K extends CaseOp>(op: K, request: RequestOf<K>, options: RunOptions = {}): Promise<Answered<K>> {
    const ran = await runCase({ farm: this.farm, cases: this.cases, profile: this.options.profile }, op, request, options);
    // Every worker runs the same build of each engine (EngineFarm.start).
    return { ...ran, versions: this.versions };
  }

  /**
   * The executables the launched engines run: those the adapters reported, else those given
   * (a given one is what the adapter launches).
   */
  get paths(): Executables {
    const launched = Object.entries({ ...this.options.paths, ...this.farm.executables }).filter(([key]) =>
      this.engines.includes(EXECUTABLES[key as ExecutableKey].engine),
    );
    return Object.fromEntries(launched);
  }

  /** The ping answer's fields beside the id. */
  ping(): AnswerFields<'ping'> {
    return {
      ok: true,
      engines: this.engines,
      versions: this.versions,
      profile: this.profile,
      fonts: this.fonts,
      locale: this.options.locale,
      timezone: this.options.timezone,
      network: this.network,
      paths: this.paths,
    };
  }

  /** Closes every browser, driver and server, then kills whatever they left running. */
  async close(): Promise<void> {
    await this.farm.close().catch((e: Error) => log.warn(`closing the engines: ${e.message}`));
    await this.cases.close();
    const leftovers = killDescendants();
    if (leftovers.length)
      log.warn(`killed ${leftovers.length} process(es) left behind by the engines (${[...new Set(leftovers)].join(', ')})`);
    // The strays killed at start were still exiting then, their cgroups not yet empty.
    removeStrayCgroups();
  }
}
