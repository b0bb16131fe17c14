// The oracle in one object: the case server, the egress guard and the engine farm, started
// together and closed together, with one method that answers any case request. The stdio loop
// (stdio.ts) and every command that runs cases in process sit on top of it.
import type { EngineName, ProfileName } from '../protocol/schema.js';
import type { Answer, AnswerFields, CaseOp, RequestOf } from '../protocol/ops.js';
import type { FontSetName } from '../protocol/font-sets.js';
import type { EngineColumns } from '../protocol/walk-columns.js';
import { EXECUTABLES, type ExecutableKey, type Executables, type OracleOptions } from '../protocol/launch-options.js';
import { ConfigError } from '../protocol/errors.js';
import { killDescendants, killStrays } from '../system/processes.js';
import { removeStrayFolders } from '../system/scratch.js';
import { removeStrayCgroups } from '../system/memory/cgroup.js';
import { log } from '../system/log.js';
import { networkIsolation, type NetworkIsolation } from '../system/network.js';
import { CaseServer } from './case-server.js';
import { EgressLog } from './egress-log.js';
import { EngineFarm } from './engine-farm.js';
import { resolveLaunch } from './launch-settings.js';
import { runCase } from './run-case.js';

// The commands and tools that start an oracle take the options' type from here.
export type { OracleOptions } from '../protocol/launch-options.js';

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
   * Starts every engine the options name. Options that cannot be used are a ConfigError, before
   * anything starts (resolveLaunch); so is an engine that cannot start, unless
   * `allowMissingEngines` (then it is left out, with its reason on stderr).
   */
  static async start(options: OracleOptions): Promise<OracleService> {
    const plan = await resolveLaunch(options);
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
    const cases = await CaseServer.start(egress, plan.limits.maxBytes);
    try {
      const farm = await EngineFarm.start({ ...plan, launch: { ...plan.launch, proxyUrl: cases.proxyUrl } });
      const missing = options.engines.filter((e) => !farm.engines.includes(e));
      if (missing.length && !options.allowMissingEngines) {
        await farm.close();
        const reasons = missing.map((e) => `${e}: ${farm.failures[e] ?? 'did not launch'}`).join('; ');
        throw new ConfigError(`could not start ${reasons} (--allow-missing-engines serves the others)`);
      }
      for (const e of missing)
        log.warn(`${e} did not launch (${farm.failures[e] ?? 'see above'}); requests naming it get "engine_not_launched"`);
      return new OracleService(farm, cases, egress, { ...options, paths: plan.launch.paths });
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
