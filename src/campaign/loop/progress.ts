// A campaign's progress, on stderr only (stdout is the protocol's). On a TTY, a cli-progress
// bar redrawn in place; otherwise (a log file, CI) cli-progress's no-TTY mode writes one status
// line every `intervalMs`. Both show the same text:
//
//   [bar] 120/1000 cases | 4.2 cases/s | ETA 3m29s | unanimous 100 · outlier 15 · split 3 · insufficient 2 · invalid 0 · expected 1
//
// `done` counts the corpus items handled, those skipped as already journaled included; the
// rate and the verdict counts are of the cases this run recorded. With an engine under test the
// line ends with how many of its answers this run recorded passed (`candidate pass 9/12`). With
// no total (stdin) there is no bar and no ETA.
import cliProgress, { type Options } from 'cli-progress';
import { logLines } from '../../system/log.js';
import type { CandidateRecord } from './candidate-record.js';
import type { CaseRecord } from '../journal/journal.js';

// cli-progress is CommonJS, and Node's static analysis of it does not find `Format` as a named export.
const { Format, Presets, SingleBar } = cliProgress;

export interface CampaignProgressBarOptions {
  /** How many items the corpus holds, or null when unknown. */
  total: number | null;
  stream?: NodeJS.WriteStream;
  /** Without a TTY: the time between status lines. */
  intervalMs?: number;
  /** The clock for the rate and ETA, in ms. */
  now?: () => number;
}

/**
 * A cli-progress bar on `stream` whose text `format` makes: given the bar's options on a TTY (where
 * it is redrawn in place), null otherwise (where cli-progress writes one line every `intervalMs`).
 */
export function statusBar(
  stream: NodeJS.WriteStream,
  intervalMs: number,
  format: (tty: Options | null) => string,
): InstanceType<typeof SingleBar> {
  const tty = stream.isTTY === true;
  return new SingleBar(
    {
      stream,
      format: (options) => format(tty ? options : null),
      noTTYOutput: true,
      notTTYSchedule: intervalMs,
      // Without a TTY, the final line must not be followed by an empty one.
      clearOnComplete: !tty,
      hideCursor: tty,
      // The command handles Ctrl-C itself, and stops the bar.
      gracefulExit: false,
    },
    Presets.shades_classic,
  );
}

/** What the line counts, in its order. */
const COUNTED = ['unanimous', 'outlier', 'split', 'insufficient', 'invalid', 'expected'] as const;

export class CampaignProgressBar {
  private readonly bar: InstanceType<typeof SingleBar>;
  private readonly total: number | null;
  private readonly now: () => number;
  private readonly started: number;
  private done = 0;
  private ran = 0;
  private readonly counts = Object.fromEntries(COUNTED.map((k) => [k, 0])) as Record<(typeof COUNTED)[number], number>;
  /** The candidate's answers this run recorded, and how many passed; null without a candidate. */
  private candidate: { answered: number; passed: number } | null = null;

  constructor({ total, stream = process.stderr, intervalMs = 5000, now = Date.now }: CampaignProgressBarOptions) {
    this.total = total;
    this.now = now;
    this.started = now();
    this.bar = statusBar(stream, intervalMs, (options) => this.line(options));
    this.bar.start(total ?? 0, 0);
  }

  /** Items found already recorded, counted as done but not run. */
  skipped(n = 1): void {
    this.done += n;
    this.bar.update(this.done);
  }

  /** A case this run recorded. */
  recorded(c: Pick<CaseRecord, 'verdict' | 'expected' | 'candidate'>): void {
    this.done++;
    this.ran++;
    this.counts[c.verdict ?? 'invalid']++;
    if (c.expected !== null) this.counts.expected++;
    if (c.candidate) this.answered(c.candidate);
    this.bar.update(this.done);
  }

  /** A case recorded before, given to the candidate alone: done, and its answer counted. */
  judged(c: Pick<CandidateRecord, 'verdict'>): void {
    this.done++;
    this.answered(c);
    this.bar.update(this.done);
  }

  private answered(c: Pick<CandidateRecord, 'verdict'>): void {
    this.candidate ??= { answered: 0, passed: 0 };
    this.candidate.answered++;
    if (c.verdict === 'pass') this.candidate.passed++;
  }

  /** Draws the last state and lets go of the terminal. */
  stop(): void {
    this.bar.stop();
  }

  /** The status text; `barOptions` (on a TTY) adds the bar in front. */
  private line(barOptions: Options | null): string {
    const seconds = (this.now() - this.started) / 1000;
    const rate = seconds > 0 ? this.ran / seconds : 0;
    const parts = [this.total === null ? `${this.done} cases` : `${this.done}/${this.total} cases`, `${rate.toFixed(1)} cases/s`];
    if (this.total !== null) parts.push(`ETA ${rate > 0 ? duration((this.total - this.done) / rate) : '?'}`);
    parts.push(COUNTED.map((k) => `${k} ${this.counts[k]}`).join(' · '));
    if (this.candidate) parts.push(`candidate pass ${this.candidate.passed}/${this.candidate.answered}`);
    const text = parts.join(' | ');
    // Without a TTY each status is a line of the log, at info.
    if (!barOptions) return logLines('info', `campaign: ${text}`).trimEnd();
    return this.total === null ? text : `${Format.BarFormat(this.total ? this.done / this.total : 0, barOptions)} ${text}`;
  }
}

/** 45s, 3m29s, 2h05m. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
