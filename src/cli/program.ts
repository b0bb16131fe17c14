// The `browser-oracle` command line: with no command, the stdio oracle; the commands judge its
// answers (compare, vote), run the built-in reflection corpus and probes, and run campaigns.
// Built by a function, so a test or an embedding program gets a fresh program without parsing
// anything at import.
import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { baseProgram } from './base-program.js';
import { serve } from '../coordinator/stdio.js';
import { PACKAGE_ROOT } from '../system/paths.js';
import { defaultOptions } from '../api/oracle.js';
import { OP_NAMES } from '../protocol/ops.js';
import { wholeNumber } from './arguments.js';
import { registerCampaignCommands } from './campaign-commands.js';
import { registerCandidateCommand } from './candidate-command.js';
import { registerCompareCommands } from './compare-commands.js';
import { registerDiffCommand } from './diff-command.js';
import { registerExportCommand } from './export-command.js';
import { addEngineOptions, launchOptionsOf } from './engine-options.js';
import { registerProbeCommands } from './probe-commands.js';
import { registerReflectCommands } from './reflect-commands.js';
import { queueOption, refuseEngineFlags, registerWorkerCommand, serveOnQueue } from './queue-commands.js';
import { queueUrl } from '../queue/connection.js';
import { registerReduceCommand } from './reduce-command.js';
import { registerReportCommand } from './report-command.js';
import { registerTriageCommand } from './triage-command.js';
import { registerWptCommand } from './wpt-command.js';
import { registerWptParityCommand } from './wpt-parity-command.js';

const { version } = JSON.parse(readFileSync(`${PACKAGE_ROOT}package.json`, 'utf8')) as { version: string };

export function buildProgram(): Command {
  const program = baseProgram()
    .description(
      `Ground-truth layout oracle. With no command: reads one JSON request per line on stdin (${OP_NAMES.join(', ')}) and answers ` +
        'one JSON line per request on stdout, in completion order, each with its id; diagnostics go to stderr. ' +
        'Protocol: docs/protocol.md; JSON Schema: schema/protocol.schema.json.',
    )
    .version(version, '-V, --version', 'print the version');
  const defaults = defaultOptions();
  addEngineOptions(program, defaults)
    .addOption(
      new Option('--max-line-bytes <n>', 'longest request line accepted')
        .default(64 * 1024 * 1024, '64 MiB')
        .argParser(wholeNumber('--max-line-bytes')),
    )
    .addOption(queueOption("answer with the engines of a queue's workers instead of this machine's (see `worker`)"))
    .action(async (opts: { maxLineBytes: number; queue?: string }) => {
      if (opts.queue === undefined) {
        process.exitCode = await serve({ ...launchOptionsOf(program, defaults), maxLineBytes: opts.maxLineBytes });
        return;
      }
      const url = queueUrl(opts.queue);
      refuseEngineFlags(program);
      process.exitCode = await serveOnQueue(url, opts.maxLineBytes);
    });
  // The stdio oracle's options belong to it alone: `probe --profile=media` is the probe's.
  program.enablePositionalOptions();
  registerCompareCommands(program);
  registerReflectCommands(program);
  registerProbeCommands(program);
  registerCampaignCommands(program);
  registerReduceCommand(program);
  registerReportCommand(program);
  registerDiffCommand(program);
  registerExportCommand(program);
  registerTriageCommand(program);
  registerWorkerCommand(program);
  registerCandidateCommand(program);
  registerWptCommand(program);
  registerWptParityCommand(program);
  return program;
}
