// A redis-server of a test's own: a free loopback port, a temporary folder, no persistence (a
// restart loses everything, the hardest case for the queue), stopped by the test. Never the
// system's instance.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/**
 * A port nothing listens on right now, below the kernel's ephemeral range: Redis is stopped and
 * started again on its port mid-test, and a port the kernel hands out could meanwhile go to any
 * socket of a test running beside this one (a case server, a browser's debugging port, a client
 * connection), or to another test's redis-server, which this test would then talk to.
 */
async function freePort(): Promise<number> {
  const ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * (ephemeralLow - 10_000));
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }
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

  /** Starts it again on the same port, empty; throws if redis-server exits first (its port taken, say) instead of waiting on it. */
  async up(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.folder, '--save', '', '--appendonly', 'no'];
    if (this.password) args.push('--requirepass', this.password);
    const server = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    this.process = server;
    let said = '';
    server.stdout!.on('data', (chunk) => (said += chunk));
    const exited = new Promise<never>((_, reject) =>
      server.once('exit', (code) => reject(new Error(`redis-server on port ${this.port} exited (${code}) before it answered:\n${said}`))),
    );
    const probe = new Redis(this.url, { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
    probe.on('error', () => {});
    try {
      await Promise.race([probe.ping(), exited]);
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
