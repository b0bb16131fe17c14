// The only writer to stdout. It takes an answer line as the pieces wire.ts encoded (a large dump
// is one piece, never copied into a bigger string) and writes them in order; a caller waits while
// stdout's buffer is full, so a slow reader slows the oracle down instead of growing its memory.
import type { Writable } from 'node:stream';

export class LineWriter {
  private drained: Promise<void> | undefined;
  private broken = false;

  constructor(
    private readonly out: Writable,
    onBroken: () => void,
  ) {
    out.on('error', () => {
      // EPIPE and friends: the reader is gone; nothing more can be answered.
      if (this.broken) return;
      this.broken = true;
      onBroken();
    });
  }

  /** Writes one line, given as the pieces answerLine (src/protocol/wire.ts) made. */
  async write(pieces: readonly string[]): Promise<void> {
    if (this.broken) return;
    // Lines never interleave: a writer waiting for drain holds the next one back.
    while (this.drained) await this.drained;
    let full = false;
    for (const piece of pieces) full = !this.out.write(piece) || full;
    if (full) {
      this.drained = new Promise<void>((resolve) => {
        const done = () => {
          this.out.off('drain', done);
          this.out.off('close', done);
          this.drained = undefined;
          resolve();
        };
        this.out.on('drain', done);
        this.out.on('close', done);
      });
    }
  }

  /** Resolves once stdout has drained whatever it was holding back (not once the OS has sent it). */
  async flush(): Promise<void> {
    while (this.drained) await this.drained;
  }
}
