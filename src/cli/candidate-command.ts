// `candidate taffy|yoga`: a reference candidate (src/candidates) as a process speaking the
// candidate protocol on stdio (docs/candidate.md), for the campaign to judge or for anyone to pipe
// cases through.
import { Argument, Option, type Command } from 'commander';
import { serveCandidate } from '../candidate-reference/serve.js';
import { REFERENCE_CANDIDATES, type ReferenceCandidate } from '../protocol/candidate-schema.js';

export function registerCandidateCommand(program: Command): void {
  program
    .command('candidate')
    .summary('run a reference candidate (Taffy or Yoga) on stdio, speaking the candidate protocol')
    .description(
      'Reads cases (`{"id", "html"}`) and `{"op": "ping"}` one JSON line at a time on stdin and answers each with one line on ' +
        'stdout: a dump in the contract format, `unsupported` naming what it cannot lay out, or an error. Exits when stdin ends. ' +
        'What each candidate maps: docs/candidate.md.',
    )
    .addArgument(new Argument('<name>', 'the reference candidate').choices(REFERENCE_CANDIDATES))
    .addOption(
      new Option('--fonts <set>', 'the fonts the oracle runs with: under `square` every family is the square font, so any text is measured')
        .choices(['liberation', 'square'])
        .default('liberation'),
    )
    .action(async (name: ReferenceCandidate, flags: { fonts: 'liberation' | 'square' }) => {
      process.exitCode = await serveCandidate(name, flags.fonts, process.stdin, process.stdout);
    });
}
