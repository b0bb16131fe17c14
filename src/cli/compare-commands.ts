// `compare` and `vote`: the comparator on dump files, for people and scripts. One JSON object
// on stdout (or a human summary with --pretty); exit 0 on pass/unanimous, 1 otherwise, 2 when
// an input cannot be used. Registered on the main program next to its default stdio action.
import { readFileSync } from 'node:fs';
import { getSystemErrorMap } from 'node:util';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { Command } from 'commander';
import { DumpSchema, GeometryResponseSchema, ReflectResponseSchema } from '../protocol/schema.js';
import { TraceResponseSchema } from '../protocol/trace-schema.js';
import { columnarFromDump, InvalidDumpError } from '../comparator/columnar.js';
import { compare } from '../comparator/compare.js';
import { compareCandidate } from '../comparator/candidate.js';
import { columnarResponse, voteColumnar } from '../comparator/vote.js';
import { voteReflect } from '../comparator/reflect-vote.js';
import { voteTraces } from '../comparator/trace-vote.js';
import { prettyCandidate, prettyCompare, prettyReflectVote, prettyTraceVote, prettyVote } from './pretty.js';

const BAD_INPUT = 2;

interface InputKind<T extends TSchema> {
  what: string;
  check: () => TypeCheck<T>;
}

/** Compiled on first use, so the stdio server, which never runs these commands, pays nothing. */
function inputKind<T extends TSchema>(what: string, schema: T): InputKind<T> {
  let check: TypeCheck<T> | undefined;
  return { what, check: () => (check ??= TypeCompiler.Compile(schema)) };
}

const DUMP = inputKind('a dump', DumpSchema);
// The engine under test is none of the oracle's engines, so a candidate may name itself freely.
const CANDIDATE = inputKind(
  'a candidate dump',
  Type.Object({ ...DumpSchema.properties, engine: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
);
const RESPONSE = inputKind('an oracle geometry response', GeometryResponseSchema);
const REFLECT_RESPONSE = inputKind('an oracle reflect response', ReflectResponseSchema);
const TRACE_RESPONSE = inputKind('an oracle trace response', TraceResponseSchema);

/** An input that cannot be used: reported in one line, exit status 2. */
class BadInput extends Error {}

interface Outcome {
  json: unknown;
  ok: boolean;
  pretty: () => string[];
}

export function registerCompareCommands(program: Command): void {
  const compareCommand = program
    .command('compare')
    .summary('compare two dumps, or a candidate dump against an oracle response')
    .description(
      'Compare two dumps by the contract rules: the same DOM shape, then box and fragment sizes ' +
        'and box offsets relative to the parent, each within 1/60 px; computed styles are ' +
        'reported separately. With --candidate, compare the candidate with every engine of an ' +
        "oracle response and judge it against the engines' majority.",
    )
    .usage('[--pretty] A.json B.json | [--pretty] --candidate CANDIDATE.json RESPONSE.json')
    .argument('<file>', 'a dump (A.json), or with --candidate a file holding one oracle response line')
    .argument('[b]', 'the dump to compare A.json with (B.json)')
    .option('--candidate <file>', 'a dump from the engine under test (it may use any engine name)')
    .option('--pretty', 'print a human summary instead of JSON')
    .addHelpText(
      'after',
      '\nExit status: 0 pass, 1 any other verdict, 2 unusable input.\n' +
        'Deltas are b − a (with --candidate: candidate − engine). Fields: src/comparator/compare.ts, candidate.ts.',
    );
  compareCommand.action((file: string, b: string | undefined, opts: { candidate?: string; pretty?: boolean }) =>
    run(compareCommand, opts, () => {
      if (opts.candidate === undefined) {
        if (b === undefined) throw new BadInput('give two dump files, or --candidate CANDIDATE.json RESPONSE.json');
        return compareOutcome(file, b);
      }
      if (b !== undefined) throw new BadInput('with --candidate, give exactly one oracle response file');
      return candidateOutcome(opts.candidate, file);
    }),
  );

  const voteCommand = program
    .command('vote')
    .summary("vote on the engines' dumps (or reflection states) in one oracle response")
    .description(
      'Compare every pair of usable engines in one oracle response and cluster them: unanimous, ' +
        'one outlier, split, or insufficient (fewer than 3 usable engines; an engine that errored ' +
        'or whose document overflowed the viewport does not vote). A reflect response (one with ' +
        '"states") is voted per observation, values matching exactly.',
    )
    .argument('<response>', 'a file holding one oracle response line')
    .option('--pretty', 'print a human summary instead of JSON')
    .addHelpText(
      'after',
      '\nExit status: 0 unanimous, 1 any other verdict, 2 unusable input.\nFields: src/comparator/vote.ts, reflect-vote.ts.',
    );
  voteCommand.action((file: string, opts: { pretty?: boolean }) => run(voteCommand, opts, () => voteOutcome(file)));

  for (const command of [compareCommand, voteCommand]) {
    // A usage error is bad input too; help (exit code 0) stays 0.
    command.exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : BAD_INPUT));
  }
}

