#!/usr/bin/env node
// The `browser-oracle` executable.
import { ConfigError, firstLine } from '../protocol/errors.js';
import { log } from '../system/log.js';
import { guardStderr } from '../system/stderr-guard.js';

guardStderr();

/** One line for the user; the stack only at --log-level=debug, and never for a setting they gave. */
function fail(error: unknown): void {
  log.error(firstLine(error));
  if (!(error instanceof ConfigError) && error instanceof Error && error.stack) log.debug(error.stack);
  process.exitCode = 1;
}

// Node would print these itself, unprefixed; an uncaught error is still the end of the process.
process.on('uncaughtException', (error) => {
  fail(error);
  process.exit(1);
});
process.on('unhandledRejection', (reason) => {
  fail(reason);
  process.exit(1);
});

// A reference candidate's process loads its command alone (candidate-program.ts says why).
const program =
  process.argv[2] === 'candidate'
    ? (await import('./candidate-program.js')).buildCandidateProgram()
    : (await import('./program.js')).buildProgram();
program.parseAsync().catch(fail);
