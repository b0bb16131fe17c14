// A reduction's progress, on stderr only: on a TTY one line redrawn in place, otherwise one status
// line every few seconds (cli-progress's no-TTY mode, as a campaign's progress):
//
//   browser-oracle: info: reduce: hoist | 212 trials | 7 elements, 412 bytes (from 31, 2390) | 41s
import type { ReductionStatus } from '../../reduce/index.js';
import { duration, statusBar } from '../../campaign/loop/progress.js';
import { logLines } from '../../system/log.js';

export class ReductionProgressBar {
  private readonly bar;
  private last: ReductionStatus | undefined;
  private first: ReductionStatus | undefined;
  private readonly started = Date.now();

  constructor(stream: NodeJS.WriteStream = process.stderr, intervalMs = 5000) {
    // Without a TTY each status line is a log line of its own.
    this.bar = statusBar(stream, intervalMs, (tty) => (tty ? this.text() : logLines('info', `reduce: ${this.text()}`).trimEnd()));
    this.bar.start(0, 0);
  }

  /** What the reducer reports as it goes. */
  update(status: ReductionStatus): void {
    this.first ??= status;
    this.last = status;
    this.bar.update(status.tested);
  }

  /** Draws the last state and lets go of the terminal. */
  stop(): void {
    this.bar.stop();
  }

  private text(): string {
    const p = this.last;
    const elapsed = duration((Date.now() - this.started) / 1000);
    if (!p || !this.first) return `starting | ${elapsed}`;
    return `${p.pass} | ${p.tested} trials | ${p.nodes} elements, ${p.size} bytes (from ${this.first.nodes}, ${this.first.size}) | ${elapsed}`;
  }
}
