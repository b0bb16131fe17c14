// One running candidate process, which process-source.ts supervises: its stdin, its answer lines,
// its stderr, its end. It runs as a process tree (src/system/process-tree.ts): in a memory cgroup
// of its own where one can be made, so that nothing it starts outlives it. Every line written to
// it carries an id of the oracle's own, unique for the life of the oracle (`nextId`), whatever
// ids the cases have (two corpus items may share one); an answer finds its case by that id.
//
// Everything it writes is untrusted: lines are split at a cost linear in their length, up to
// `maxLineBytes`; a line that is not an answer (not JSON, no id) is a protocol fault, charged to
// the oldest unanswered case (the one the candidate is working on) and ending the process, so
// that a burst of them costs one case, and the cases written behind it go to the replacement; an
// answer to an id no case waits for is dropped. Its stderr goes to the log line by line, each cut
// to a few KiB. What it wrote is quoted in the log and in errors made visible and short.
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CandidateErrorCode } from '../protocol/candidate-schema.js';
import { formatSize } from '../protocol/sizes.js';
import { LineSplitter, HEAD_BYTES, type InputLine } from '../system/line-splitter.js';
import { readAnswerLine, type ReadLine } from './answer-line.js';
import { log } from '../system/log.js';
import { ProcessTree } from '../system/process-tree.js';
import { visible } from '../system/visible-text.js';
import type { SourceOutcome } from './source.js';

/** A case's answer line, read (answer-line.ts); its failure; or (no outcome) it was written behind a case the process failed on. */
export type Answer = ({ ok: true } & ReadLine) | { ok: false; outcome: SourceOutcome | undefined };

export const failure = (code: CandidateErrorCode, message: string): SourceOutcome => ({ kind: 'error', message: `${code}: ${message}` });

/** The most of what a candidate wrote that a log line or an error quotes, in characters. */
const QUOTED = 200;
/** Lines answering no case that are logged per process; further ones are counted. */
const LOGGED_STRAYS = 5;
/** How long the last of a candidate's output may take to arrive once its process tree is gone. */
const DRAIN_MS = 2_000;

export interface ChildOptions {
  maxLineBytes: number;
  /** What its processes may hold together, where a cgroup bounds them. */
  memoryLimit: number;
  /** Its name in the log. */
  label: () => string;
  /** A fresh wire id. */
  nextId: () => string;
  /** Told, once per process, why it runs without a cgroup. */
  onUnconfined: (why: string) => void;
}

/** A line written and not yet answered. */
interface Waiting {
  id: string;
  /** How long it may take once it is the oldest. */
  timeoutMs: number;
  settle: (answer: Answer) => void;
}

export class Child {
  readonly spawned: Promise<number | string>;
  /** False once it ended or was killed: nothing more is written to it. */
  alive = true;
  /** Resolves once the process has ended, everything it started is gone, and its cases are settled. */
  readonly ended: Promise<void>;
  private readonly tree: ProcessTree | undefined;
  /** The lines written and not yet answered, oldest first: the oldest is the one the candidate is on. */
  private readonly waiting: Waiting[] = [];
  /** The oldest case's deadline. */
  private deadline: NodeJS.Timeout | undefined;
  /**
   * Set when the oracle ends it (a hang, a line that is no answer): what the oldest case is charged
   * once the process and all it started are gone. What it writes from then on answers nothing.
   */
  private charge: SourceOutcome | undefined;
  private strays = 0;

