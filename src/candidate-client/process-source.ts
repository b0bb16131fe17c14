// The oracle's side of the candidate protocol: an engine under test as a supervised process,
// in any language, speaking NDJSON on stdio (docs/candidate.md). It is started from a command
// line (or a reference candidate's name), pinged, and given a few cases ahead (IN_FLIGHT), so that it
// never waits on the oracle between cases; each line it is sent carries an id of the oracle's own,
// so that its answer finds its case whatever ids the cases have, and is checked against the
// candidate schema, since a candidate's output is untrusted input. A candidate reads its lines in
// order, so the oldest unanswered case is the one it is working on: that case alone is charged
// with a hang (no answer within the per-case timeout, counted from when it became the oldest), an
// exit, or a line that is not an answer, as an `error` outcome with a stable code; the cases
// written behind it go to the replacement. A process that hung, exited or wrote what is no answer
// is replaced, after a back-off that doubles with each failure in a row. Every case gets exactly
// one outcome: none is lost, none is answered twice. One process is child.ts: it runs in a memory
// cgroup of its own where one can be made, and nothing it starts outlives it.
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import PQueue from 'p-queue';
import parseArgsStringToArgv from 'string-argv';
import {
  CandidateAnswerSchema,
  CandidateDumpAnswerSchema,
  CandidateErrorAnswerSchema,
  CandidatePingAnswerSchema,
  CandidateUnsupportedAnswerSchema,
  REFERENCE_CANDIDATES,
  type CandidateCase,
  type CandidatePingAnswer,
  type CandidateSupports,
} from '../protocol/candidate-schema.js';
import { ConfigError } from '../protocol/errors.js';
import type { FontSetName } from '../protocol/font-sets.js';
import { describeValueError } from '../protocol/validate.js';
import { log } from '../system/log.js';
import { visible } from '../system/visible-text.js';
import { Child, failure } from './child.js';
import type { DumpSource, SourceOutcome } from './source.js';

export interface CandidateProcessOptions {
  /** A reference candidate's name (`taffy`, `yoga`), or a command line, split as a shell splits words (no expansion). */
  command: string;
  /** The fonts the engines run with, given to a reference candidate (under `square` it measures any text). */
  fonts?: FontSetName;
  /** How long a case may take, from its line being written to its answer. */
  timeoutMs?: number;
  /** How long a new process may take to answer its ping. */
  startTimeoutMs?: number;
  /** The pause before starting a process again after `failures` failures in a row. */
  backOffMs?: (failures: number) => number;
  /** The longest answer line accepted, in bytes (256 MiB by default). */
  maxLineBytes?: number;
  /**
   * What the candidate's processes may hold together (2 GiB by default, the engines' own default
   * budget), where the kernel gives it a memory cgroup; past it, the kernel kills one of them.
   */
  memoryLimit?: number;
  /** Told of every process started: its pid, and the pause taken before it (0 for the first). */
  onStart?: (event: { pid: number; pauseMs: number }) => void;
}

/**
 * Cases written to a candidate before the oldest is answered. One at a time, each case waited a
 * round trip through a busy oracle's event loop on top of its layout; a few ahead hide it.
 */
export const IN_FLIGHT = 8;

/** Doubling from a fifth of a second, capped at ten: a broken candidate is not hammered, a recovered one is soon back. */
export const defaultBackOff = (failures: number) => (failures === 0 ? 0 : Math.min(10_000, 200 * 2 ** (failures - 1)));

const checkAnswer = TypeCompiler.Compile(CandidateAnswerSchema);
const checkPing = TypeCompiler.Compile(CandidatePingAnswerSchema);
/** Each kind of answer, by the field that says which it is: the one to name the problem of a line that is almost an answer. */
const ANSWER_KINDS = [
  ['dump', TypeCompiler.Compile(CandidateDumpAnswerSchema)],
  ['unsupported', TypeCompiler.Compile(CandidateUnsupportedAnswerSchema)],
  ['error', TypeCompiler.Compile(CandidateErrorAnswerSchema)],
] as const;

