#!/usr/bin/env node
// The `browser-oracle` executable.
import { buildProgram } from './program.js';

buildProgram()
  .parseAsync()
  .catch((error: Error) => {
    process.stderr.write(`browser-oracle: error: ${error.message}\n`);
    process.exitCode = 1;
  });
