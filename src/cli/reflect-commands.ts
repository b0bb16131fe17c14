// `reflect-corpus`: runs a file of reflect requests through an oracle in this process and prints each
// case's agreement (src/tools/reflect-corpus/session.ts). Disagreement between engines is the finding
// this reports, not a failure: exit 0 when every engine answered every case, 1 when some engine
// errored, 2 on a bad corpus.
import type { Command } from 'commander';
import { defaultOptions } from '../api/oracle.js';
import { DEFAULT_CORPUS, formatTable, readCorpus, runCorpus } from '../tools/reflect-corpus/session.js';
import type { ReflectRequest } from '../protocol/reflect-schema.js';
import { addEngineOptions, launchOptionsOf } from './engine-options.js';

const BAD_INPUT = 2;

export function registerReflectCommands(program: Command): void {
  const command = program
    .command('reflect-corpus')
    .summary('run reflect cases through the three engines and print per-case agreement')
    .description(
      'Start an oracle, send it every reflect request in FILE (one JSON request per line; blank lines ' +
        'skipped), vote on each answer per observation, and print one row per case: unanimous, outlier ' +
        '(naming the engine) or split, with the observations the engines disagree on.',
    )
    .argument('[file]', 'the corpus', DEFAULT_CORPUS)
    .addHelpText('after', '\nExit status: 0 every engine answered every case, 1 some engine errored, 2 unusable corpus.');
  // One worker: the cases are small.
  const defaults = { ...defaultOptions(), workers: 1 };
  addEngineOptions(command, defaults);
  command.action(async (file: string) => {
    let requests: ReflectRequest[];
    try {
      requests = readCorpus(file);
    } catch (error) {
      return command.error(`reflect-corpus: ${(error as Error).message}`, { exitCode: BAD_INPUT });
    }
    const results = await runCorpus(requests, launchOptionsOf(command, defaults));
    process.stdout.write(formatTable(results).join('\n') + '\n');
    process.exitCode = results.some((r) => r.response.errors) ? 1 : 0;
  });
}
