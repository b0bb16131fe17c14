// The fast path, whole: which geometry cases may take it, how the queue's script-free cases are
// batched onto a page, and how a batch is written and walked in one driver call.
//
// A case that cannot run script leaves nothing behind in the page's global object, so it can be
// written into a frame of a page that has never run page script (document.open/write/close, many
// cases to one driver call) and still produce exactly the dump a fresh navigation would. Anything that could run
// script, navigate, focus or scroll loads as its own document instead. The routing test only
// routes: the blank page also forbids script by CSP, and the walk re-checks the parsed DOM with
// SCRIPT_CAPABLE_SELECTOR (and every element's `on…` attributes), so a case the test misses is
// redone as its own document, never dumped wrong.
//
// Gecko's bidi rule: Gecko turns a document's bidi processing on when right-to-left content
// appears, and keeps it on through document.open, so a left-to-right case written after an rtl one
// gets other fragments than in a document of its own (measured: an inline split in two on its
// line). For an engine whose written documents keep it (EngineTraits.writesKeepBidi), a case that
// may turn it on is written after the left-to-right cases of its batch, a page takes the cases of
// its own kind first, and a page whose document may have it on goes back to a fresh blank document
// before it takes a left-to-right case again.
import pTimeout, { TimeoutError } from 'p-timeout';
import { firstLine, type OracleError } from '../../protocol/errors.js';
import { decodeBatchText, decodeWalk, type RawWalk, type WalkAnswer } from '../../protocol/page-output.js';
import type { EngineName } from '../../protocol/schema.js';
import type { WalkOptions } from '../../page/walk.js';
import { log } from '../../system/log.js';
import { EngineGoneError, type EngineTraits } from '../engine.js';
import { checkViewport, PageFault, tooLarge } from '../page-answers.js';
import type { Pending } from './engine-queue.js';
import { DRIVER_SLACK_MS, type DocumentJob, type WriteJob } from './jobs.js';
import type { Slot } from './page-pool.js';

const SCRIPT_CAPABLE =
  /<\s*(?:script|iframe|frame|frameset|object|embed|portal)\b|<\s*meta\b[^>]*http-equiv|\son[a-z]+\s*=|javascript:|srcdoc|autofocus/i;

export function mayRunScript(html: string): boolean {
  return SCRIPT_CAPABLE.test(html);
}

/** The routing test on the parsed document, run inside the page by the walk. */
export const SCRIPT_CAPABLE_SELECTOR = 'script,iframe,frame,frameset,object,embed,portal,meta[http-equiv],[autofocus],[srcdoc]';

// Errs towards yes: rtl anywhere, dir=auto, bdo/bdi, &rlm;, and the UTF-16 code units Gecko takes
// for bidi text (its UTF16_CODE_UNIT_IS_BIDI, and a little more: the strong right-to-left blocks,
// the lead surrogates of the astral ones, RLM, RLE, RLO, RLI), whether written as they are, as
// numeric character references or as CSS escapes. An escape of any other character cannot turn it
// on: counting every `&#` and `\` sent every case of a fixture corpus down the bidi route, for a
// `&#8203;` in a comment.
const BIDI_UNITS = '\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\ud802\ud803\ud83a\ud83b\u200f\u202b\u202e\u2067';
const BIDI_CAPABLE = new RegExp(`rtl|\\bdir\\s*=\\s*["']?\\s*auto|<\\s*bd[io]\\b|&rlm|[${BIDI_UNITS}]`, 'i');
const BIDI_UNIT = new RegExp(`[${BIDI_UNITS}]`);
/** A numeric character reference (decimal or hex, the semicolon optional, as HTML parses it) or a CSS hex escape. */
const ESCAPE = /&#(?:x([0-9a-f]+)|([0-9]+))|\\([0-9a-f]{1,6})/gi;

export function mayEnableBidi(html: string): boolean {
  if (BIDI_CAPABLE.test(html)) return true;
  for (const [, hex, decimal, css] of html.matchAll(ESCAPE)) {
    const code = decimal !== undefined ? Number(decimal) : Number.parseInt((hex ?? css)!, 16);
    // Past U+10FFFF both parsers give U+FFFD; a surrogate's escape errs towards yes.
    if (code <= 0x10ffff && BIDI_UNIT.test(String.fromCodePoint(code))) return true;
  }
  return false;
}

/**
 * A geometry case's job: written on the fast path when it has no script and its markup cannot run
 * any, else `own`, its own document; `relayout`, walked again after a fresh layout either way.
 */
export function geometryJob(
  html: string,
  script: string | null,
  blankUrl: string,
  walk: WalkOptions,
  relayout: boolean,
  own: DocumentJob<RawWalk>,
): WriteJob | DocumentJob<RawWalk> {
  if (script !== null || mayRunScript(html)) return own;
  return { kind: 'write', html, blankUrl, walk, relayout, fallback: own, bidi: mayEnableBidi(html) };
}

/** The debug line of each fast-path driver call, before its number of cases. */
export const BATCH_LOG = 'cases in one call:';

