// The coordinator: reads request lines, validates them, schedules cases onto the engine farm
// with a bound on cases in flight, and writes exactly one response line per request.
import PQueue from 'p-queue';
import type { EngineName, ProfileName, Request } from '../protocol/schema.js';
import { parseRequestLine } from '../protocol/validate.js';
import { OracleError, errorWireText } from '../protocol/errors.js';
import type { LaunchOptions } from '../workers/engine.js';
import { CaseServer } from './case-server.js';
import { EgressGuard } from './egress-guard.js';
import { EngineFarm } from './engine-farm.js';
import { readLines, type InputLine } from './line-reader.js';
import { LineWriter } from './output.js';
import { startXvfb, type Display } from '../system/xvfb.js';
import { killDescendants, killStrays } from '../system/processes.js';
import { CONFIG_DIR } from '../system/paths.js';
import { log } from '../system/log.js';
import { perEngineJson, type CaseContext } from './schedule.js';
import { geometryOp, voteOp } from './geometry-op.js';
import { reflectOp } from './reflect-op.js';
import { traceOp } from './trace-op.js';

/** Request kinds that run a case on the engines: op → handler answering with the response line. */
const CASE_OPS = {
  geometry: geometryOp,
  vote: voteOp,
  reflect: reflectOp,
  trace: traceOp,
};

export interface OracleOptions {
  engines: EngineName[];
  profile: ProfileName;
  workers: number;
  pages: number;
  timeoutMs: number;
  maxLineBytes: number;
  browsers: LaunchOptions['browsers'];
  display: string | undefined;
}

const json = JSON.stringify;

export async function serve(options: OracleOptions): Promise<number> {
  const stdin = process.stdin;
  let display: Display | undefined;
  let cases: CaseServer | undefined;
  let guard: EgressGuard | undefined;
  let farm: EngineFarm | undefined;
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${why}: finishing cases in flight, then closing browsers`);
    stdin.destroy();
  };
  const onSignal = (signal: string) => () => stop(`received ${signal}`);
  process.once('SIGTERM', onSignal('SIGTERM'));
  process.once('SIGINT', onSignal('SIGINT'));
  const writer = new LineWriter(process.stdout, () => stop('stdout closed'));

  try {
    const strays = killStrays();
    if (strays) log.warn(`killed ${strays} process(es) left behind by an earlier oracle that was killed`);
    if (options.engines.includes('webkit') && !options.display && options.browsers !== 'bundled') {
      display = await startXvfb().catch((error: Error) => (log.error(`webkit will not run: ${error.message}`), undefined));
    }
    cases = await CaseServer.start();
    guard = await EgressGuard.start();
    farm = await EngineFarm.start({
      engines: options.engines,
      workers: options.workers,
      pages: options.pages,
      launch: { profile: options.profile, display: options.display ?? display?.name, configDir: CONFIG_DIR, proxyUrl: guard.proxyUrl, browsers: options.browsers },
    });
    const launched = farm.engines;
    log.info(`ready: ${launched.map((e) => `${e} ${farm!.versions[e]}`).join(', ') || 'no engine'}; ` +
      `${options.workers} worker(s) × ${options.pages} page(s) per engine; profile ${options.profile}`);
    for (const e of options.engines) if (!launched.includes(e)) log.warn(`${e} did not launch; requests naming it get "engine_not_launched"`);

    // `queue` keeps the farm busy; `admitted` bounds every request between being read and its
    // answer being handed to stdout, so neither a fast writer nor a slow reader grows memory.
    const queue = new PQueue({ concurrency: options.workers * options.pages });
    const admitted = new PQueue({ concurrency: 2 * queue.concurrency });
    const respond = (line: string) => writer.write(line);
    const context: CaseContext = { farm, cases, queue, timeoutMs: options.timeoutMs };

    let shutdownId: string | undefined;
    try {
      for await (const input of readLines(stdin, options.maxLineBytes)) {
        const parsed = parse(input, options.maxLineBytes);
        // Immediate answers wait for stdout too, so they cannot pile up behind a slow reader.
        if (!parsed.ok) {
          await respond(json({ id: parsed.id, error: parsed.error.wireText }));
        } else if (parsed.op === 'ping') {
          await respond(`{"id":${json(parsed.request.id)},"ok":true,"engines":${json(launched)},"versions":${perEngineJson(farm.versions)},"profile":${json(options.profile)}}`);
        } else if (parsed.op === 'shutdown') {
          shutdownId = parsed.request.id;
          break;
        } else {
          const handle = CASE_OPS[parsed.op] as (request: Request, ctx: CaseContext) => Promise<string>;
          const { id } = parsed.request;
          void admitted.add(() =>
            handle(parsed.request, context)
              .catch((error: unknown) => json({ id, error: errorWireText(error) }))
              .then(respond),
          );
        }
        // Backpressure: read no further while the admitted requests (running, or waiting for
        // stdout) are at their bound.
        if (admitted.size > 0) await admitted.onSizeLessThan(1);
        if (stopping) break;
      }
    } catch (error) {
      if (!stopping) throw error;
    }
    await admitted.onIdle();
    if (shutdownId !== undefined) await respond(`{"id":${json(shutdownId)},"ok":true}`);
    await writer.flush();
    return 0;
  } finally {
    await farm?.close().catch((e: Error) => log.warn(`closing the engines: ${e.message}`));
    await cases?.close();
    await guard?.close();
    await display?.stop();
    const leftovers = killDescendants();
    if (leftovers) log.warn(`killed ${leftovers} process(es) left behind by the engines`);
  }
}

function parse(input: InputLine, maxLineBytes: number) {
  if ('bytes' in input) return parseRequestLine(input.bytes);
  const id = /"id"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(input.head.toString('utf8'))?.[1];
  return {
    ok: false as const,
    id: id ? (JSON.parse(id) as string) : null,
    error: new OracleError('line_too_long', `the line has ${input.length} bytes; the limit is ${maxLineBytes} (--max-line-bytes)`),
  };
}