/** The CLI's entry point, which runs the reference candidates (`browser-oracle candidate <name>`). */
const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/** A failure to start the candidate at all; its message is one line. */
export class CandidateStartError extends ConfigError {
  override name = 'CandidateStartError';
}

/** What a candidate's `unsupported` or `error` text keeps, in characters: visible (no control character), and short. */
const TEXT_MAX = 1000;

/** Whether this oracle has said that a candidate runs without a cgroup (it says so once). */
let warnedUnconfined = false;

/** The argv a command starts: a reference candidate through this package's CLI, anything else as given. */
export function commandArgv(command: string, fonts: FontSetName = 'liberation'): string[] {
  if ((REFERENCE_CANDIDATES as readonly string[]).includes(command)) return [process.execPath, CLI, 'candidate', command, '--fonts', fonts];
  const argv = parseArgsStringToArgv(command);
  if (!argv.length) throw new ConfigError('the candidate command is empty: give a reference candidate (taffy, yoga) or a command line');
  return argv;
}

export class CandidateProcess implements DumpSource {
  name = '';
  version = '';
  supports: CandidateSupports | undefined;
  private child: Child | undefined;
  /** The start of a replacement in progress, which every case that finds the process gone awaits. */
  private starting: Promise<true | string> | undefined;
  private failures = 0;
  /** The last wire id given: each line sent carries a new one. */
  private sent = 0;
  private readonly queue = new PQueue({ concurrency: IN_FLIGHT });
  private readonly argv: string[];
  private readonly timeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly backOffMs: (failures: number) => number;

  private constructor(private readonly options: CandidateProcessOptions) {
    this.argv = commandArgv(options.command, options.fonts);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
    this.backOffMs = options.backOffMs ?? defaultBackOff;
  }

  /** Starts the candidate and pings it; a CandidateStartError when it does not answer as a candidate. */
  static async start(options: CandidateProcessOptions): Promise<CandidateProcess> {
    const candidate = new CandidateProcess(options);
    const started = await candidate.launch(0);
    if (typeof started === 'string') throw new CandidateStartError(visible(`candidate ${options.command}: ${started}`));
    return candidate;
  }

  run(request: CandidateCase): Promise<SourceOutcome> {
    return this.queue.add(() => this.runOne(request));
  }

  async close(): Promise<void> {
    await this.queue.onIdle();
    await this.child?.stop();
    this.child = undefined;
  }

  private async runOne(request: CandidateCase): Promise<SourceOutcome> {
    // The case's own id stays here: two cases may share one (a corpus allows it), and the candidate is told apart ids.
    const { html, script, mutations, site, authored } = request;
    if (mutations && !this.supports?.mutations)
      return { kind: 'unsupported', what: 'mutations (the candidate does not declare supports.mutations)' };
    const line = {
      html,
      ...(script === undefined ? {} : { script }),
      ...(mutations === undefined ? {} : { mutations }),
      ...(site === undefined ? {} : { site }),
      ...(authored === undefined ? {} : { authored }),
    };
    for (let replaced = 0; ; replaced++) {
      // Each replacement charged another case, or the process went before this line was written;
      // a candidate that never lives to read it does not hold the case for ever.
      if (replaced > 2 * IN_FLIGHT) return failure('candidate_crashed', `the candidate was replaced ${replaced} times before it answered`);
      const started = await this.alive();
      if (typeof started === 'string') return failure('candidate_start', started);
      const answer = await this.child!.ask(line, this.timeoutMs);
      if (!answer.ok) {
        // Written behind the case the candidate failed on: this one goes to the replacement.
        if (answer.outcome === undefined) continue;
        return answer.outcome;
      }
      this.failures = 0;
      return answerOutcome(answer.value, this.name, answer.dump, mutations !== undefined);
    }
  }

