// A triage's progress, on stderr only: on a TTY a bar redrawn in place, otherwise one status line
// every few seconds (cli-progress's no-TTY mode, as a campaign's and a reduction's progress):
//
//   browser-oracle: info: triage: 34/120 cases placed, 2 given up | 6 findings, 3 new | reducing gen-7-12: css-declarations, 212 trials, 7 elements | 3m10s, 6m50s left
import type { Options } from 'cli-progress';
import { duration, statusBar } from '../../campaign/loop/progress.js';
import type { TriageEvent } from '../../campaign/triage/triage.js';
import { logLines } from '../../system/log.js';
import { visibleToken } from '../../system/visible-text.js';

export class TriageProgressBar {
  private readonly bar;
  private readonly started = Date.now();
  private total = 0;
  private placed = 0;
  private gaveUp = 0;
  private created = 0;
  private reducing: Extract<TriageEvent, { kind: 'reducing' }> | undefined;

  constructor(
    /** Findings already recorded when this triage began. */
    private findings: number,
    /** Epoch ms the budget ends at, if there is one. */
    private readonly deadline: number | undefined,
    stream: NodeJS.WriteStream = process.stderr,
    intervalMs = 5000,
  ) {
    this.bar = statusBar(stream, intervalMs, (tty) => this.line(tty));
    this.bar.start(0, 0);
  }

  /** What the triage reports. Events of a second subject (a candidate's findings after the engines') add to the counts. */
  update(event: TriageEvent): void {
    switch (event.kind) {
      case 'open':
        this.total += event.cases;
        this.bar.setTotal(this.total);
        break;
      case 'reducing':
        this.reducing = event;
        break;
      case 'placed':
        this.placed++;
        if (event.created) {
          this.created++;
          this.findings++;
          this.reducing = undefined;
        }
        if (event.how === 'reduced') this.reducing = undefined;
        break;
      case 'gave-up':
        this.gaveUp++;
        this.reducing = undefined;
        break;
    }
    this.bar.update(this.placed + this.gaveUp);
  }

  /** Draws the last state and lets go of the terminal. */
  stop(): void {
    this.bar.stop();
  }

  private line(tty: Options | null): string {
    const parts = [`${this.placed}/${this.total} cases placed, ${this.gaveUp} given up`, `${this.findings} findings, ${this.created} new`];
    const r = this.reducing;
    if (r)
      parts.push(
        `reducing ${visibleToken(r.caseId)}${r.status ? `: ${r.status.pass}, ${r.status.tested} trials, ${r.status.nodes} elements` : ''}`,
      );
    const elapsed = duration((Date.now() - this.started) / 1000);
    parts.push(this.deadline === undefined ? elapsed : `${elapsed}, ${duration(Math.max(0, this.deadline - Date.now()) / 1000)} left`);
    const text = parts.join(' | ');
    return tty ? text : logLines('info', `triage: ${text}`).trimEnd();
  }
}
