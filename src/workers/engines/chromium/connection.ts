// The DevTools protocol over Chromium's pipe (fd 3 to Chromium, fd 4 from it): commands with ids,
// to the browser or to a target's flattened session, their answers, and events. Every message is
// bounded as it is read (framing.ts): an answer by the limit its command was sent with, an event
// by EVENT_MAX_BYTES, so nothing a page does can make Node hold more than it asked for.
import { constants } from 'node:buffer';
import type { Readable, Writable } from 'node:stream';
import { log } from '../../../system/log.js';
import { type DroppedMessage, PipeFramer } from './framing.js';

/** Chromium answered a command with a protocol error. */
export class CdpError extends Error {
  override name = 'CdpError';
  constructor(
    readonly method: string,
    message: string,
  ) {
    super(`${method}: ${message}`);
  }
}

/** The pipe closed (or was never open) before the command got its answer. */
export class ConnectionClosedError extends Error {
  override name = 'ConnectionClosedError';
}

/** The command's answer was over the limit it was sent with: dropped unread. */
export class AnswerTooLargeError extends Error {
  override name = 'AnswerTooLargeError';
  constructor(
    readonly method: string,
    readonly bytes: number,
  ) {
    super(`${method}: an answer of ${bytes} bytes, over its limit, was dropped unread`);
  }
}

/** Events the adapter subscribes to are a few small fields; anything larger is not one of them. */
const EVENT_MAX_BYTES = 64 * 1024;
/** What a command's answer may be unless its sender says otherwise: a few ids and flags. */
const ANSWER_MAX_BYTES = 1024 * 1024;
/** For an answer the oracle's own program bounds (its output is decoded and checked): what Node can hold as one string. */
export const PROGRAM_ANSWER_MAX_BYTES = constants.MAX_STRING_LENGTH;

export type EventHandler = (method: string, params: Record<string, unknown>, sessionId: string | undefined) => void;

export interface SendOptions {
  /** The target's session; the browser's when absent. */
  sessionId?: string;
  maxBytes?: number;
}

interface Pending {
  method: string;
  maxBytes: number;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  sessionId?: string;
  result?: unknown;
  error?: { message?: string };
}

const ANSWER_HEAD = /^\{"id":(\d+)[,}]/;

export class CdpConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private handler: EventHandler = () => {};
  private isClosed = false;
  private markClosed: () => void = () => {};
  /** Resolves when the pipe has closed, for whatever reason. */
  readonly closed = new Promise<void>((resolve) => {
    this.markClosed = resolve;
  });

  constructor(
    private readonly toChromium: Writable,
    private readonly fromChromium: Readable,
  ) {
    const framer = new PipeFramer(
      (head) => this.limitOf(head),
      (text) => this.receive(text),
      (dropped) => this.drop(dropped),
    );
    fromChromium.on('data', (data: Buffer) => framer.push(data));
    fromChromium.once('close', () => this.close());
    fromChromium.once('end', () => this.close());
    // EPIPE once Chromium is gone: the read side's close follows, or comes now.
    toChromium.on('error', () => this.close());
    fromChromium.on('error', () => this.close());
  }

  /** Where every event goes (one handler: the browser routes them). */
  onEvent(handler: EventHandler): void {
    this.handler = handler;
  }

  /** Sends a command; resolves with its result. Refused at once when the pipe is closed (else it would wait forever). */
  send<T = Record<string, unknown>>(method: string, params: object = {}, options: SendOptions = {}): Promise<T> {
    if (this.isClosed) return Promise.reject(new ConnectionClosedError(`${method}: the connection to Chromium is closed`));
    const id = this.nextId++;
    const { sessionId, maxBytes = ANSWER_MAX_BYTES } = options;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { method, maxBytes, resolve: resolve as (result: unknown) => void, reject });
      this.toChromium.write(`${JSON.stringify(sessionId === undefined ? { id, method, params } : { id, method, params, sessionId })}\0`);
    });
  }

  /** Closes both ends of the pipe and fails every command waiting for an answer. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const { method, reject } of this.pending.values())
      reject(new ConnectionClosedError(`${method}: the connection to Chromium closed`));
    this.pending.clear();
    this.toChromium.destroy();
    this.fromChromium.destroy();
    this.markClosed();
  }

  private limitOf(head: string): number {
    const id = ANSWER_HEAD.exec(head)?.[1];
    return (id !== undefined && this.pending.get(Number(id))?.maxBytes) || EVENT_MAX_BYTES;
  }

  private receive(text: string): void {
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      log.warn(`chromium: a DevTools message that is not JSON was dropped: ${text.slice(0, 100)}`);
      return;
    }
    if (message.id === undefined) {
      if (message.method) this.handler(message.method, message.params ?? {}, message.sessionId);
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (message.error) pending.reject(new CdpError(pending.method, message.error.message ?? 'unknown error'));
    else pending.resolve(message.result ?? {});
  }

  private drop({ head, bytes }: DroppedMessage): void {
    const id = Number(ANSWER_HEAD.exec(head)?.[1]);
    const pending = this.pending.get(id);
    if (pending) {
      this.pending.delete(id);
      pending.reject(new AnswerTooLargeError(pending.method, bytes));
    } else {
      log.debug(`chromium: a DevTools message of ${bytes} bytes, over its limit, was dropped unread: ${head.slice(0, 60)}`);
    }
  }
}
