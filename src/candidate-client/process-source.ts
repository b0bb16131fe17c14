// The oracle's side of the candidate protocol: an engine under test as a supervised process,
// in any language, speaking NDJSON on stdio (docs/candidate.md). It is started from a command
// line (or a reference candidate's name), pinged, and given a few cases ahead (IN_FLIGHT), so that it
// never waits on the oracle between cases; each answer is matched to its case by id and checked
// against the candidate schema, since a candidate's output is untrusted input. A candidate reads
// its lines in order, so the oldest unanswered case is the one it is working on: that case alone
// is charged with a hang (no answer within the per-case timeout, counted from when it became the
// oldest), an exit, or a line that is not an answer, as an `error` outcome with a stable code; the
// cases written behind it go to the replacement. A process that hung or exited is replaced, after a
// back-off that doubles with each failure in a row. Every case gets exactly one outcome: none is
// lost, none is answered twice. The candidate's stderr goes to the oracle's log.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import PQueue from 'p-queue';
import split from 'split2';
import parseArgsStringToArgv from 'string-argv';
import {
  CandidateAnswerSchema,
  CandidateDumpAnswerSchema,
  CandidateErrorAnswerSchema,
  CandidatePingAnswerSchema,
  CandidateUnsupportedAnswerSchema,
  REFERENCE_CANDIDATES,
  type CandidateCase,
  type CandidateErrorCode,
  type CandidatePingAnswer,
  type CandidateSupports,
} from '../protocol/candidate-schema.js';
import { ConfigError } from '../protocol/errors.js';
import type { FontSetName } from '../protocol/font-sets.js';
import { describeValueError } from '../protocol/validate.js';
import { log } from '../system/log.js';
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
  /** The longest answer line accepted, in characters. */
  maxLineLength?: number;
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

const failure = (code: CandidateErrorCode, message: string): SourceOutcome => ({ kind: 'error', message: `${code}: ${message}` });

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
    if (typeof started === 'string') throw new CandidateStartError(`candidate ${options.command}: ${started}`);
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
    const line = JSON.stringify({
      id: request.id,
      html: request.html,
      ...(request.script === undefined ? {} : { script: request.script }),
    });
    for (let replaced = 0; ; replaced++) {
      // Each replacement charged another case, or the process went before this line was written;
      // a candidate that never lives to read it does not hold the case for ever.
      if (replaced > 2 * IN_FLIGHT) return failure('candidate_crashed', `the candidate was replaced ${replaced} times before it answered`);
      const started = await this.alive();
      if (typeof started === 'string') return failure('candidate_start', started);
      const answer = await this.child!.ask(request.id, line, this.timeoutMs);
      if (!answer.ok) {
        // Written behind the case the candidate failed on: this one goes to the replacement.
        if (answer.outcome === undefined) continue;
        return answer.outcome;
      }
      this.failures = 0;
      return answerOutcome(answer.value, this.name, answer.line);
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
    const child = new Child(this.argv, this.options.maxLineLength ?? 256 * 1024 * 1024, label);
    this.child = child;
    const pid = await child.spawned;
    if (typeof pid === 'string') return pid;
    this.options.onStart?.({ pid, pauseMs });
    const answer = await child.ask('ping', JSON.stringify({ id: 'ping', op: 'ping' }), this.startTimeoutMs);
    const reason = !answer.ok
      ? (answer.outcome?.kind === 'error' && answer.outcome.message) || 'it exited before its ping'
      : !checkPing.Check(answer.value) && `not a ping answer: ${problem(checkPing, answer.value)}`;
    if (reason || !answer.ok) {
      await child.stop();
      return reason || 'no ping answer';
    }
    const ping = answer.value as CandidatePingAnswer;
    if (this.name && ping.name !== this.name) log.warn(`candidate ${this.name}: restarted, it now calls itself ${ping.name}`);
    this.name = ping.name;
    this.version = ping.version;
    this.supports = ping.supports;
    return true;
  }
}

