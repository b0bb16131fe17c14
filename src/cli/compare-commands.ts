// `compare` and `vote`: the comparator on files, for people and scripts (src/api/judge.ts does
// the judging). A single JSON input is answered by one JSON object on stdout (or a human summary
// with --pretty); a batch — an NDJSON file, or `-` for stdin — by one line per input line, an
// unusable line by an error line, and the batch goes on. Exit status: 0 when every verdict is
// pass / unanimous, 1 otherwise, 2 when an input (or any line of a batch) cannot be used.
import { once } from 'node:events';
import type { Command } from 'commander';
import { agrees, compare, compareCandidate, InvalidInputError, vote, type AnyDump } from '../api/judge.js';
import type { GeometryResponse } from '../protocol/geometry-schema.js';
import { BadInput, openInput, type BatchItem } from './judge-input.js';
import { prettyCandidate, prettyCompare, prettyReflectVote, prettyTraceVote, prettyVote } from './pretty.js';
import { visible } from '../system/visible-text.js';

const BAD_INPUT = 2;

interface Outcome {
  /** A verdict (compare's, candidate's or a vote's), or why a batch line cannot be judged. */
  json: ({ verdict: string } | { error: string }) & { line?: number; id?: string };
  pretty: () => string[];
}

/** Judges one input, or two; throws InvalidInputError naming the argument that cannot be used. */
type Judge = (values: unknown[]) => Outcome;

/** The judged inputs, as the library names its arguments, and the file each was read from. */
type Arguments = [name: string, file: string][];

const BATCH_HELP =
  'A file may hold one JSON document, or one JSON value per line (NDJSON); `-` reads NDJSON from stdin. ' +
  'A batch is answered line by line: {"line": N, ...the verdict} per input line (blank lines skipped), ' +
  '{"line": N, "error": "..."} for a line that cannot be used, and the batch goes on.';

export function registerCompareCommands(program: Command): void {
  const compareCommand = program
    .command('compare')
    .summary('compare two dumps, or a candidate dump against an oracle response')
    .description(
      'Compare two dumps by the contract rules: the same DOM shape, then box and fragment sizes ' +
        'and box offsets relative to the parent, each within 1/60 px; computed styles are ' +
        'reported separately. With --candidate, compare the candidate with every engine of an ' +
        "oracle response and judge it against the engines' majority. " +
        BATCH_HELP +
        " Two batches pair up in order, record N of one with record N of the other; `line` is the first one's.",
    )
    .usage('[--pretty] A.json B.json | [--pretty] --candidate CANDIDATE.json RESPONSE.json')
    .argument('<file>', 'a dump (A.json), or with --candidate an oracle response (RESPONSE.json); or NDJSON of them, or -')
    .argument('[b]', 'the dump to compare it with (B.json), or NDJSON of them, or -')
    .option('--candidate <file>', 'a dump from the engine under test (any engine name), or NDJSON of them, or -')
    .option('--pretty', 'print a human summary instead of JSON')
    .addHelpText(
      'after',
      '\nExit status: 0 pass (for a batch: every line), 1 any other verdict, 2 unusable input (a file, or any line of a batch).\n' +
        'Deltas are b − a (with --candidate: candidate − engine). Fields: src/comparator/compare.ts, candidate.ts.',
    );
  compareCommand.action((file: string, b: string | undefined, opts: { candidate?: string; pretty?: boolean }) =>
    run(compareCommand, opts.pretty, async () => {
      if (opts.candidate === undefined) {
        if (b === undefined) throw new BadInput('give two dump files, or --candidate CANDIDATE.json RESPONSE.json');
        return [
          [
            ['a', file],
            ['b', b],
          ],
          ([x, y]) => compareOutcome(x, y, [file, b]),
        ];
      }
      if (b !== undefined) throw new BadInput('with --candidate, give exactly one oracle response file');
      return [
        [
          ['candidate', opts.candidate],
          ['response', file],
        ],
        ([x, y]) => candidateOutcome(x, y),
      ];
    }),
  );

  const voteCommand = program
    .command('vote')
    .summary("vote on the engines' dumps (or reflection states, or traces) in oracle responses")
    .description(
      'Compare every pair of usable engines in an oracle response and cluster them: unanimous, ' +
        'one outlier, split, or insufficient (fewer than 3 usable engines; an engine that errored ' +
        'or whose document overflowed the viewport does not vote). A reflect response (one with ' +
        '"states") is voted per observation, values matching exactly; a trace response per record; ' +
        'a vote response is answered with the vote it carries. ' +
        BATCH_HELP +
        ' A batch line also carries the id of the response it judges.',
    )
    .argument('<response>', 'a file holding one oracle response, or NDJSON of them, or - for stdin')
    .option('--pretty', 'print a human summary instead of JSON')
    .addHelpText(
      'after',
      '\nExit status: 0 unanimous (for a batch: every line), 1 any other verdict, 2 unusable input (a file, or any line of a batch).\n' +
        'Fields: src/comparator/vote.ts, reflect-vote.ts, trace-vote.ts.',
    );
  voteCommand.action((file: string, opts: { pretty?: boolean }) =>
    run(voteCommand, opts.pretty, async () => [[['response', file]], ([response]) => voteOutcome(response)]),
  );

  for (const command of [compareCommand, voteCommand]) {
    // A usage error is bad input too; help (exit code 0) stays 0.
    command.exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : BAD_INPUT));
  }
}

