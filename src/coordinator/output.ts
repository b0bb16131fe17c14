// The only writer to stdout. One protocol line per call, and a caller waits while stdout's
// buffer is full, so a slow reader slows the oracle down instead of growing its memory.
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
      if (!this.broken) (this.broken = true), onBroken();
    });
  }

  async write(line: string): Promise<void> {
    if (this.broken) return;
    while (this.drained) await this.drained;
    if (!this.out.write(line + '\n')) {
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
