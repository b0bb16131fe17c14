// A worker's engines: the stdio oracle as a child process, started through bin/browser-oracle
// so that it, its case server and every browser live in a network namespace of their own (the
// worker itself stays outside: it has to reach Redis). Requests go down its stdin as lines, and
// its answer lines come back whole, each parsed once; the child is the one writer of those lines.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { OracleOptions } from '../coordinator/oracle-service.js';
import { log } from '../system/log.js';
import { PACKAGE_ROOT } from '../system/paths.js';
import { ownedFolder } from '../system/scratch.js';
import { PASSWORD_ENV } from './connection.js';
import type { WorkerInfo } from './jobs.js';

/** What a ping tells about the child's engines (WorkerInfo without the host and pid). */
export type OracleSetup = Omit<WorkerInfo, 'host' | 'pid'>;

/** An answer as the child wrote it, parsed: its id, and the rest of its fields. */
export type ChildAnswer = { id: string } & Record<string, unknown>;

export class OracleChild {
  private readonly waiting = new Map<string, { resolve: (answer: ChildAnswer) => void; reject: (error: Error) => void }>();
  private next = 0;
  private gone: Error | undefined;
  /** Resolves with the exit code once the child has exited. */
  readonly exited: Promise<number | null>;

  private constructor(private readonly child: ChildProcessByStdio<Writable, Readable, null>) {
    createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
      // The child writes protocol lines only: each one JSON, parsed once here, its id a field.
      let answer: ChildAnswer;
      try {
        answer = JSON.parse(line) as ChildAnswer;
      } catch {
        return log.warn(`worker: the oracle wrote a line that is not JSON (${line.slice(0, 100)}); ignored`);
      }
      const waiter = typeof answer.id === 'string' ? this.waiting.get(answer.id) : undefined;
      if (!waiter) return; // not ours to answer: never happens with ids this class makes
      this.waiting.delete(answer.id);
      waiter.resolve(answer);
    });
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.gone = new Error(`the oracle exited (${signal ?? `status ${code}`})`);
        for (const waiter of this.waiting.values()) waiter.reject(this.gone);
        this.waiting.clear();
        resolve(code);
      }),
    );
    // A write after the child is gone fails with EPIPE; the exit above rejects what waits.
    child.stdin.on('error', () => {});
  }

  /**
   * Starts the oracle with `options` (handed over in a config file the child reads at start)
   * and waits for its ping. Rejects when it exits first: its reason is on stderr, which it shares.
   */
  static async start(options: OracleOptions): Promise<{ child: OracleChild; setup: OracleSetup }> {
    const folder = ownedFolder('worker');
    const config = join(folder, 'config.json');
    try {
      writeFileSync(config, JSON.stringify(options), { mode: 0o600 });
      const proc = spawn(`${PACKAGE_ROOT}bin/browser-oracle`, ['--config', config], {
        // Its own process group: a Ctrl-C at the terminal reaches the worker, which stops taking
        // jobs, lets the cases in hand finish, and only then closes the child's stdin.
        detached: true,
        stdio: ['pipe', 'pipe', 'inherit'],
        // The engines' side never holds the queue's password.
        env: { ...withoutPassword(process.env), BROWSER_ORACLE_NODE: process.execPath },
      });
      const child = new OracleChild(proc);
      const pong = (await child.ask({ op: 'ping' })) as unknown as OracleSetup;
      const { engines, versions, profile, fonts, network } = pong;
      return { child, setup: { engines, versions, profile, fonts, network } };
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  /** Sends a request (its id is replaced by one of the child's own) and resolves with the answer, id included. */
  ask(request: Record<string, unknown>): Promise<ChildAnswer> {
    if (this.gone) return Promise.reject(this.gone);
    const id = `q${this.next++}`;
    return new Promise<ChildAnswer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ ...request, id })}\n`);
    });
  }

  /** Closes the child's stdin: it answers what it has, closes its browsers and exits. */
  async shutdown(): Promise<void> {
    this.child.stdin.end();
    await this.exited;
  }
}

function withoutPassword(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { [PASSWORD_ENV]: _, ...rest } = env;
  return rest;
}
