// Chromium's --remote-debugging-pipe writes JSON messages, each ended by a NUL byte. A message is
// held only up to a limit chosen from its first bytes (Chromium writes a command's answer as
// `{"id":N,…` and an event as `{"method":"…",…`): past its limit, its bytes are counted and
// dropped as they come. So no message, however large a page makes it, is ever held whole.

/** Enough first bytes to read `{"id":N,` or `{"method":"Domain.event",` from. */
const HEAD_BYTES = 128;

/** A message over its limit: its first bytes and its whole size. */
export interface DroppedMessage {
  head: string;
  bytes: number;
}

export class PipeFramer {
  private pieces: Buffer[] = [];
  private size = 0;
  /** The current message's limit, once its head has come. */
  private limit: number | undefined;
  private head = '';
  private dropping = false;

  constructor(
    /** The most bytes the message that starts with `head` may have. */
    private readonly limitOf: (head: string) => number,
    private readonly onMessage: (text: string) => void,
    private readonly onDropped: (dropped: DroppedMessage) => void,
  ) {}

  /** Takes the next bytes read from the pipe. */
  push(data: Buffer): void {
    let start = 0;
    for (;;) {
      const end = data.indexOf(0, start);
      this.take(data.subarray(start, end === -1 ? data.length : end));
      if (end === -1) return;
      this.finish();
      start = end + 1;
    }
  }

  private take(piece: Buffer): void {
    if (!piece.length) return;
    this.size += piece.length;
    if (this.dropping) return;
    this.pieces.push(piece);
    if (this.limit === undefined && this.size >= HEAD_BYTES) {
      this.head = this.headText();
      this.limit = this.limitOf(this.head);
    }
    if (this.limit !== undefined && this.size > this.limit) {
      this.dropping = true;
      this.pieces = [];
    }
  }

  private finish(): void {
    if (this.dropping) this.onDropped({ head: this.head, bytes: this.size });
    else if (this.size) this.onMessage(Buffer.concat(this.pieces, this.size).toString('utf8'));
    this.pieces = [];
    this.size = 0;
    this.limit = undefined;
    this.head = '';
    this.dropping = false;
  }

  private headText(): string {
    return Buffer.concat(this.pieces).subarray(0, HEAD_BYTES).toString('utf8');
  }
}
