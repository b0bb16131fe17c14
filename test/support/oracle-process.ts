// Drives a real oracle process over its stdio, as a client would: pipelined requests,
// responses matched by id, stderr kept for assertions and failure messages.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { descendantsOf } from '../../src/system/processes.js';
import { saidOnStderr } from './said-on-stderr.js';

/** The executable users run: it puts the oracle in a network namespace of its own where it can. */
export const ORACLE_BIN = fileURLToPath(new URL('../../../bin/browser-oracle', import.meta.url));

/**
 * A per-case time limit for tests where no case is meant to time out. An ordinary case takes
 * well under a second on an idle machine and can take many on a loaded one; a limit it could
 * reach would make the test a measure of the machine.
 */
export const UNHURRIED = '--timeout-ms=120000';

/**
 * One worker with one page per engine, for tests whose claims need no two cases of an engine at
 * once. An oracle opens every page at launch, and a second page per engine (a WebKit session of
 * its own, pages in Chromium and Firefox) costs about 2.8 CPU-seconds: 9.8 against 7.0 for a
 * three-engine oracle's start, one case and shutdown (measured). A reduction (reduce, triage)
 * then runs 4 trials at a time instead of 8 (4 × workers × pages): the same outcome, the first
 * success in list order, with fewer trials started past a success.
 */
export const ONE_PAGE = ['--workers=1', '--pages=1'];

/** The environment that runs the oracle on this test's own node. */
export const ORACLE_ENV = { ...process.env, BROWSER_ORACLE_NODE: process.execPath };

// biome-ignore lint/suspicious/noExplicitAny: a test reads whatever field it asserts on, and a schema check elsewhere holds the shape.
export type Line = Record<string, any>;

export class OracleProcess {
  readonly lines: Line[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;
  private readonly closed: Promise<number | null>;
  private readonly waiters = new Map<string, (line: Line) => void>();
  private readonly child: ChildProcessWithoutNullStreams;

  /** `bin`: another build's executable, for benchmarks that hold one build against another. */
  constructor(args: string[] = [], env: Record<string, string> = {}, bin = ORACLE_BIN) {
    this.child = spawn(bin, args, { stdio: 'pipe', env: { ...ORACLE_ENV, ...env } });
    this.child.stderr.on('data', (chunk) => (this.stderr += chunk));
    createInterface({ input: this.child.stdout }).on('line', (text) => {
      const line = JSON.parse(text) as Line; // a non-JSON stdout line fails the test right here
      this.lines.push(line);
      const waiter = this.waiters.get(String(line.id));
      if (waiter) {
        this.waiters.delete(String(line.id));
        waiter(line);
      }
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    // After 'close' every stdout line has been read: a line still awaited will not come.
    this.closed = new Promise((resolve) => this.child.once('close', (code) => resolve(code)));
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Every process below the oracle (its browsers, drivers, Xvfb). */
  descendants(): number[] {
    return descendantsOf(this.pid);
  }

  sendRaw(text: string | Buffer): void {
    this.child.stdin.write(text);
  }

  /** Send one request and wait for the line that answers its id. */
  request(request: Line): Promise<Line> {
    const answer = this.response(String(request.id));
    this.sendRaw(JSON.stringify(request) + '\n');
    return answer;
  }

  /**
   * The line that answers `id`; rejects, with the oracle's stderr, if the oracle's output ends
   * first, so that an oracle that died shows why instead of leaving the test waiting.
   */
  response(id: string): Promise<Line> {
    const seen = this.lines.find((l) => String(l.id) === id);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      this.waiters.set(id, resolve);
      void this.closed.then((code) => {
        if (!this.waiters.delete(id)) return;
        reject(
          new Error(`the oracle's output ended (exit ${code}) before it answered ${id}; its stderr ends:\n${this.stderr.slice(-3000)}`),
        );
      });
    });
  }

  /**
   * Resolves once stderr matches `pattern`, as it arrives; rejects, with stderr, if the oracle exits
   * first or `withinMs` passes. For what the oracle logs on its own time (a refused request a page
   * sent without waiting for it): a look at stderr the moment an answer arrives would race it.
   */
  saidOnStderr(pattern: RegExp, withinMs: number): Promise<void> {
    return saidOnStderr({ stream: this.child.stderr, text: () => this.stderr, ended: this.closed }, pattern, withinMs);
  }

  async ready(): Promise<Line> {
    return this.request({ id: '__ready', op: 'ping' });
  }

  closeStdin(): void {
    this.child.stdin.end();
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  async shutdown(): Promise<number | null> {
    if (this.child.exitCode === null) {
      this.child.stdin.write(JSON.stringify({ id: '__shutdown', op: 'shutdown' }) + '\n');
    }
    return this.exited;
  }
}

/** True while a process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