/** An answer line's value, checked against the candidate schema, as the outcome of a case of the candidate called `name`. */
export function answerOutcome(value: unknown, name: string, line?: string): SourceOutcome {
  if (!checkAnswer.Check(value)) {
    const kind = typeof value === 'object' && value !== null ? ANSWER_KINDS.find(([field]) => field in value) : undefined;
    return failure(
      'candidate_protocol',
      `not a candidate answer: ${kind ? problem(kind[1], value) : 'it has none of dump, unsupported, error'}`,
    );
  }
  if ('dump' in value) {
    if (value.dump.engine !== name) {
      return failure('candidate_protocol', `its dump names engine ${JSON.stringify(value.dump.engine)}, its ping ${JSON.stringify(name)}`);
    }
    const text = line === undefined ? undefined : dumpText(line, value);
    return { kind: 'dump', dump: value.dump, ...(value.roots ? { roots: value.roots } : {}), ...(text ? { text } : {}) };
  }
  if ('unsupported' in value) return { kind: 'unsupported', what: value.unsupported };
  return { kind: 'error', message: value.error };
}

/**
 * The dump's JSON as the candidate wrote it, when its line is exactly `{"id":…,"dump":…}` with
 * `"roots":…` last or not at all, and no key repeated: then the text between is the dump's, and
 * the journal keeps it rather than writing the dump again (16 KB a case, the largest part of the
 * oracle's own work on a candidate's answer after reading it). Any other line: undefined.
 */
const AGAIN = /"(?:id|dump|roots)"\s*:|\\u/g;

function dumpText(line: string, value: { id: string; dump: unknown; roots?: number[] }): string | undefined {
  const head = `{"id":${JSON.stringify(value.id)},"dump":`;
  const tail = value.roots === undefined ? '}' : `,"roots":${JSON.stringify(value.roots)}}`;
  if (Object.keys(value).length !== (value.roots === undefined ? 2 : 3) || !line.startsWith(head) || !line.endsWith(tail)) return undefined;
  // With no other key, only a second id, dump or roots (JSON.parse keeps the last) can stand between
  // the dump and the tail. Unescaped, such a key is one of these patterns (a quote inside a string is
  // escaped, so none matches there); spelt with \u escapes, it is any \u: either way, another text.
  const end = line.length - tail.length;
  AGAIN.lastIndex = head.length;
  const again = AGAIN.exec(line);
  if (again && again.index < end) return undefined;
  return line.slice(head.length, end);
}

function problem(check: { Errors: typeof checkAnswer.Errors }, value: unknown): string {
  const first = check.Errors(value).First();
  return first ? (first.path ? describeValueError(first) : 'the line must be a JSON object') : 'unknown';
}

/** A case's answer line; its failure; or (no outcome) it was written behind a case the process failed on. */
type Answer = { ok: true; value: unknown; line: string } | { ok: false; outcome: SourceOutcome | undefined };

/** A line written and not yet answered. */
interface Waiting {
  id: string;
  /** How long it may take once it is the oldest. */
  timeoutMs: number;
  settle: (answer: Answer) => void;
}

/** One running candidate process: its stdin, its answer lines, its exit. */
class Child {
  readonly spawned: Promise<number | string>;
  /** False once it exited or was killed: nothing more is written to it. */
  alive = true;
  private readonly process: ChildProcess;
  private readonly exited: Promise<string>;
  /** The lines written and not yet answered, oldest first: the oldest is the one the candidate is on. */
  private readonly waiting: Waiting[] = [];
  /** The oldest case's deadline. */
  private deadline: NodeJS.Timeout | undefined;

