// Why an engine's authored verdict and its harness's verdict on a check-layout file may differ, told
// from the file (the layout request: its page and the scripts it is served with) and from the
// harness's subtests — a tag per disagreement, the first that applies, in this order:
//
//   harness-error  the harness did not end OK with subtests (ERROR, TIMEOUT, no subtest): no
//                  element was judged on that side at all
//   out-of-scope   the request has no scope (a checkLayout selector that is not a literal, or a call
//                  made elsewhere), so every element's attributes were read, and the harness passed
//                  every element it checked: the failing ones are most likely outside its reach
//   multi-call     checkLayout is called more than once (by the harness's subtest names, which carry
//                  each call's selector list, by the scope, or by the calls in the page's scripts):
//                  the harness checks each phase as it is, the walk the page's final state
//   before-load    an inline script calls checkLayout as the parser runs it (at its top level, or in a
//                  test() function), before the page's load (an image, a font not there yet); the walk
//                  reads the page later
//   other          none of these
import { tokenizer, type Token } from 'acorn';
import { parse } from 'parse5';
import { attribute, elementsOf, textOf } from '../../wpt/markup.js';

const CAUSES = ['harness-error', 'out-of-scope', 'multi-call', 'before-load', 'other'] as const;
export type Cause = (typeof CAUSES)[number];

/** What the cause is told from, beside the file: the two verdicts and the harness's subtest names. */
export interface Disagreeing {
  harness: 'pass' | 'fail' | 'error';
  authored: 'pass' | 'fail' | 'none';
  subtests: readonly string[];
}

/** The tag of a disagreement on the check-layout file the layout request `request` was made of. */
export function causeOf(request: Record<string, unknown> | null, d: Disagreeing): Cause {
  if (d.harness === 'error') return 'harness-error';
  const scope = (request?.authored as { scope?: unknown } | undefined)?.scope;
  if (!Array.isArray(scope) && d.harness === 'pass' && d.authored === 'fail') return 'out-of-scope';
  const calls = request ? pageCalls(request) : { all: 0, atParse: 0 };
  if (selectorLists(d.subtests) > 1 || (Array.isArray(scope) && scope.length > 1) || calls.all > 1) return 'multi-call';
  if (calls.atParse > 0) return 'before-load';
  return 'other';
}

/** The selector lists the harness's subtests were made by: check-layout-th.js names each `<selectors> <n>[: <title>]`. */
function selectorLists(names: readonly string[]): number {
  const lists = new Set<string>();
  for (const name of names) {
    const at = /^(.*) \d+(: .*)?$/s.exec(name);
    if (at) lists.add(at[1]!);
  }
  return lists.size;
}

/** The checkLayout calls of a layout request's page: all, in its scripts, handlers and the served scripts outside /resources; those at an inline script's top level. */
function pageCalls(request: Record<string, unknown>): { all: number; atParse: number } {
  const counts = { all: 0, atParse: 0 };
  if (typeof request.html !== 'string') return counts;
  for (const element of elementsOf(parse(request.html))) {
    for (const a of element.attrs) if (a.name.startsWith('on')) counts.all += calls(a.value).all;
    if (element.tagName !== 'script' || attribute(element, 'src') !== null) continue;
    const inline = calls(textOf(element));
    counts.all += inline.all;
    if (attribute(element, 'type') !== 'module') counts.atParse += inline.atTop;
  }
  const files = (request.site as { files?: Record<string, unknown> } | undefined)?.files ?? {};
  for (const [path, text] of Object.entries(files))
    if (typeof text === 'string' && path.endsWith('.js') && !path.startsWith('resources/')) counts.all += calls(text).all;
  return counts;
}

/**
 * Calls of checkLayout in a script's tokens: all of them, and those that run where the script runs:
 * outside any bracket, or inside a `test(…)` whose function testharness.js runs at once (the
 * brackets a test's own `(` holds directly, its function's parameters and body, run with it).
 */
function calls(text: string): { all: number; atTop: number } {
  const tokens: (Token & { value?: unknown })[] = [];
  try {
    for (const token of tokenizer(text, { ecmaVersion: 'latest', allowHashBang: true })) tokens.push(token);
  } catch {
    return { all: 0, atTop: 0 };
  }
  let all = 0;
  let atTop = 0;
  /** The open brackets, each with whether what it holds runs at once. */
  const open: { now: boolean; test: boolean }[] = [];
  tokens.forEach((token, i) => {
    const label = token.type.label;
    const name = label === 'name' ? token.value : undefined;
    if (label === '{' || label === '(' || label === '[' || label === '${') {
      const test = label === '(' && tokens[i - 1]?.type.label === 'name' && tokens[i - 1]!.value === 'test';
      open.push({ now: test || open.at(-1)?.test === true, test });
    } else if (label === '}' || label === ')' || label === ']') open.pop();
    else if (name === 'checkLayout' && tokens[i + 1]?.type.label === '(') {
      if (tokens[i - 1]?.type.label === 'function') return;
      all++;
      // `onload = () => checkLayout(…)` is at the top level, but runs later.
      if (open.every((b) => b.now) && tokens[i - 1]?.type.label !== '=>') atTop++;
    }
  });
  return { all, atTop };
}
