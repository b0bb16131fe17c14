// `compare` and `vote`: their arguments and help; src/tools/judge/session.ts reads, judges (through
// src/api/judge.ts) and prints. A single JSON input is answered by one JSON object on stdout (or a
// human summary with --pretty); a batch — an NDJSON file, or `-` for stdin — by one line per input line, an
// unusable line by an error line, and the batch goes on. Exit status: 0 when every verdict is
// pass / unanimous, 1 otherwise, 2 when an input (or any line of a batch) cannot be used.
import type { Command } from 'commander';
import { BAD_INPUT, BadInput, judgeFiles, type Judging } from '../tools/judge/session.js';

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
    run(compareCommand, opts.pretty, () => {
      if (opts.candidate !== undefined) {
        if (b !== undefined) throw new BadInput('with --candidate, give exactly one oracle response file');
        return { kind: 'candidate', candidate: opts.candidate, response: file };
      }
      if (b === undefined) throw new BadInput('give two dump files, or --candidate CANDIDATE.json RESPONSE.json');
      return { kind: 'compare', a: file, b };
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
  voteCommand.action((file: string, opts: { pretty?: boolean }) => run(voteCommand, opts.pretty, () => ({ kind: 'vote', response: file })));

  for (const command of [compareCommand, voteCommand]) {
    // A usage error is bad input too; help (exit code 0) stays 0.
    command.exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : BAD_INPUT));
  }
}

/** Judges what `judging` names and sets the exit status; an unusable input is one line on stderr, exit 2. */
async function run(command: Command, pretty: boolean | undefined, judging: () => Judging): Promise<void> {
  try {
    process.exitCode = await judgeFiles(judging(), pretty === true);
  } catch (error) {
    if (!(error instanceof BadInput)) throw error;
    command.error(`${command.name()}: ${error.message}`, { exitCode: BAD_INPUT });
  }
}