function run(command: Command, opts: { pretty?: boolean }, work: () => Outcome): void {
  let outcome: Outcome;
  try {
    outcome = work();
  } catch (error) {
    if (!(error instanceof BadInput)) throw error;
    const name = command.name();
    command.error(`${name}: ${error.message}`, { exitCode: BAD_INPUT });
  }
  process.stdout.write(opts.pretty ? outcome.pretty().join('\n') + '\n' : JSON.stringify(outcome.json) + '\n');
  process.exitCode = outcome.ok ? 0 : 1;
}

/** Reads, parses and validates one input file, then converts it with `build`. */
function load<T extends TSchema, R>(file: string, kind: InputKind<T>, build: (value: Static<T>) => R): R {
  return checked(file, readJson(file), kind, build);
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const { errno } = error as NodeJS.ErrnoException;
    throw new BadInput(`cannot read ${file}: ${(errno !== undefined && getSystemErrorMap().get(errno)?.[1]) || (error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BadInput(`${file} is not JSON (${(error as Error).message})`);
  }
}

/** Validates `value`, read from `file`, then converts it with `build`. */
function checked<T extends TSchema, R>(file: string, value: unknown, kind: InputKind<T>, build: (value: Static<T>) => R): R {
  const check = kind.check();
  if (!check.Check(value)) {
    const first = check.Errors(value).First()!;
    throw new BadInput(`${file} is not ${kind.what}: ${first.path || '(top level)'}: ${first.message}`);
  }
  try {
    return build(value);
  } catch (error) {
    if (error instanceof InvalidDumpError) throw new BadInput(`${file} is not ${kind.what}: ${error.message}`);
    throw error;
  }
}

const loadResponse = (file: string) => load(file, RESPONSE, columnarResponse);

function compareOutcome(fileA: string, fileB: string): Outcome {
  const a = load(fileA, DUMP, columnarFromDump);
  const b = load(fileB, DUMP, columnarFromDump);
  const result = compare(a, b);
  return {
    json: { a: a.engine, b: b.engine, ...result },
    ok: result.verdict === 'pass',
    pretty: () => prettyCompare(`${a.engine} (${fileA}) → ${b.engine} (${fileB})`, result, a),
  };
}

function voteOutcome(file: string): Outcome {
  const value = readJson(file);
  // Only a reflect response carries `states`; anything else is judged as a geometry response.
  if (typeof value === 'object' && value !== null && 'states' in value) {
    const result = checked(file, value, REFLECT_RESPONSE, voteReflect);
    return { json: result, ok: result.verdict === 'unanimous', pretty: () => prettyReflectVote(result) };
  }
  // A trace response carries `traces`.
  if (typeof value === 'object' && value !== null && 'traces' in value) {
    const result = checked(file, value, TRACE_RESPONSE, voteTraces);
    return { json: result, ok: result.verdict === 'unanimous', pretty: () => prettyTraceVote(result) };
  }
  const result = voteColumnar(checked(file, value, RESPONSE, columnarResponse));
  return { json: result, ok: result.verdict === 'unanimous', pretty: () => prettyVote(result) };
}

function candidateOutcome(candidateFile: string, responseFile: string): Outcome {
  const candidate = load(candidateFile, CANDIDATE, columnarFromDump);
  const engines = loadResponse(responseFile);
  const result = compareCandidate(candidate, engines);
  return {
    json: { candidate: candidate.engine, ...result },
    ok: result.verdict === 'pass',
    pretty: () => prettyCandidate(candidate.engine, result, engines),
  };
}
