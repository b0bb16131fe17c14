// `reflect-corpus`: runs a file of reflect requests through an oracle in this process and prints each
// case's agreement. Disagreement between engines is the finding this reports, not a failure:
// exit 0 when every engine answered every case, 1 when some engine errored, 2 on a bad corpus.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { parseRequestLine } from '../protocol/validate.js';
import type { ReflectRequest, ReflectResponse } from '../protocol/reflect-schema.js';
import { voteReflect, type ReflectVoteResult } from '../comparator/reflect-vote.js';
import type { ClusterVerdict } from '../protocol/vote-schema.js';
import { describeObservation } from './pretty.js';
import type { LaunchOptions } from '../protocol/launch-options.js';
import { Oracle, defaultOptions } from '../api/oracle.js';
import { addEngineOptions, launchOptionsOf } from './engine-options.js';

/** The corpus shipped with the repository (this module runs as dist/src/cli/reflect-commands.js). */
export const DEFAULT_CORPUS = fileURLToPath(new URL('../../../corpus/reflect.jsonl', import.meta.url));
const BAD_INPUT = 2;

export interface CorpusResult {
  request: ReflectRequest;
  response: ReflectResponse;
  vote: ReflectVoteResult;
}

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

/** The corpus's requests, each validated as the oracle would; ids must be unique to match answers. */
export function readCorpus(file: string): ReflectRequest[] {
  const requests: ReflectRequest[] = [];
  const ids = new Set<string>();
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (!line.trim()) return;
      const parsed = parseRequestLine(line);
      const where = `${file}:${i + 1}`;
      if (!parsed.ok) throw new Error(`${where}: ${parsed.error.wireText}`);
      if (parsed.op !== 'reflect') throw new Error(`${where}: not a reflect request`);
      const request = parsed.request as ReflectRequest;
      if (ids.has(request.id)) throw new Error(`${where}: id ${JSON.stringify(request.id)} is used twice`);
      ids.add(request.id);
      requests.push(request);
    });
  return requests;
}

/** Runs `requests` on a fresh oracle launched with `options` and votes each answer, in corpus order. */
export async function runCorpus(requests: readonly ReflectRequest[], options: LaunchOptions = { workers: 1 }): Promise<CorpusResult[]> {
  const oracle = await Oracle.launch(options);
  try {
    const responses = await Promise.all(requests.map((request) => oracle.reflect(request)));
    return requests.map((request, i) => ({ request, response: responses[i]!, vote: voteReflect(responses[i]!) }));
  } finally {
    await oracle.close();
  }
}

/** One row per case, its disagreeing observations under it, then the totals. */
export function formatTable(results: readonly CorpusResult[]): string[] {
  const width = Math.max(4, ...results.map((r) => r.request.id.length));
  const lines = [`${'case'.padEnd(width)}  agreement`];
  for (const { request, response, vote } of results) {
    const errors = response.errors ? `  errors: ${JSON.stringify(response.errors)}` : '';
    lines.push(`${request.id.padEnd(width)}  ${vote.verdict}${vote.outlier ? ` (${vote.outlier})` : ''}${errors}`);
    for (const o of vote.observations) if (o.verdict !== 'unanimous') lines.push(`${''.padEnd(width)}    ${describeObservation(o)}`);
  }
  const count = (verdict: ClusterVerdict) => `${results.filter((r) => r.vote.verdict === verdict).length} ${verdict}`;
  lines.push(`${results.length} cases: ${(['unanimous', 'outlier', 'split', 'insufficient'] as const).map(count).join(', ')}`);
  return lines;
}
