// The queue's side of the command line: `worker` (this machine's engines serving a queue), the
// --queue option that `campaign` and the stdio oracle take, and the stdio oracle on a queue.
// Engines run on the workers then, so engine flags given beside --queue are a mistake.
import { type Command, Option } from 'commander';
import { defaultOptions } from '../api/oracle.js';
import { admission } from '../coordinator/oracle-service.js';
import { serveWith } from '../coordinator/stdio.js';
import { ConfigError } from '../protocol/errors.js';
import { queueUrl, shown } from '../queue/connection.js';
import { QueueOracle } from '../queue/queue-oracle.js';
import { runWorker } from '../queue/worker.js';
import { log } from '../system/log.js';
import { wholeNumber } from './arguments.js';
import { addEngineOptions, engineFlagsGiven, launchOptionsOf } from './engine-options.js';

/**
 * Jobs a submitter keeps in Redis at once unless told otherwise. Every worker holds as many as
 * its oracle keeps in hand (128 on two cores), and one without jobs idles: enough for eight.
 */
export const QUEUE_OUTSTANDING = 1024;

const URL_HELP =
  'redis://[:PASSWORD@]HOST[:PORT][/DB], or rediss:// for TLS; the password may come from $BROWSER_ORACLE_REDIS_PASSWORD instead';

/** The --queue option: a Redis URL, checked by queueUrl in the action (commander's own message would show a password). */
export function queueOption(description: string): Option {
  return new Option('--queue <url>', `${description} (${URL_HELP})`);
}

/** Refuses engine flags beside --queue: the workers start the engines, each with its own flags. */
export function refuseEngineFlags(command: Command): void {
  const given = engineFlagsGiven(command);
  if (given.length)
    throw new ConfigError(
      `${given.join(', ')}: with --queue the engines run on the workers; give engine options to \`browser-oracle worker\``,
    );
}

/** The stdio oracle with its cases answered by the queue's workers. */
export function serveOnQueue(url: URL, maxLineBytes: number): Promise<number> {
  return serveWith({ maxLineBytes, admission: QUEUE_OUTSTANDING }, async (stopped) => {
    const oracle = await QueueOracle.open(url, { outstanding: QUEUE_OUTSTANDING }, stopped);
    if (oracle) log.info(`ready: cases go to the workers of ${shown(url)}, at most ${QUEUE_OUTSTANDING} at a time`);
    return oracle;
  });
}

export function registerWorkerCommand(program: Command): void {
  const defaults = defaultOptions();
  const worker = addEngineOptions(
    program
      .command('worker')
      .summary("serve a queue's cases with this machine's engines")
      .description(
        'Takes cases from the queue in Redis, runs each on the engines of this machine (a stdio oracle in its own network ' +
          'namespace, started with the engine options given here) and posts each answer, votes included, with this ' +
          "machine's name and engine versions. Run one on each machine; `campaign --queue` and `browser-oracle --queue` " +
          'submit the cases. Ctrl-C (or SIGTERM) stops taking cases and finishes those in hand. README.md, "More than one machine".',
      ),
    defaults,
  )
    .addOption(queueOption('the queue to serve').makeOptionMandatory())
    .addOption(
      new Option('--concurrency <n>', 'cases taken at once (default: 2 × workers × window, what the oracle keeps in hand)').argParser(
        wholeNumber('--concurrency'),
      ),
    )
    .addHelpText('after', '\nExit status: 0 stopped by a signal; 1 the engines did not start, or stopped.');
  worker.action(async (flags: { queue: string; concurrency?: number }) => {
    const url = queueUrl(flags.queue);
    const oracle = launchOptionsOf(worker, defaults);
    const stop = new AbortController();
    const onSignal = (signal: NodeJS.Signals) => {
      if (!stop.signal.aborted) {
        log.info(
          `${signal}: taking no new case, finishing the cases in hand, then closing the engines (${signal} again leaves them to the queue)`,
        );
        stop.abort();
        return;
      }
      // The cases in hand go back to the queue by BullMQ's stall check; the engines' oracle sees
      // its input end and closes its browsers.
      log.info(`${signal}: leaving the cases in hand to the queue`);
      process.exit(1);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const code = await runWorker({ url, oracle, concurrency: flags.concurrency ?? admission(oracle), stop: stop.signal });
    // BullMQ may still hold connections retrying a Redis that is away: nothing of ours is left to wait for.
    process.exit(code);
  });
}