  constructor(
    argv: string[],
    private readonly o: ChildOptions,
  ) {
    const started = ProcessTree.start(argv, { name: 'candidate', memoryLimit: o.memoryLimit });
    if (typeof started === 'string') {
      this.alive = false;
      this.spawned = Promise.resolve(`could not start ${argv[0]}: ${started}`);
      this.ended = Promise.resolve();
      return;
    }
    const { tree, unconfined } = started;
    if (unconfined !== null) o.onUnconfined(unconfined);
    this.tree = tree;
    const child = tree.child;
    const failedToStart = new Promise<string>((resolve) => child.once('error', (error) => resolve(error.message)));
    this.spawned = Promise.race([
      new Promise<number>((resolve) => child.once('spawn', () => resolve(child.pid!))),
      failedToStart.then((why) => `could not start ${argv[0]}: ${why}`),
    ]);
    child.stdin!.on('error', () => {}); // a write to a candidate that died: its end settles the case
    const lastLine = this.readAnswers(child);
    const stderrLogged = this.logStderr(child);
    const exited = Promise.race([
      new Promise<string>((resolve) =>
        child.once('exit', (code, signal) =>
          resolve(signal ? `the candidate was ended by ${signal}` : `the candidate exited with code ${code}`),
        ),
      ),
      failedToStart,
    ]);
    this.ended = exited.then(async (why) => {
      this.alive = false;
      // Whatever it started goes with it, and with them every holder of its stdout.
      await tree.killAll();
      // Both pipes drained before it counts as ended: what it said before exiting is logged before stop() returns.
      const drained = Promise.all([lastLine, stderrLogged]).then(([line]) => line);
      const last = await Promise.race([drained, sleep(DRAIN_MS).then(() => undefined)]);
      child.stdout!.destroy();
      child.stderr!.destroy();
      const cut = last === undefined || this.charge ? '' : this.onLastLine(last);
      const memory = tree.oomKills() ? `; the kernel killed it at its memory limit of ${formatSize(o.memoryLimit)}` : '';
      this.fail(this.charge ?? failure('candidate_crashed', `${why} during the case${cut}${memory}`));
      if (this.strays > LOGGED_STRAYS)
        log.warn(`candidate ${this.name()}: dropped ${this.strays - LOGGED_STRAYS} more line(s) that answered no case`);
      await tree.close();
    });
  }

  /** Writes `request` under a fresh id and waits for its answer, at most `timeoutMs` once it is the oldest line unanswered. */
  ask(request: object, timeoutMs: number): Promise<Answer> {
    // Gone before the line was written: the case is the replacement's.
    if (!this.alive) return Promise.resolve({ ok: false, outcome: undefined });
    const id = this.o.nextId();
    const answered = new Promise<Answer>((settle) => this.waiting.push({ id, timeoutMs, settle }));
    if (this.waiting.length === 1) this.startDeadline();
    this.tree!.child.stdin!.write(`${JSON.stringify({ id, ...request })}\n`);
    return answered;
  }

  /** Ends its input and waits for it to end, killing it when it does not within two seconds; then nothing it started is left. */
  async stop(): Promise<void> {
    if (!this.tree) return;
    if (this.alive) {
      this.tree.child.stdin!.end();
      const gone = await Promise.race([this.ended.then(() => true), sleep(2000).then(() => false)]);
      if (!gone) this.kill();
    }
    await this.ended;
  }

  private name(): string {
    return visible(this.o.label(), QUOTED);
  }

