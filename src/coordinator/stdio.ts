// The stdio oracle: request lines in, one answer line out per request, in completion order.
// Requests are validated as they are read and admitted under a bound, so neither a fast client
// nor a slow reader grows memory; shutdown, end of input and SIGTERM/SIGINT all finish the cases
// in flight before the engines close. The cases are answered by a CaseService: the engines in
// this process (OracleService), or the workers of a queue (src/queue); either way every answer
// becomes a line here, through answerLine.
import PQueue from 'p-queue';
import { isCaseRequest, parseRequestLine, type Parsed, type Valid } from '../protocol/validate.js';
import { OracleError, errorWireText } from '../protocol/errors.js';
import { answerLine } from '../protocol/wire.js';
import { log } from '../system/log.js';
import { readLines, type InputLine } from './line-reader.js';
import { LineWriter } from './output.js';
import type { AnswerFields, CaseOp, RequestOf } from '../protocol/ops.js';
import type { WireValue } from '../protocol/wire.js';
import { OracleService, admission, type Answered, type OracleOptions, type RunOptions } from './oracle-service.js';

export interface StdioOptions extends OracleOptions {
  maxLineBytes: number;
}

/** What answers the stdio oracle's requests. */
export interface CaseService {
  /** Answers one case request; never rejects for the case's own failures. `options` may be ignored (a queue's answers come as lines). */
  run<K extends CaseOp>(op: K, request: RequestOf<K>, options?: RunOptions): Promise<Answered<K>>;
  /** The ping answer's fields beside the id: at once, or (a queue) once a worker has answered. */
  ping(): AnswerFields<'ping'> | Promise<AnswerFields<'ping'>>;
  close(): Promise<void>;
}

/** Runs a valid case request: generic, so that its op and its request stay tied to each other. */
const runValid = <K extends CaseOp>(oracle: CaseService, valid: Valid<K>) => oracle.run(valid.op, valid.request);

type Line = { readonly [key: string]: WireValue | undefined };

/** The stdio oracle with the engines in this process. */
export function serve(options: StdioOptions): Promise<number> {
  return serveWith({ maxLineBytes: options.maxLineBytes, admission: admission(options) }, async () => {
    const oracle = await OracleService.start(options);
    log.info(
      `ready: ${oracle.engines.map((e) => `${e} ${oracle.versions[e]}`).join(', ') || 'no engine'}; ` +
        `${options.workers} worker(s) × ${options.pages} page(s) per engine; profile ${options.profile}; fonts ${options.fonts}`,
    );
    return oracle;
  });
}

/**
 * The stdio loop over the service `start` gives (undefined: `stopped` was aborted before it
 * could start, and there is nothing to serve). `admission` bounds the requests between being
 * read and being answered: twice what the engines take at once, so the farm has the next cases
 * at hand while answers are written; with a queue, the jobs it keeps outstanding.
 */
export async function serveWith(
  options: { maxLineBytes: number; admission: number },
  start: (stopped: AbortSignal) => Promise<CaseService | undefined>,
): Promise<number> {
  const stdin = process.stdin;
  const stopped = new AbortController();
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${why}: finishing cases in flight, then closing browsers`);
    stopped.abort();
    stdin.destroy();
  };
  process.once('SIGTERM', () => stop('received SIGTERM'));
  process.once('SIGINT', () => stop('received SIGINT'));
  const writer = new LineWriter(process.stdout, () => stop('stdout closed'));
  const respond = (answer: Line) => writer.write(answerLine(answer));

  const oracle = await start(stopped.signal);
  if (!oracle) return 0;
  try {
    // Every request between being read and its answer being handed to stdout counts against this bound.
    const admitted = new PQueue({ concurrency: options.admission });
    let shutdownId: string | undefined;
    try {
      for await (const input of readLines(stdin, options.maxLineBytes)) {
        const parsed = parse(input, options.maxLineBytes);
        // Immediate answers wait for stdout too, so they cannot pile up behind a slow reader.
        if (!parsed.ok) await respond({ id: parsed.id, error: parsed.error.wireText });
        else if (parsed.op === 'ping') {
          const { id } = parsed.request;
          const pong = oracle.ping();
          // A queue's ping waits for a worker: it is admitted like a case, and reading goes on.
          if (pong instanceof Promise)
            void admitted.add(() =>
              pong
                .then((fields): Line => ({ id, ...fields }))
                .catch((error: unknown): Line => ({ id, error: errorWireText(error) }))
                .then(respond),
            );
          else await respond({ id, ...pong });
        } else if (parsed.op === 'shutdown') {
          shutdownId = parsed.request.id;
          break;
        } else if (isCaseRequest(parsed)) {
          const { id } = parsed.request;
          void admitted.add(() =>
            runValid(oracle, parsed)
              .then(({ answer }): Line => answer)
              .catch((error: unknown): Line => ({ id, error: errorWireText(error) }))
              .then(respond),
          );
        }
        // Backpressure: read no further while the admitted requests are at their bound.
        if (admitted.size > 0) await admitted.onSizeLessThan(1);
        if (stopping) break;
      }
    } catch (error) {
      if (!stopping) throw error;
    }
    await admitted.onIdle();
    if (shutdownId !== undefined) await respond({ id: shutdownId, ok: true });
    await writer.flush();
    return 0;
  } finally {
    await oracle.close();
  }
}

function parse(input: InputLine, maxLineBytes: number): Parsed {
  if ('bytes' in input) return parseRequestLine(input.bytes);
  // The one id read out of JSON text with a regular expression, and the one place it is right: a
  // line over the limit is never parsed (that is what the limit is for), only its head is kept,
  // and its answer is better with the id it most likely carries than with none.
  const id = /"id"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(input.head.toString('utf8'))?.[1];
  return {
    ok: false,
    id: id ? (JSON.parse(id) as string) : null,
    error: new OracleError('line_too_long', `the line has ${input.length} bytes; the limit is ${maxLineBytes} (--max-line-bytes)`),
  };
}
