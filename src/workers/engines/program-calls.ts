// The trusted programs as a driver that calls a function and awaits its promise takes them (CDP's
// Runtime.callFunctionOn in an isolated world, BiDi's script.callFunction in a sandbox). The
// kept program stays in the world's global, which page script cannot reach.
import { PROGRAMS, programCall, type ProgramName } from '../../page/sources.js';

/** Each program as a function of its args that resolves with the JSON text it made. */
export const PROGRAM_CALLS = Object.fromEntries(
  Object.keys(PROGRAMS).map((name) => [name, `(args) => new Promise((resolve) => ${programCall(name as ProgramName, 'args', 'resolve')})`]),
) as Record<ProgramName, string>;
