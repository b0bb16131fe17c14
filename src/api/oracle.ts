// browser-oracle as a TypeScript library: launch the engines once, ask typed questions, close.
// Requests and answers are the stdio protocol's own (the TypeBox schemas in src/protocol), so a
// program may switch between the library and the command line without translating anything.
import { availableParallelism } from 'node:os';
import { checkLaunchOptions, checkRequestOf } from '../protocol/validate.js';
import { decodeAnswer } from '../protocol/wire.js';
import { ENGINE_NAMES, type EngineName, type ProfileName } from '../protocol/common.js';
import { CASE_OPS, namesItsOp, type CaseOp, type RequestOf, type ResponseOf } from '../protocol/ops.js';
import type { FontSetName } from '../protocol/font-sets.js';
import type { Executables, LaunchOptions } from '../protocol/launch-options.js';
import { OracleService, type OracleOptions } from '../coordinator/oracle-service.js';

/** A request as the library takes it: the protocol's, with the id optional (one is made up when left out). */
export type Ask<R extends { id: string }> = Omit<R, 'id' | 'op'> & { id?: string };

/**
 * One method per case op of the registry (src/protocol/ops.ts), named after the op: it takes the
 * op's request, without `op` and with the id optional, and answers with the op's response, as a
 * client of the stdio protocol reads it (docs/protocol.md has each op).
 */
type CaseMethods = { readonly [K in CaseOp]: (request: Ask<RequestOf<K>>) => Promise<ResponseOf<K>> };

/**
 * The defaults the command line shows in --help. One worker per two cores: measured on 2 cores,
 * one worker with two pages per engine beats two workers, since the browsers use the CPU.
 */
export function defaultOptions(): OracleOptions {
  return {
    engines: [...ENGINE_NAMES],
    profile: 'default',
    fonts: 'liberation',
    // Pinned like the fonts: under the machine's LANG (C.UTF-8 here) WebKitGTK's navigator.language was "C".
    locale: 'en-US',
    timezone: 'UTC',
    workers: Math.max(1, Math.floor(availableParallelism() / 2)),
    pages: 2,
    // Measured with the bench's farm on its corpus (cases/s, two rounds): 32 gave 80 and 73, 64 gave
    // 89 and 82, 128 gave 102 and 87. 64 keeps a batch that fails as a whole (each case then run
    // again alone) at half of 128's cost.
    maxBatch: 64,
    // A case leaves a worker only when its slowest engine is done: a window of 2 × pages × max-batch
    // (what it was) left the fastest engine's queue empty while the slowest finished, so its
    // batches shrank to a few cases. docs/benchmarks.md, "Levers", has the figures.
    window: 512,
    timeoutMs: 30_000,
    maxNodes: 50_000,
    maxAnswerBytes: 256 * 1024 * 1024,
    // docs/protocol.md, "Memory": far above what an engine holds idle or on the largest case the
    // suite runs, and three of them still fit a small machine.
    maxEngineMemory: 2 * 1024 * 1024 * 1024,
    browsers: 'auto',
    display: undefined,
    allowMissingEngines: false,
    paths: {},
    extra: {},
  };
}

/** `options` over the defaults; a field left out, or given as undefined, keeps its default. */
export function withDefaults(options: LaunchOptions): OracleOptions {
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return { ...defaultOptions(), ...given };
}

// The methods are installed from the registry, in the class's static block; the interface gives them their types.
export interface Oracle extends CaseMethods {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the static block installs every member the interface above declares.
export class Oracle {
  static {
    for (const op of CASE_OPS) {
      Object.defineProperty(Oracle.prototype, op, {
        value(this: Oracle, request: Ask<RequestOf<typeof op>>) {
          return this.ask(op, request);
        },
        writable: true,
        configurable: true,
      });
    }
  }

  private next = 0;

  private constructor(private readonly service: OracleService) {}

  /**
   * Launches the engines; one that cannot start is left out (see `engines`), with its reason on
   * stderr. Options that cannot be used (a bad field, a missing executable) reject with a ConfigError.
   */
  static async launch(options: LaunchOptions = {}): Promise<Oracle> {
    return new Oracle(await OracleService.start(withDefaults(checkLaunchOptions(options, 'launch options'))));
  }

  /** The engines that launched. */
  get engines(): EngineName[] {
    return this.service.engines;
  }

  /** Each launched engine's exact build. */
  get versions(): Partial<Record<EngineName, string>> {
    return this.service.versions;
  }

  get profile(): ProfileName {
    return this.service.profile;
  }

  /** The font set every engine was started with. */
  get fonts(): FontSetName {
    return this.service.fonts;
  }

  /** The executables the launched engines run, as `ping` reports them. */
  get paths(): Executables {
    return this.service.paths;
  }

  /** Closes every browser, driver and server the oracle started. */
  close(): Promise<void> {
    return this.service.close();
  }

  /** Validates `request` as a request of `op`, runs it, and answers with the plain response a client of the stdio protocol would read. */
  private async ask<K extends CaseOp>(op: K, request: Ask<RequestOf<K>>): Promise<ResponseOf<K>> {
    // An `op` a JavaScript caller put in the request is not the method's: the method names the op.
    const { op: _, ...fields } = request as Ask<RequestOf<K>> & { op?: unknown };
    const id = request.id ?? `library-${this.next++}`;
    const parsed = checkRequestOf(op, { ...fields, id, ...(namesItsOp(op) ? { op } : {}) }, id);
    if (!parsed.ok) throw parsed.error;
    const { answer } = await this.service.run(parsed.op, parsed.request);
    return decodeAnswer<ResponseOf<K>>(answer);
  }
}
