// `compare` and `vote` on files (the commands' arguments are src/cli/compare-commands.ts): the
// inputs read as one document or a batch, judged by the library (src/api/judge.ts) once or line by
// line, each outcome printed as JSON or a human summary, and the exit status. An unusable input
// is a BadInput, which the command line reports.
import { once } from 'node:events';
import { agrees, compare, compareCandidate, InvalidInputError, vote, type AnyDump } from '../../api/judge.js';
import type { GeometryResponse } from '../../protocol/geometry-schema.js';
import { visible } from '../../system/visible-text.js';
import { BadInput, openInput, type BatchItem } from './input.js';
import { prettyCandidate, prettyCompare, prettyReflectVote, prettyTraceVote, prettyVote } from './pretty.js';

export { BadInput };

/** The exit status of an input that cannot be used (a file, or any line of a batch). */
export const BAD_INPUT = 2;

interface Outcome {
  /** A verdict (compare's, candidate's or a vote's), or why a batch line cannot be judged. */
  json: ({ verdict: string } | { error: string }) & { line?: number; id?: string };
  pretty: () => string[];
}

/** Judges one input, or two; throws InvalidInputError naming the argument that cannot be used. */
type Judge = (values: unknown[]) => Outcome;

/** The judged inputs, as the library names its arguments, and the file each was read from. */
type Arguments = [name: string, file: string][];

/** Files to judge: compare's two dumps, a candidate against a response, or a vote on responses. */
export type Judging =
  | { kind: 'compare'; a: string; b: string }
  | { kind: 'candidate'; candidate: string; response: string }
  | { kind: 'vote'; response: string };

/**
 * Reads the files `judging` names, judges them (once, or line by line), prints each outcome and
 * resolves with the exit status; an input that cannot be used at all throws BadInput.
 */
export async function judgeFiles(judging: Judging, pretty: boolean): Promise<number> {
  const [args, judge] = setup(judging);
  let status = 0;
  for await (const outcome of outcomes(args, judge)) {
    if ('error' in outcome.json) status = BAD_INPUT;
    else if (!agrees(outcome.json) && status === 0) status = 1;
    // Each --pretty line is one line of text, whatever a dump's engine name, tags or values hold.
    const text = pretty
      ? outcome
          .pretty()
          .map((line) => visible(line))
          .join('\n') + '\n'
      : JSON.stringify(outcome.json) + '\n';
    if (!process.stdout.write(text)) await once(process.stdout, 'drain');
  }
  return status;
}

function setup(j: Judging): [Arguments, Judge] {
  switch (j.kind) {
    case 'compare':
      return [
        [
          ['a', j.a],
          ['b', j.b],
        ],
        ([x, y]) => compareOutcome(x, y, [j.a, j.b]),
      ];
    case 'candidate':
      return [
        [
          ['candidate', j.candidate],
          ['response', j.response],
        ],
        ([x, y]) => candidateOutcome(x, y),
      ];
    case 'vote':
      return [[['response', j.response]], ([response]) => voteOutcome(response)];
  }
}

/** An input's name in a message. */
const shown = (file: string) => (file === '-' ? 'stdin' : file);

/** `file is not a dump: …`: the library's complaint, naming the file instead of the argument. */
function inFile(error: InvalidInputError, args: Arguments): string {
  const file = args.find(([name]) => name === error.argument)?.[1];
  return `${file === undefined ? error.argument : shown(file)} is not ${error.what}: ${error.detail}`;
}

/**
 * Single documents are judged once: one that cannot be used is a BadInput (stderr, exit 2).
 * Batches are judged line by line, records paired in order when there are two inputs; a line that
 * cannot be used (not JSON, not the kind expected, without a partner) is answered by an error line.
 */
async function* outcomes(args: Arguments, judge: Judge): AsyncGenerator<Outcome> {
  if (args.filter(([, file]) => file === '-').length > 1) throw new BadInput('only one input can be stdin (-)');
  const inputs = [];
  for (const [, file] of args) inputs.push(await openInput(file));
  const files = args.map(([, file]) => shown(file));
  if (inputs.every((input) => input.kind === 'single')) {
    try {
      yield judge(inputs.map((input) => (input.kind === 'single' ? input.value : undefined)));
    } catch (error) {
      if (error instanceof InvalidInputError) throw new BadInput(inFile(error, args));
      throw error;
    }
    return;
  }
  const iterators = inputs.map((input, i) => {
    if (input.kind === 'batch') return input.items;
    throw new BadInput(`${files[i]} holds one document, but ${files[1 - i]} is a batch: give two of one kind`);
  });
  for (;;) {
    const next = await Promise.all(iterators.map((items) => items.next()));
    if (next.every((n) => n.done)) return;
    const items = next.map((n) => (n.done ? undefined : n.value));
    const line = (items[0] ?? items[1]!).line;
    const missing = items.indexOf(undefined);
    const broken = items.find((item): item is Extract<BatchItem, { error: string }> => item !== undefined && 'error' in item);
    const values = items.map((item) => (item && 'value' in item ? item.value : undefined));
    const id = args.length === 1 ? idOf(values[0]) : undefined;
    if (missing >= 0) yield errorLine(line, undefined, `${files[missing]} has no record to pair with ${files[1 - missing]} line ${line}`);
    else if (broken) yield errorLine(line, id, broken === items[0] ? broken.error : `${files[1]} line ${broken.line}: ${broken.error}`);
    else {
      try {
        const { json, pretty } = judge(values);
        const at = `line ${line}${id ? ` (${id})` : ''}:`;
        yield { json: { line, ...(id ? { id } : {}), ...json }, pretty: () => [at, ...pretty().map((l) => `  ${l}`)] };
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        yield errorLine(line, id, inFile(error, args));
      }
    }
  }
}

const idOf = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string'
    ? (value as { id: string }).id
    : undefined;

function errorLine(line: number, id: string | undefined, error: string): Outcome {
  return {
    json: { line, ...(id ? { id } : {}), error },
    pretty: () => [`line ${line}${id ? ` (${id})` : ''}: ${error}`],
  };
}

function voteOutcome(response: unknown): Outcome {
  const result = vote(response);
  if ('observations' in result) return { json: result, pretty: () => prettyReflectVote(result) };
  if ('records' in result) return { json: result, pretty: () => prettyTraceVote(result) };
  return { json: result, pretty: () => prettyVote(result) };
}

function compareOutcome(a: unknown, b: unknown, files: [string, string]): Outcome {
  const result = compare(a as AnyDump, b as AnyDump);
  return { json: result, pretty: () => prettyCompare(`${result.a} (${files[0]}) → ${result.b} (${files[1]})`, result, a as AnyDump) };
}

function candidateOutcome(candidate: unknown, response: unknown): Outcome {
  const result = compareCandidate(candidate as AnyDump, response as GeometryResponse);
  return { json: result, pretty: () => prettyCandidate(result.candidate, result, response as GeometryResponse) };
}
