// Runs `browser-oracle campaign` (or `summary`) as a child process, as a user would, and reads
// its journal from the side while it runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { descendantsOf } from '../../src/system/processes.js';
import { ORACLE_BIN, ORACLE_ENV } from './oracle-process.js';
import { saidOnStderr } from './said-on-stderr.js';

export class CliProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  /** `stdin` is written and the input closed (at once, without it); `{ open: true }` leaves the input open for write(). */
  constructor(args: string[], stdin?: string | { open: true }) {
    this.child = spawn(ORACLE_BIN, args, { stdio: ['pipe', 'pipe', 'pipe'], env: ORACLE_ENV });
    this.child.stdout!.on('data', (chunk) => (this.stdout += chunk));
    this.child.stderr!.on('data', (chunk) => (this.stderr += chunk));
    if (typeof stdin !== 'object') this.child.stdin!.end(stdin);
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Resolves once stderr matches `pattern` (as it arrives, no polling); rejects, with stderr, if the process exits first. */
  saidOnStderr(pattern: RegExp): Promise<void> {
    return saidOnStderr({ stream: this.child.stderr!, text: () => this.stderr, ended: this.exited }, pattern);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Every process below it (browsers, drivers, Xvfb). */
  descendants(): number[] {
    return descendantsOf(this.pid);
  }

  /** Writes on its input, left open by the constructor. */
  write(text: string): void {
    this.child.stdin!.write(text);
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** The last line it wrote on stderr. */
  get lastLine(): string {
    return this.stderr.trimEnd().split('\n').at(-1) ?? '';
  }
}

/** Runs a command to its end. */
export async function runCli(args: string[], stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = new CliProcess(args, stdin);
  const code = await p.exited;
  return { code, stdout: p.stdout, stderr: p.stderr };
}

/** A read-only look at a journal another process may be writing. */
export function readJournal<T>(path: string, read: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** How many cases the journal holds (0 before it exists). */
export function casesIn(path: string): number {
  if (!existsSync(path)) return 0;
  try {
    return readJournal(path, (db) => db.prepare<[], number>('SELECT COUNT(*) FROM cases').pluck().get()!);
  } catch {
    return 0; // not created yet
  }
}

/** Waits until `p` has recorded at least `n` cases; throws if it exits first. */
export async function recordedAtLeast(p: CliProcess, path: string, n: number): Promise<void> {
  let exited = false;
  void p.exited.then(() => (exited = true));
  while (casesIn(path) < n) {
    if (exited) throw new Error(`the campaign exited before recording ${n} cases:\n${p.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
