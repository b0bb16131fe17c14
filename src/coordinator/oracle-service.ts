// The oracle in one object: the case server, the egress guard and the engine farm, started
// together and closed together, with one method that answers any case request. The stdio loop
// (stdio.ts) and every command that runs cases in process sit on top of it.
import { dirname } from 'node:path';
import type { EngineName, ProfileName, Request } from '../protocol/schema.js';
import type { WireValue } from '../protocol/wire.js';
import { EXECUTABLES, type ExecutableKey, type Executables, type LaunchOptions } from '../protocol/launch-options.js';
import { ConfigError } from '../protocol/errors.js';
import { FONT_SETS, fontSetProblem } from '../fonts/font-sets.js';
import { squareFontconfigDir } from '../fonts/build-square-fonts.js';
import { checkExecutables } from '../system/executables.js';
import { killDescendants, killStrays } from '../system/processes.js';
import { log } from '../system/log.js';
import { CaseServer } from './case-server.js';
import { EgressGuard } from './egress-guard.js';
import { EngineFarm } from './engine-farm.js';
import type { CaseContext } from './schedule.js';
import { geometryOp, voteOp } from './geometry-op.js';
import { reflectOp } from './reflect-op.js';
import { traceOp } from './trace-op.js';

/** Every launch option with its value (src/protocol/launch-options.ts); only `display` may be left out. */
export type OracleOptions = Required<Omit<LaunchOptions, 'display'>> & Pick<LaunchOptions, 'display'>;

/** An answer before it is a line: plain values and JsonText (src/protocol/wire.ts). */
export type Answer = Record<string, WireValue | undefined>;

/** The request kinds that run on the engines, each with the handler that answers it. */
const CASE_OPS = {
  geometry: geometryOp,
  vote: voteOp,
  reflect: reflectOp,
  trace: traceOp,
} satisfies Record<string, (request: never, ctx: CaseContext) => Promise<Answer>>;

export type CaseOp = keyof typeof CASE_OPS;
export const isCaseOp = (op: string): op is CaseOp => op in CASE_OPS;

export class OracleService {
  private constructor(
    private readonly farm: EngineFarm,
    private readonly cases: CaseServer,
    private readonly guard: EgressGuard,
    private readonly options: OracleOptions,
  ) {}

  /**
   * Starts every engine the options name; an engine that cannot start is left out, with its reason
   * on stderr. A given executable or font set that cannot be used is a ConfigError, before anything starts.
   */
  static async start(options: OracleOptions): Promise<OracleService> {
    const paths = checkExecutables(options.paths, options.engines);
    const fonts = FONT_SETS[options.fonts];
    const fontProblem = fontSetProblem(fonts);
    if (fontProblem) throw new ConfigError(fontProblem);
    const strays = killStrays();
    if (strays) log.warn(`killed ${strays} process(es) left behind by an earlier oracle that was killed`);
    const cases = await CaseServer.start();
    const guard = await EgressGuard.start();
    try {
      const farm = await EngineFarm.start({
        engines: options.engines,
        workers: options.workers,
        pages: options.pages,
        launch: {
          profile: options.profile,
          display: options.display,
          // Each font set's fontconfig file is named fonts.conf, the name the engines are given.
          configDir: fonts.name === 'square' ? squareFontconfigDir() : dirname(fonts.fontconfigFile),
          proxyUrl: guard.proxyUrl,
          browsers: options.browsers,
          paths,
          extra: options.extra,
        },
      });
      return new OracleService(farm, cases, guard, { ...options, paths });
    } catch (error) {
      await cases.close();
      await guard.close();
      throw error;
    }
  }

  /** The engines that launched, in engine order. */
  get engines(): EngineName[] {
    return this.farm.engines;
  }

  get versions(): Partial<Record<EngineName, string>> {
    return this.farm.versions;
  }

  get profile(): ProfileName {
    return this.options.profile;
  }

  /** Answers one case request (geometry, vote, reflect or trace); never rejects for the case's own failures. */
  run(op: CaseOp, request: Request): Promise<Answer> {
    const context: CaseContext = { farm: this.farm, cases: this.cases, timeoutMs: this.options.timeoutMs };
    return (CASE_OPS[op] as (request: Request, ctx: CaseContext) => Promise<Answer>)(request, context);
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
  ping(): Answer {
    return { ok: true, engines: this.engines, versions: this.versions, profile: this.profile, paths: this.paths };
  }

  /** Closes every browser, driver and server, then kills whatever they left running. */
  async close(): Promise<void> {
    await this.farm.close().catch((e: Error) => log.warn(`closing the engines: ${e.message}`));
    await this.cases.close();
    await this.guard.close();
    const leftovers = killDescendants();
    if (leftovers) log.warn(`killed ${leftovers} process(es) left behind by the engines`);
  }
}
