// Firefox's Marionette, for the one thing WebDriver BiDi cannot do in firefox-esr 153: a virtual
// authenticator (WebAuthn:AddVirtualAuthenticator, which answers without a Marionette session;
// its authenticators serve every page of the browser). Started only under the launch profile
// `devices` (--marionette, on the port Firefox writes to the profile's MarionetteActivePort). The
// transport is Marionette's own: "<length>:<JSON>" frames, commands [0, id, name, params] and
// answers [1, id, error, result]. No npm client speaks it (the few that exist drive Firefox OS).
import { existsSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long Firefox may take to write its Marionette port once its BiDi address is out. */
const PORT_FILE_TIMEOUT_MS = 30_000;
/** Answers are a few ids and flags; anything larger is not one of them. */
const MAX_FRAME_BYTES = 1024 * 1024;

/** Marionette refused a command: its error code and message. */
class MarionetteError extends Error {
  override name = 'MarionetteError';
}

interface Pending {
  command: string;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

export class Marionette {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private buffer = Buffer.alloc(0);
  private greeted = false;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (data: Buffer) => this.receive(data));
    socket.on('close', () => {
      for (const { command, reject } of this.pending.values())
        reject(new MarionetteError(`${command}: the connection to Marionette closed`));
      this.pending.clear();
    });
    // An error is always followed by 'close'.
    socket.on('error', () => {});
  }

  /** Connects to the Marionette of the Firefox whose profile is `profileDir`, once it listens. */
  static async open(profileDir: string): Promise<Marionette> {
    const file = join(profileDir, 'MarionetteActivePort');
    const deadline = Date.now() + PORT_FILE_TIMEOUT_MS;
    while (!existsSync(file)) {
      if (Date.now() > deadline) throw new Error(`firefox-esr wrote no Marionette port within ${PORT_FILE_TIMEOUT_MS} ms`);
      await sleep(50);
    }
    const port = Number(readFileSync(file, 'utf8').trim());
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', (error) => reject(new Error(`could not connect to Firefox's Marionette on port ${port}: ${error.message}`)));
    });
    return new Marionette(socket);
  }

  /** Sends `command`; resolves with its result's `value`. */
  send<T>(command: string, params: object): Promise<T> {
    if (this.socket.destroyed) return Promise.reject(new MarionetteError(`${command}: the connection to Marionette is closed`));
    const id = this.nextId++;
    const text = JSON.stringify([0, id, command, params]);
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { command, resolve: (result) => resolve((result as { value: T } | null)?.value as T), reject });
      this.socket.write(`${Buffer.byteLength(text)}:${text}`);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(data: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, data]);
    for (;;) {
      const colon = this.buffer.indexOf(0x3a);
      if (colon < 0) return;
      const length = Number(this.buffer.subarray(0, colon).toString('latin1'));
      if (!Number.isSafeInteger(length) || length > MAX_FRAME_BYTES) {
        this.socket.destroy();
        return;
      }
      if (this.buffer.length < colon + 1 + length) return;
      const frame = this.buffer.subarray(colon + 1, colon + 1 + length).toString('utf8');
      this.buffer = this.buffer.subarray(colon + 1 + length);
      this.frame(frame);
    }
  }

  private frame(text: string): void {
    // The first frame is Marionette's greeting ({"applicationType": "gecko", …}).
    if (!this.greeted) {
      this.greeted = true;
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (!Array.isArray(message) || message[0] !== 1) return;
    const [, id, error, result] = message as [1, number, { error?: string; message?: string } | null, unknown];
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    if (error) pending.reject(new MarionetteError(`${pending.command}: ${error.error ?? 'error'}: ${error.message ?? ''}`));
    else pending.resolve(result);
  }
}