  /** Splits stdout into answer lines; resolves, once it closes, with the line it left unterminated. */
  private readAnswers(child: ChildProcess): Promise<InputLine | undefined> {
    const splitter = new LineSplitter(this.o.maxLineBytes, () =>
      this.fault(`an answer line longer than ${formatSize(this.o.maxLineBytes)}`),
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      for (const line of splitter.push(chunk)) this.onLine(line);
    });
    return new Promise((resolve) => child.stdout!.once('close', () => resolve(splitter.end())));
  }

  /** Each stderr line to the log, visible, and cut to its first bytes when long (a line that never ends is never held). */
  private logStderr(child: ChildProcess): Promise<void> {
    const splitter = new LineSplitter(HEAD_BYTES);
    const say = (line: InputLine) => {
      const text = 'bytes' in line ? line.bytes.toString('utf8') : line.head.toString('utf8');
      if (!text.trim()) return;
      const cut = 'tooLong' in line ? `… (a line of ${line.length} bytes, cut)` : '';
      log.info(`candidate ${this.name()}: ${visible(text)}${cut}`);
    };
    child.stderr!.on('data', (chunk: Buffer) => splitter.push(chunk).forEach(say));
    return new Promise((resolve) =>
      child.stderr!.once('close', () => {
        const last = splitter.end();
        if (last) say(last);
        resolve();
      }),
    );
  }

  private onLine(line: InputLine): void {
    if (this.charge || 'tooLong' in line) return; // a line too long was a fault as it passed the limit
    let read: ReadLine;
    try {
      read = readAnswerLine(line.bytes);
    } catch {
      // Decoded again only here, to be quoted: a line that is no answer ends the process.
      const text = line.bytes.toString('utf8');
      if (text.trim()) this.fault(`a line that is not JSON: ${visible(text, QUOTED)}`); // a blank line is skipped
      return;
    }
    const { value } = read;
    const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
    if (typeof id !== 'string') {
      this.fault(`a line with no string "id": ${visible(line.bytes.toString('utf8'), QUOTED)}`);
      return;
    }
    const at = this.waiting.findIndex((w) => w.id === id);
    if (at >= 0) this.settle(at, { ok: true, ...read });
    else this.stray(`an answer to ${visible(JSON.stringify(id), QUOTED)}, which no case is waiting for`);
  }

  /**
   * The line it left unterminated as it ended: an answer all the same when it is one (a last line
   * without its newline); else what the crash's message says of it.
   */
  private onLastLine(last: InputLine): string {
    if ('bytes' in last) {
      try {
        const read = readAnswerLine(last.bytes);
        const id = (read.value as { id?: unknown } | null)?.id;
        const at = this.waiting.findIndex((w) => w.id === id);
        if (at >= 0) {
          this.settle(at, { ok: true, ...read });
          return '';
        }
      } catch {
        // cut short: said below
      }
    }
    return `, in the middle of a line (${'bytes' in last ? last.bytes.length : last.length} bytes)`;
  }

  /** A line that answers nothing: the oldest case's protocol error, and the end of this process; logged when no case waits. */
  private fault(what: string): void {
    if (!this.waiting.length) this.stray(what);
    else this.end(failure('candidate_protocol', `${what}; its process was ended`));
  }

  private stray(what: string): void {
    if (++this.strays > LOGGED_STRAYS) return;
    const more = this.strays === LOGGED_STRAYS ? '; further such lines are counted, not logged' : '';
    log.warn(`candidate ${this.name()}: dropped ${what}${more}`);
  }

  private startDeadline(): void {
    clearTimeout(this.deadline);
    const oldest = this.waiting[0];
    this.deadline = oldest
      ? setTimeout(
          () => this.end(failure('candidate_timeout', `no answer within ${oldest.timeoutMs} ms; the candidate was killed`)),
          oldest.timeoutMs,
        )
      : undefined;
  }

  /** Settles the waiting line at `at` with `answer`; the next oldest gets the full time from now. */
  private settle(at: number, answer: Answer): void {
    const [done] = this.waiting.splice(at, 1);
    if (at === 0) this.startDeadline();
    done!.settle(answer);
  }

  /** The oldest case gets `outcome`; the cases written behind it go to the replacement. */
  private fail(outcome: SourceOutcome): void {
    clearTimeout(this.deadline);
    const [oldest, ...behind] = this.waiting.splice(0);
    oldest?.settle({ ok: false, outcome });
    for (const w of behind) w.settle({ ok: false, outcome: undefined });
  }

  /** Kills it and all it started; once they are gone, the oldest case is charged `charge` (by the end's handler). */
  private end(charge: SourceOutcome): void {
    clearTimeout(this.deadline);
    this.charge ??= charge;
    this.kill();
  }

  private kill(): void {
    if (!this.alive || !this.tree) return;
    this.alive = false;
    void this.tree.killAll();
  }
}
