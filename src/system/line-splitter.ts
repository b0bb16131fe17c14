// Lines out of a byte stream, at a cost linear in its length: a chunk is scanned once for
// newlines, the pieces of a line are kept apart and joined once, when it ends; a line that came in
// one chunk is a view of it, not a copy (a candidate's 20 KB answer was copied twice a case), so
// a line held keeps its chunk's memory: each caller takes what it keeps out of it at once. A line longer than
// `maxLineBytes` is never held: its first bytes are kept, so that an id can still be read from it,
// its length counted, and it is reported when it ends; the splitter resynchronizes at the next
// newline. Empty lines are skipped, and a line's CR before its LF is dropped (a line of a CR
// alone is then empty, but not skipped).

export type InputLine = { bytes: Buffer } | { tooLong: true; head: Buffer; length: number };

/** How much of a line too long to take whole is kept. */
export const HEAD_BYTES = 4096;

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overflow: { head: Buffer; length: number } | undefined;

  constructor(
    private readonly maxLineBytes: number,
    /** Told once, as soon as a line passes maxLineBytes (before it ends, if it ever does). */
    private readonly onOverflow?: () => void,
  ) {}

  /** The lines `chunk` ends. */
  push(chunk: Buffer): InputLine[] {
    const lines: InputLine[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; start = nl + 1, nl = chunk.indexOf(10, start)) {
      this.add(chunk.subarray(start, nl));
      const line = this.take();
      if (line) lines.push(line);
    }
    this.add(chunk.subarray(start));
    return lines;
  }

  /** The last line, when the input ended without a newline after it. */
  end(): InputLine | undefined {
    return this.take();
  }

  private add(piece: Buffer): void {
    if (!piece.length) return;
    if (this.overflow) {
      this.overflow.length += piece.length;
      return;
    }
    if (this.pendingBytes + piece.length > this.maxLineBytes) {
      const head = Buffer.concat([...this.pending, piece.subarray(0, HEAD_BYTES)]).subarray(0, HEAD_BYTES);
      this.overflow = { head, length: this.pendingBytes + piece.length };
      this.pending = [];
      this.pendingBytes = 0;
      this.onOverflow?.();
      return;
    }
    // A view, not a copy: the streams split here (a pipe's, stdin's) hand each chunk over for good.
    this.pending.push(piece);
    this.pendingBytes += piece.length;
  }

  private take(): InputLine | undefined {
    const { overflow, pending } = this;
    this.overflow = undefined;
    this.pending = [];
    this.pendingBytes = 0;
    if (overflow) return { tooLong: true, ...overflow };
    if (!pending.length) return undefined;
    const bytes = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    return { bytes: bytes[bytes.length - 1] === 13 ? bytes.subarray(0, -1) : bytes };
  }
}
