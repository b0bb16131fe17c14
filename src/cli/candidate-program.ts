// `browser-oracle candidate <name>` alone: what main.ts runs for that command, so that a reference
// candidate, started by every campaign that names one and again after each crash, loads its own
// modules and not every other command's (about 0.85 s of CPU a start, measured).
import type { Command } from 'commander';
import { baseProgram } from './base-program.js';
import { registerCandidateCommand } from './candidate-command.js';

export function buildCandidateProgram(): Command {
  const program = baseProgram();
  registerCandidateCommand(program);
  return program;
}
