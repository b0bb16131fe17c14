// One WebDriver BiDi session socket: commands with ids, their answers, and events.
import WebSocket from 'ws';
import { log } from '../../../system/log.js';

/** Firefox answered a command with a BiDi error (`error` is its code: "no such frame", "unknown error", …). */
export class BidiError extends Error {
  override name = 'BidiError';
  constructor(
    readonly method: string,
    readonly error: string,
    message: string,
  ) {
    super(`${method}: ${error}: ${message}`);
  }
}

/** The socket closed (or was never open) before the command got its answer. */
export class ConnectionClosedError extends Error {
  override name = 'ConnectionClosedError';
}

export type EventHandler = (method: string, params: Record<string, unknown>) => void;

interface Pending {
  method: string;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

// Large answers (a walk of a big document) come back in one message.
const MAX_PAYLOAD = 256 * 1024 * 1024;
const HANDSHAKE_TIMEOUT_MS = 10_000;

export class BidiConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private handler: EventHandler = () => {};
  /** Resolves when the socket has closed, for whatever reason. */
  readonly closed: Promise<void>;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.receive(String(data)));
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        for (const { method, reject } of this.pending.values())
          reject(new ConnectionClosedError(`${method}: the connection to Firefox closed`));
        this.pending.clear();
        resolve();
      }),
    );
    // An error is always followed by 'close'; without a listener it would be thrown.
    socket.on('error', () => {});
  }

  /** Connects to a session address (`ws://…/session`). */
  static open(url: string): Promise<BidiConnection> {
    const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: MAX_PAYLOAD, handshakeTimeout: HANDSHAKE_TIMEOUT_MS });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new BidiConnection(socket)));
      socket.once('error', (error) => reject(new Error(`could not connect to Firefox's WebDriver BiDi at ${url}: ${error.message}`)));
    });
  }

  /** Where every event goes (one handler: the browser routes them). */
  onEvent(handler: EventHandler): void {
    this.handler = handler;
  }

  /** Sends a command; resolves with its result. Refused at once when the socket is not open (else it would wait forever). */
  send<T = Record<string, unknown>>(method: string, params: object = {}): Promise<T> {
    if (this.socket.readyState !== WebSocket.OPEN)
      return Promise.reject(new ConnectionClosedError(`${method}: the connection to Firefox is closed`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (result: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Drops the socket at once. */
  terminate(): void {
    this.socket.terminate();
  }

  private receive(text: string): void {
    let message: {
      type: 'success' | 'error' | 'event';
      id?: number | null;
      method?: string;
      params?: Record<string, unknown>;
      result?: unknown;
      error?: string;
      message?: string;
    };
    try {
      message = JSON.parse(text);
    } catch {
      log.warn(`firefox: a WebDriver BiDi message that is not JSON was dropped: ${text.slice(0, 100)}`);
      return;
    }
    if (message.type === 'event') {
      this.handler(message.method!, message.params ?? {});
      return;
    }
    const pending = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
    if (!pending) return;
    this.pending.delete(message.id!);
    if (message.type === 'success') pending.resolve(message.result);
    else pending.reject(new BidiError(pending.method, message.error ?? 'unknown error', message.message ?? ''));
  }
}
