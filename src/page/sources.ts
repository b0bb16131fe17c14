// The in-page code as the engines receive it: source text. Each program is one expression that
// evaluates to `(args, done) => void`, with every function it needs defined inside it, so it
// refers to nothing outside itself; the guard is one statement for the first <script> of a
// document. Built once, at module load, from the functions themselves.
import { authoredValue, readAuthored } from './authored.js';
import { captureBuiltins } from './builtins.js';
import { describeThrown, installGuard } from './guard.js';
import { numberJson, quoteJson } from './json-text.js';
import {
  afterPaint,
  type CaseProgramName,
  dropScrollbars,
  elsewhere,
  inIsolatedWorld,
  PAGE_PROGRAMS,
  type ProgramName,
  servedNonce,
} from './programs.js';
import { canonicalIdl, readIdl, readProbes } from './reflect.js';
import { swapIn, swappable } from './swap.js';
import { afterFonts, afterWait, freshLayout, prepared, walkCase, walkDocument } from './walk.js';

/** Everything the programs and the guard call, by the names they call it. */
const LIBRARY = [
  captureBuiltins,
  quoteJson,
  numberJson,
  afterFonts,
  afterWait,
  afterPaint,
  freshLayout,
  prepared,
  walkDocument,
  walkCase,
  authoredValue,
  readAuthored,
  canonicalIdl,
  readIdl,
  readProbes,
  servedNonce,
  elsewhere,
  dropScrollbars,
  swapIn,
  swappable,
]
  .map(String)
  .join('\n');

const PROGRAM_NAMES = Object.keys(PAGE_PROGRAMS) as ProgramName[];
const CASE_PROGRAM_NAMES = PROGRAM_NAMES.filter((name): name is CaseProgramName => 'onCase' in PAGE_PROGRAMS[name]);

/** A program as one expression: a case program's body as an isolated world runs it, a blank-page program as it is. */
function programSource(name: ProgramName): string {
  const entry: { onCase?: unknown; onBlankPage?: unknown } = PAGE_PROGRAMS[name];
  const entryPoint = entry.onCase === undefined ? String(entry.onBlankPage) : `inIsolatedWorld(${String(entry.onCase)})`;
  return `(() => {\n${LIBRARY}\n${String(inIsolatedWorld)}\nreturn ${entryPoint};\n})()`;
}

/** The trusted programs as source text, by name: see programs.ts. */
export const PROGRAMS = Object.fromEntries(PROGRAM_NAMES.map((name) => [name, programSource(name)])) as Record<ProgramName, string>;

export type { ProgramName };

/** The case programs' bodies, by name, as the guard takes them: a table of no prototype, so no other name finds a function. */
const CASE_PROGRAMS = `{ __proto__: null, ${CASE_PROGRAM_NAMES.map((name) => `${JSON.stringify(name)}: ${String(PAGE_PROGRAMS[name].onCase)}`).join(',\n')} }`;

/**
 * The program a page runs again and again on one document (the blank page): kept in a global of
 * the world it runs in after its first call, under this name, and taken from there by every call
 * after it. Given the source afresh each time, the engines compiled it again and its hot loops went
 * through their JIT tiers again for every batch.
 */
const KEPT_PROGRAM = { name: 'batch', global: '__browserOracleBatch' } as const satisfies { name: ProgramName; global: string };

/** A call of `program` on `args` and `done`: through the kept copy for KEPT_PROGRAM, from its source otherwise. */
export function programCall(program: ProgramName, args: string, done: string): string {
  if (program !== KEPT_PROGRAM.name) return `(${PROGRAMS[program]})(${args}, ${done})`;
  const global = JSON.stringify(KEPT_PROGRAM.global);
  return `(Object.getOwnPropertyDescriptor(globalThis, ${global})?.value ?? Object.defineProperty(globalThis, ${global}, { value: (${PROGRAMS[program]}) })[${global}])(${args}, ${done})`;
}

/** The property of `window` the guard defines (WebKitGTK). */
export const GUARD_HOOK = '__browserOracleGuard';

/**
 * The guard's script for one document: `nonce` is that document's, `reflect` asks it to keep the
 * DOM interfaces' own descriptors, which a reflect case reads later.
 */
export function guardScript(nonce: string, reflect: boolean): string {
  return `(() => {\n${LIBRARY}\n${String(describeThrown)}\n${String(installGuard)}\ninstallGuard(${JSON.stringify(GUARD_HOOK)}, ${JSON.stringify(nonce)}, ${reflect}, ${CASE_PROGRAMS});\n})();`;
}

// The guard is inlined in a <script> element: its text must not end the element early or start a
// comment that would swallow the case's markup.
if (/<\/script|<!--|<script/i.test(guardScript('0', false))) throw new Error('the guard source would break out of its <script> element');

/**
 * The case's script as an engine runs it: unchanged, but for a last statement that makes its
 * completion value undefined. The completion value comes back over the driver, and a case can
 * make it anything (`document.body.innerHTML = h` is all of h): a 100 MB string became a 500 MB
 * peak in the oracle. On a line of its own, so that a trailing line comment cannot swallow it.
 */
export function discardingCompletion(script: string): string {
  return `${script}\n;void 0`;
}
