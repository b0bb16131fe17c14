// browser-oracle as a TypeScript library: launch the engines once, ask typed questions, close.
// Requests and answers are the stdio protocol's own (the TypeBox schemas in src/protocol), so a
// program may switch between the library and the command line without translating anything.
import { checkLaunchOptions, checkRequestOf } from '../protocol/validate.js';
import { decodeAnswer } from '../protocol/wire.js';
import type { EngineName, ProfileName } from '../protocol/common.js';
import { CASE_OPS, namesItsOp, type CaseOp, type RequestOf, type ResponseOf } from '../protocol/ops.js';
import type { FontSetName } from '../protocol/font-sets.js';
import type { Executables, LaunchOptions } from '../protocol/launch-options.js';
import { OracleService } from '../coordinator/oracle-service.js';
import { withDefaults } from '../coordinator/launch-settings.js';

// The commands take their defaults from here, as they take the library.
export { defaultOptions } from '../coordinator/launch-settings.js';

/** A request as the library takes it: the protocol's, with the id optional (one is made up when left out). */
export type Ask<R extends { id: string }> = Omit<R, 'id' | 'op'> & { id?: string };

/**
 * One method per case op of the registry (src/protocol/ops.ts), named after the op: it takes the
 * op's request, without `op` and with the id optional, and answers with the op's response, as a
 * client of the stdio protocol reads it (docs/protocol.md has each op).
 */
type CaseMethods = { readonly [K in CaseOp]: (request: Ask<RequestOf<K>>) => Promise<ResponseOf<K>> };

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
