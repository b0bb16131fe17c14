// A redis-server of a test's own: a free loopback port, a temporary folder, no persistence (a
// restart loses everything, the hardest case for the queue), stopped by the test. Never the
// system's instance.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export class RedisServer {
  private process: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly folder: string,
    private readonly password: string | undefined,
  ) {}

  /** Starts one; `password` makes it refuse clients without it. */
  static async start(password?: string): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), mkdtempSync(join(tmpdir(), 'redis-e2e-')), password);
    await server.up();
    return server;
  }

  /** The server's process id (for a look at its CPU time). */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  /** The URL workers and submitters are given. */
  get url(): string {
    return `redis://${this.password ? `:${this.password}@` : ''}127.0.0.1:${this.port}/0`;
  }

  /** A client for the test's own looks at what the queue holds. */
  client(): Redis {
    return new Redis(this.url, { maxRetriesPerRequest: null });
  }

  /** Stops it (its data goes with it) and waits for the exit. */
  async stop(): Promise<void> {
    const p = this.process;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((resolve) => p.once('exit', resolve));
    p.kill('SIGTERM');
    await exited;
  }

  /** Starts it again on the same port, empty. */
  async up(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.folder, '--save', '', '--appendonly', 'no'];
    if (this.password) args.push('--requirepass', this.password);
    this.process = spawn('redis-server', args, { stdio: 'ignore' });
    const probe = new Redis(this.url, { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
    probe.on('error', () => {});
    try {
      await probe.ping();
    } finally {
      probe.disconnect();
    }
  }

  /** Stops it and removes its folder. */
  async close(): Promise<void> {
    await this.stop();
    rmSync(this.folder, { recursive: true, force: true });
  }
}