  /** A live process: this one, or a replacement started once for every case that found it gone. */
  private alive(): Promise<true | string> {
    if (this.child?.alive) return Promise.resolve(true);
    if (!this.starting) {
      // It died since the last case (during it, or after): one more failure in a row.
      if (this.child) this.failures++;
      this.starting = this.launch(this.backOffMs(this.failures)).finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  /** A process started after `pauseMs` and pinged; the reason, as one line, when it would not start. */
  private async launch(pauseMs: number): Promise<true | string> {
    if (pauseMs > 0) await sleep(pauseMs);
    const label = () => this.name || this.options.command;
    const child = new Child(this.argv, {
      maxLineBytes: this.options.maxLineBytes ?? 256 * 1024 * 1024,
      memoryLimit: this.options.memoryLimit ?? 2 * 1024 * 1024 * 1024,
      label,
      nextId: () => String(++this.sent),
      onUnconfined: (why) => {
        if (warnedUnconfined) return;
        warnedUnconfined = true;
        log.warn(
          `candidate ${visible(label())}: runs without a memory cgroup (${why}): its memory is not bounded, and a process it ` +
            'starts that leaves its process group and clears its environment can outlive it (docs/candidate.md)',
        );
      },
    });
    this.child = child;
    const pid = await child.spawned;
    if (typeof pid === 'string') return pid;
    this.options.onStart?.({ pid, pauseMs });
    const answer = await child.ask({ op: 'ping' }, this.startTimeoutMs);
    const reason = !answer.ok
      ? (answer.outcome?.kind === 'error' && answer.outcome.message) || 'it exited before its ping'
      : !checkPing.Check(answer.value) && `not a ping answer: ${visible(problem(checkPing, answer.value), TEXT_MAX)}`;
    if (reason || !answer.ok) {
      await child.stop();
      return reason || 'no ping answer';
    }
    const ping = answer.value as CandidatePingAnswer;
    if (this.name && ping.name !== this.name)
      log.warn(`candidate ${visible(this.name)}: restarted, it now calls itself ${visible(ping.name)}`);
    this.name = ping.name;
    this.version = ping.version;
    this.supports = ping.supports;
    return true;
  }
}

/**
 * An answer line's value, checked against the candidate schema, as the outcome of a case of the
 * candidate called `name`; a dump answers a case with `mutations` only with its `fresh` beside it.
 * `dumpJson`: the dump's JSON as the line held it (answer-line.ts), kept as the outcome's text.
 */
export function answerOutcome(value: unknown, name: string, dumpJson?: Uint8Array, mutated = false): SourceOutcome {
  if (!checkAnswer.Check(value)) {
    const kind = typeof value === 'object' && value !== null ? ANSWER_KINDS.find(([field]) => field in value) : undefined;
    return failure(
      'candidate_protocol',
      `not a candidate answer: ${kind ? visible(problem(kind[1], value), TEXT_MAX) : 'it has none of dump, unsupported, error'}`,
    );
  }
  if ('dump' in value) {
    const { dump, roots, fresh } = value;
    const stranger = [dump, ...(fresh ? [fresh] : [])].find((d) => d.engine !== name);
    if (stranger) {
      const names = `its dump names engine ${JSON.stringify(stranger.engine)}, its ping ${JSON.stringify(name)}`;
      return failure('candidate_protocol', visible(names, TEXT_MAX));
    }
    if (mutated !== (fresh !== undefined))
      return failure(
        'candidate_protocol',
        mutated ? 'a case with mutations answered without `fresh`' : '`fresh` answers a case without mutations',
      );
    return {
      kind: 'dump',
      dump,
      ...(roots ? { roots } : {}),
      ...(value.placed === false ? { placed: false } : {}),
      ...(fresh ? { fresh } : {}),
      ...(dumpJson ? { text: dumpJson } : {}),
    };
  }
  if ('unsupported' in value) return { kind: 'unsupported', what: visible(value.unsupported, TEXT_MAX) };
  return { kind: 'error', message: visible(value.error, TEXT_MAX) };
}

function problem(check: { Errors: typeof checkAnswer.Errors }, value: unknown): string {
  const first = check.Errors(value).First();
  return first ? (first.path ? describeValueError(first) : 'the line must be a JSON object') : 'unknown';
}
