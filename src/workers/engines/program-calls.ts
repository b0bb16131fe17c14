// The trusted programs as a driver that calls a function and awaits its promise takes them (CDP's
// Runtime.callFunctionOn in an isolated world, BiDi's script.callFunction in a sandbox).
import { PROGRAMS, type ProgramName } from '../../page/sources.js';

/** Each program as a function of its args that resolves with the JSON text it made. */
export const PROGRAM_CALLS = Object.fromEntries(
  Object.entries(PROGRAMS).map(([name, source]) => [name, `(args) => new Promise((resolve) => (${source})(args, resolve))`]),
) as Record<ProgramName, string>;
