// browser-oracle as a TypeScript library: launch the engines once, ask typed questions, close.
// Requests and answers are the stdio protocol's own (the TypeBox schemas in src/protocol), so a
// program may switch between the library and the command line without translating anything.
import { availableParallelism } from 'node:os';
import { OracleError } from '../protocol/errors.js';
import { checkLaunchOptions, checkRequest } from '../protocol/validate.js';
import { answerLine } from '../protocol/wire.js';
import { ENGINE_NAMES, type EngineName, type ProfileName } from '../protocol/common.js';
import type { FontSetName } from '../protocol/font-sets.js';
import type { Executables, LaunchOptions } from '../protocol/launch-options.js';
import type { GeometryRequest, GeometryResponse, ReflectRequest, ReflectResponse, VoteRequest, VoteResponse } from '../protocol/schema.js';
import type { TraceRequest, TraceResponse } from '../protocol/trace-schema.js';
import type { ScreenshotRequest, ScreenshotResponse } from '../protocol/screenshot-schema.js';
import { OracleService, isCaseOp, type Answer, type OracleOptions } from '../coordinator/oracle-service.js';

/** A request as the library takes it: the protocol's, with the id optional (one is made up when left out). */
export type Ask<R extends { id: string }> = Omit<R, 'id' | 'op'> & { id?: string };

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

export class Oracle {
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

  /** Every element's boxes, fragments and computed style, per engine. */
  geometry(request: Ask<GeometryRequest>): Promise<GeometryResponse> {
    return this.ask({ ...request, op: undefined }) as Promise<GeometryResponse>;
  }

  /** The three-way vote on a geometry case (with the dumps when `dumps: true`). */
  vote(request: Ask<VoteRequest>): Promise<VoteResponse> {
    return this.ask({ ...request, op: 'vote' }) as Promise<VoteResponse>;
  }

  /** Content attributes beside the IDL properties reflecting them, per engine. */
  reflect(request: Ask<ReflectRequest>): Promise<ReflectResponse> {
    return this.ask({ ...request, op: 'reflect' }) as Promise<ReflectResponse>;
  }

  /** What a script observed, canonicalized, per engine. */
  trace(request: Ask<TraceRequest>): Promise<TraceResponse> {
    return this.ask({ ...request, op: 'trace' }) as Promise<TraceResponse>;
  }

  /** A PNG (base64) of each engine's 800×600 viewport after the case's load, fonts and script. */
  screenshot(request: Ask<ScreenshotRequest>): Promise<ScreenshotResponse> {
    return this.ask({ ...request, op: 'screenshot' }) as Promise<ScreenshotResponse>;
  }

  /** Closes every browser, driver and server the oracle started. */
  close(): Promise<void> {
    return this.service.close();
  }

  private async ask(request: Record<string, unknown>): Promise<object> {
    const value: Record<string, unknown> = { ...request, id: request.id ?? `library-${this.next++}` };
    if (value.op === undefined) delete value.op;
    const parsed = checkRequest(value);
    if (!parsed.ok) throw parsed.error;
    if (!isCaseOp(parsed.op)) throw new OracleError('invalid_request', `field "op": ${parsed.op} is not a case`);
    return decode(await this.service.run(parsed.op, parsed.request));
  }
}

/** An answer as the plain object a client of the stdio protocol would parse from its line. */
function decode(answer: Answer): object {
  return JSON.parse(answerLine(answer).join('')) as object;
}