/** How much longer than one case a batch may take, per further case in it; far above what a script-free case needs. */
const BATCH_ALLOWANCE_MS = 250;

/** What became of one written case: its walk, the case's own error, the page's fault, or another job to run it by. */
type WriteOutcome = { walk: RawWalk } | { error: OracleError } | { fault: PageFault } | { instead: DocumentJob };

/** A batch as it was written (left-to-right cases first), and an outcome for each case walked, in that order. */
export interface Written {
  batch: Pending[];
  /** Fewer than the batch when the page's time budget ran out, or writing a case failed. */
  outcomes: WriteOutcome[];
  /** Why writing or walking the case after the last outcome failed in the page, if it did. */
  failed?: string;
}

export class FastPath {
  constructor(
    private readonly engine: EngineName,
    /** How the engine's browser takes written documents (known once it launched). */
    private readonly traits: () => Pick<EngineTraits, 'writesKeepBidi' | 'swapsWrites'>,
    private readonly maxBatch: number,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Which of `run`, the script-free cases at the head of the queue (`queued` of them in all), a
   * page takes: up to min(maxBatch, ceil(queued / idlePages)), shared between the pages not running
   * a batch or a case (this one included); under the bidi rule, those of the page's own kind first,
   * and the others only when there are none. A page whose siblings are busy takes all of it:
   * dividing by every page split a burst geometrically (14 7 4 2 1) and paid a driver call's fixed
   * cost for each piece.
   */
  pick(slot: Slot, run: readonly Pending[], queued: number, idlePages: number): readonly Pending[] {
    const limit = Math.min(this.maxBatch, Math.ceil(queued / Math.max(1, idlePages)));
    if (!this.traits().writesKeepBidi) return run.slice(0, limit);
    const bidiPage = slot.blank?.bidi ?? false;
    const own = run.filter((p) => (p.job as WriteJob).bidi === bidiPage);
    return (own.length ? own : run).slice(0, limit);
  }

  /**
   * Writes and walks `given` in `slot`'s blank page, loading it first when the page is not there
   * (or, under the bidi rule, when its document may have bidi on and the batch starts left to
   * right). Throws when the batch failed as a whole: PageFault, EngineGoneError, or p-timeout's
   * TimeoutError when the blank page or the driver call outlived the batch's time.
   */
  async write(slot: Slot, given: readonly Pending[]): Promise<Written> {
    const isBidi = (p: Pending) => this.traits().writesKeepBidi && (p.job as WriteJob).bidi;
    const batch = [...given.filter((p) => !isBidi(p)), ...given.filter(isBidi)];
    const jobs = batch.map((p) => p.job as WriteJob);
    const { blankUrl, walk } = jobs[0]!;
    let blank = slot.blank;
    if (!blank || (blank.bidi && !isBidi(batch[0]!))) {
      try {
        await pTimeout(slot.page.load(blankUrl, this.timeoutMs + DRIVER_SLACK_MS), { milliseconds: this.timeoutMs });
      } catch (error) {
        // Not the cases' doing: they have not been written yet. A blank page that takes longer than a
        // case may (a loaded machine, a browser just restarted) has spent the case's time: case_timeout.
        if (error instanceof EngineGoneError || error instanceof TimeoutError) throw error;
        throw new PageFault(`the blank page did not load (${firstLine(error)})`);
      }
      blank = slot.blank = { bidi: false };
    }
    if (batch.some(isBidi)) blank.bidi = true;
    // The bench reads these lines for its histogram of cases per driver call.
    log.debug(`${this.engine}: ${BATCH_LOG} ${batch.length}`);
    const call = slot.page.run({
      program: 'batch',
      args: {
        blankUrl,
        htmls: jobs.map((j) => j.html),
        relayout: jobs.map((j) => j.relayout),
        swap: batch.map((p) => this.traits().swapsWrites && !isBidi(p)),
        walk,
        budgetMs: this.timeoutMs / 2,
      },
    });
    const answer = decodeBatchText(await pTimeout(call, { milliseconds: this.timeoutMs + (batch.length - 1) * BATCH_ALLOWANCE_MS }));
    if ('elsewhere' in answer) throw new PageFault(`the blank page is at ${answer.elsewhere}`);
    const walks = answer.walks.map((w) => decodeWalk(w));
    // One walk measured in another viewport means the page is off: all of them were.
    for (const w of walks) if ('walk' in w) checkViewport(this.engine, 'measured the case', w.walk);
    return {
      batch,
      outcomes: walks.map((w, i) => outcomeOf(w, jobs[i]!)),
      ...(answer.failed === undefined ? {} : { failed: answer.failed }),
    };
  }
}

function outcomeOf(answer: WalkAnswer, job: WriteJob): WriteOutcome {
  if ('tooLarge' in answer) return { error: tooLarge(answer.tooLarge) };
  if (!('walk' in answer)) return { fault: new PageFault('the fast path answered for another document') };
  // The markup was script-capable after all (the page's CSP kept it from running): load it as its own document.
  if (answer.walk.scriptCapable) return { instead: job.fallback };
  return { walk: answer.walk };
}