  constructor(
    argv: string[],
    maxLineLength: number,
    private readonly label: () => string,
  ) {
    // A group of its own, so that a hung candidate is killed with whatever it started.
    this.process = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.spawned = new Promise((resolve) => {
      this.process.once('spawn', () => resolve(this.process.pid!));
      this.process.once('error', (error) => {
        this.alive = false;
        resolve(`could not start ${argv[0]}: ${error.message}`);
      });
    });
    this.exited = new Promise((resolve) => {
      this.process.once('close', (code, signal) => {
        this.alive = false;
        resolve(signal ? `the candidate was ended by ${signal}` : `the candidate exited with code ${code}`);
      });
    });
    void this.exited.then((why) => this.fail('candidate_crashed', `${why} during the case`));
    this.process.stdin!.on('error', () => {}); // a write to a candidate that died: its exit settles the case
    this.process.stderr!.pipe(split()).on('data', (line: string) => {
      if (line) log.info(`candidate ${label()}: ${line}`);
    });
    const lines = this.process.stdout!.pipe(split({ maxLength: maxLineLength }));
    lines.on('data', (line: string) => this.onLine(line));
    lines.on('error', () => {
      this.fail('candidate_protocol', `an answer line longer than ${maxLineLength} characters; the candidate was killed`);
      this.kill();
    });
  }

  /** Writes `line` and waits for the answer with `id`, at most `timeoutMs` once it is the oldest line unanswered. */
  ask(id: string, line: string, timeoutMs: number): Promise<Answer> {
    // Gone before the line was written: the case is the replacement's.
    if (!this.alive) return Promise.resolve({ ok: false, outcome: undefined });
    const answered = new Promise<Answer>((settle) => this.waiting.push({ id, timeoutMs, settle }));
    if (this.waiting.length === 1) this.startDeadline();
    this.process.stdin!.write(`${line}\n`);
    return answered;
  }

  private startDeadline(): void {
    clearTimeout(this.deadline);
    const oldest = this.waiting[0];
    this.deadline = oldest
      ? setTimeout(() => {
          this.fail('candidate_timeout', `no answer within ${oldest.timeoutMs} ms; the candidate was killed`);
          this.kill();
        }, oldest.timeoutMs)
      : undefined;
  }

  /** Settles the waiting line at `at` with `answer`; the next oldest gets the full time from now. */
  private settle(at: number, answer: Answer): void {
    const [done] = this.waiting.splice(at, 1);
    if (at === 0) this.startDeadline();
    done!.settle(answer);
  }

  private onLine(line: string): void {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (this.waiting.length)
        this.settle(0, { ok: false, outcome: failure('candidate_protocol', `an answer line is not JSON: ${line.slice(0, 80)}`) });
      else log.warn(`candidate ${this.label()}: dropped a line that answers no case: ${line.slice(0, 80)}`);
      return;
    }
    const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
    // A line without a string id is the oldest case's (its schema check says what is wrong with it);
    // one with an id no line waits for answers a case already settled (after a garbage line, say), and is dropped.
    const at = typeof id === 'string' ? this.waiting.findIndex((w) => w.id === id) : this.waiting.length ? 0 : -1;
    if (at >= 0) this.settle(at, { ok: true, value, line });
    else log.warn(`candidate ${this.label()}: dropped an answer to ${JSON.stringify(id)}, which no case is waiting for`);
  }

  /** The oldest case fails with `code`; the cases written behind it go to the replacement. */
  private fail(code: CandidateErrorCode, message: string): void {
    clearTimeout(this.deadline);
    const [oldest, ...behind] = this.waiting.splice(0);
    oldest?.settle({ ok: false, outcome: failure(code, message) });
    for (const w of behind) w.settle({ ok: false, outcome: undefined });
  }

  private kill(): void {
    if (!this.alive) return;
    this.alive = false;
    try {
      process.kill(-this.process.pid!, 'SIGKILL');
    } catch {
      this.process.kill('SIGKILL');
    }
  }

  /** Ends its input and waits for it to exit, killing it when it does not within two seconds. */
  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null || this.process.pid === undefined) return;
    this.process.stdin!.end();
    const gone = await Promise.race([this.exited.then(() => true), sleep(2000).then(() => false)]);
    if (!gone) {
      this.kill();
      await this.exited;
    }
  }
}