/** Reads the inputs `setup` names, judges them (once, or line by line), prints each outcome and sets the exit status. */
async function run(command: Command, pretty: boolean | undefined, setup: () => Promise<[Arguments, Judge]>): Promise<void> {
  let status = 0;
  try {
    const [args, judge] = await setup();
    for await (const outcome of outcomes(args, judge)) {
      if ('error' in outcome.json) status = BAD_INPUT;
      else if (!agrees(outcome.json) && status === 0) status = 1;
      // Each --pretty line is one line of text, whatever a dump's engine name, tags or values hold.
      const text = pretty
        ? outcome
            .pretty()
            .map((line) => visible(line))
            .join('\n') + '\n'
        : JSON.stringify(outcome.json) + '\n';
      if (!process.stdout.write(text)) await once(process.stdout, 'drain');
    }
  } catch (error) {
    if (!(error instanceof BadInput)) throw error;
    return command.error(`${command.name()}: ${error.message}`, { exitCode: BAD_INPUT });
  }
  process.exitCode = status;
}

/** An input's name in a message. */
const shown = (file: string) => (file === '-' ? 'stdin' : file);

/** `file is not a dump: …`: the library's complaint, naming the file instead of the argument. */
function inFile(error: InvalidInputError, args: Arguments): string {
  const file = args.find(([name]) => name === error.argument)?.[1];
  return `${file === undefined ? error.argument : shown(file)} is not ${error.what}: ${error.detail}`;
}

/**
 * Single documents are judged once: one that cannot be used is a BadInput (stderr, exit 2).
 * Batches are judged line by line, records paired in order when there are two inputs; a line that
 * cannot be used (not JSON, not the kind expected, without a partner) is answered by an error line.
 */
async function* outcomes(args: Arguments, judge: Judge): AsyncGenerator<Outcome> {
  if (args.filter(([, file]) => file === '-').length > 1) throw new BadInput('only one input can be stdin (-)');
  const inputs = [];
  for (const [, file] of args) inputs.push(await openInput(file));
  const files = args.map(([, file]) => shown(file));
  if (inputs.every((input) => input.kind === 'single')) {
    try {
      yield judge(inputs.map((input) => (input.kind === 'single' ? input.value : undefined)));
    } catch (error) {
      if (error instanceof InvalidInputError) throw new BadInput(inFile(error, args));
      throw error;
    }
    return;
  }
  const iterators = inputs.map((input, i) => {
    if (input.kind === 'batch') return input.items;
    throw new BadInput(`${files[i]} holds one document, but ${files[1 - i]} is a batch: give two of one kind`);
  });
  for (;;) {
    const next = await Promise.all(iterators.map((items) => items.next()));
    if (next.every((n) => n.done)) return;
    const items = next.map((n) => (n.done ? undefined : n.value));
    const line = (items[0] ?? items[1]!).line;
    const missing = items.indexOf(undefined);
    const broken = items.find((item): item is Extract<BatchItem, { error: string }> => item !== undefined && 'error' in item);
    const values = items.map((item) => (item && 'value' in item ? item.value : undefined));
    const id = args.length === 1 ? idOf(values[0]) : undefined;
    if (missing >= 0) yield errorLine(line, undefined, `${files[missing]} has no record to pair with ${files[1 - missing]} line ${line}`);
    else if (broken) yield errorLine(line, id, broken === items[0] ? broken.error : `${files[1]} line ${broken.line}: ${broken.error}`);
    else {
      try {
        const { json, pretty } = judge(values);
        const at = `line ${line}${id ? ` (${id})` : ''}:`;
        yield { json: { line, ...(id ? { id } : {}), ...json }, pretty: () => [at, ...pretty().map((l) => `  ${l}`)] };
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        yield errorLine(line, id, inFile(error, args));
      }
    }
  }
}

const idOf = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string'
    ? (value as { id: string }).id
    : undefined;

function errorLine(line: number, id: string | undefined, error: string): Outcome {
  return {
    json: { line, ...(id ? { id } : {}), error },
    pretty: () => [`line ${line}${id ? ` (${id})` : ''}: ${error}`],
  };
}

function voteOutcome(response: unknown): Outcome {
  const result = vote(response);
  if ('observations' in result) return { json: result, pretty: () => prettyReflectVote(result) };
  if ('records' in result) return { json: result, pretty: () => prettyTraceVote(result) };
  return { json: result, pretty: () => prettyVote(result) };
}

function compareOutcome(a: unknown, b: unknown, files: [string, string]): Outcome {
  const result = compare(a as AnyDump, b as AnyDump);
  return { json: result, pretty: () => prettyCompare(`${result.a} (${files[0]}) → ${result.b} (${files[1]})`, result, a as AnyDump) };
}

function candidateOutcome(candidate: unknown, response: unknown): Outcome {
  const result = compareCandidate(candidate as AnyDump, response as GeometryResponse);
  return { json: result, pretty: () => prettyCandidate(result.candidate, result, response as GeometryResponse) };
}
