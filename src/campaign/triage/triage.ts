// Triage: from a journal's disagreeing cases to findings (docs/triage.md). The cases of one subject
// (the engines' disagreements, or one candidate's findings) are taken the largest bucket first. A
// case is first tried against the templates of the findings already made: where an embedding of a
// template finds an instance in it (match.ts) and that instance, run on the engines, shows the
// case's own signature in every one of `runs` runs, the case is a member of that finding and is not
// reduced. Otherwise the case is reduced (reduce-case.ts, the reducer, with the same runs), its
// template derived from the reduced case (template.ts), and it becomes a new finding, or a member of
// the finding that already has that template; the cases still open are then tried against the new
// template, many at once. Everything is recorded as it happens (findings.ts), so a second run goes
// on where the first stopped; a deadline stops taking work, and a reduction it cuts short is kept
// (as the case's reduction) to be gone on with next time.
import PQueue from 'p-queue';
import { bucketOf } from '../../comparator/signature.js';
import { candidateFailingIndex } from '../../comparator/candidate-signature.js';
import type { DumpSource } from '../../candidate-client/source.js';
import type { VoteResult } from '../../protocol/vote-schema.js';
import { NotReproducibleError, type ReductionStatus } from '../../reduce/index.js';
import { rejudged, type CandidateRecord } from '../loop/candidate-record.js';
import { keepsFinding, reduceCase, type FindingKept, type ReducedCase } from '../loop/reduce-case.js';
import type { CampaignOptions } from '../loop/run-campaign.js';
import type { CaseRequest } from '../corpus/corpus.js';
import { subjectKey, type Findings, type Subject, type TriageCase } from '../journal/findings.js';
import type { EngineOutcome, Journal } from '../journal/journal.js';
import { caseShape, embeddings, instanceHtml, type InstanceKind } from './match.js';
import { deriveTemplate, parseTemplate, type Template } from './template.js';

export interface TriageOptions {
  oracle: CampaignOptions['oracle'];
  journal: Pick<Journal, 'addReduction' | 'reduction' | 'runOf'>;
  findings: Findings;
  subject: Subject;
  /** The candidate whose findings are triaged (subject a candidate). */
  candidate?: DumpSource;
  /** Trials, and template checks, on the engines at once. */
  parallel: number;
  /** Runs of every case that must show a signature: it must show it in each. */
  runs: number;
  /** Trials one reduction runs at most. */
  maxTests: number;
  /** The font set the engines run with: a case recorded with another is left as it is. */
  fonts: string;
  /** Epoch ms after which no work starts (the budget). */
  deadline?: number;
  /** Aborted: no work starts, a reduction under way stops with what it has. */
  signal?: AbortSignal;
  onEvent?: (event: TriageEvent) => void;
}

/** What a triage reports as it goes. */
export type TriageEvent =
  | { kind: 'open'; cases: number }
  | { kind: 'reducing'; caseId: string; status?: ReductionStatus }
  | { kind: 'placed'; caseId: string; finding: number; how: 'reduced' | 'instance'; created: boolean }
  | { kind: 'gave-up'; caseId: string; reason: string };

export interface TriageResult {
  /** Findings this run made. */
  created: number;
  /** Cases this run put under a finding (those reduced into one included). */
  placed: number;
  /** Cases this run gave up on. */
  gaveUp: number;
  /** Cases left open when it stopped. */
  open: number;
  /** Why it stopped before every case was placed, if it did. */
  stopped: 'budget' | 'signal' | null;
}

/** The instances tried for each embedding: the template's own declarations first, then with the case's magnitudes. */
const INSTANCE_KINDS: readonly InstanceKind[] = ['named', 'magnitudes'];

/** A finding as triage matches against it. */
interface Known {
  id: number;
  template: Template;
  outlier: string | null;
  signature: string;
}

/** Triages the open cases of one subject; resolves when they are all placed or given up on, or the budget or a signal stops it. */
export function triage(o: TriageOptions): Promise<TriageResult> {
  return new TriageRun(o).run();
}

class TriageRun {
  private readonly open: TriageCase[];
  private readonly settled = new Set<number>();
  private readonly counts = { created: 0, placed: 0, gaveUp: 0 };
  private readonly checks: PQueue;
  private sent = 0;

  constructor(private readonly o: TriageOptions) {
    // A case recorded with other fonts would not show its signature on these engines.
    this.open = [...o.findings.open(o.subject)].filter((c) => (o.journal.runOf(c.record)?.fonts ?? o.fonts) === o.fonts);
    this.checks = new PQueue({ concurrency: o.parallel });
  }

  async run(): Promise<TriageResult> {
    this.o.onEvent?.({ kind: 'open', cases: this.open.length });
    const sameSubject = this.o.findings
      .list()
      .filter((f) => subjectKey(f.subject) === subjectKey(this.o.subject))
      .map((f): Known => ({ id: f.id, template: parseTemplate(f.template), outlier: f.outlier, signature: f.signature }));
    await this.tryAll(sameSubject);
    while (!this.stopped()) {
      const next = this.open.find((c) => !this.settled.has(c.seq));
      if (!next) break;
      const made = await this.reduce(next);
      if (made === 'stopped') break;
      if (made) await this.tryAll([made]);
    }
    await this.checks.onIdle();
    const open = this.open.filter((c) => !this.settled.has(c.seq)).length;
    return { ...this.counts, open, stopped: open === 0 ? null : this.o.signal?.aborted ? 'signal' : this.stopped() ? 'budget' : null };
  }

  private stopped(): boolean {
    return this.o.signal?.aborted === true || (this.o.deadline !== undefined && Date.now() >= this.o.deadline);
  }

  /** What a case must keep: its own signature (and the engines' beside a candidate's). */
  private keptBy(c: TriageCase): FindingKept {
    const { oracle, candidate } = this.o;
    if (!c.candidate || !candidate) return { oracle, signature: c.signature };
    return { oracle, signature: c.record.signature, candidate: { source: candidate, signature: c.signature } };
  }

  /** The open cases tried against `findings`, many at once; each case joins the first whose instance in it shows its signature. */
  private async tryAll(findings: Known[]): Promise<void> {
    if (findings.length === 0) return;
    for (const c of this.open) {
      if (this.settled.has(c.seq)) continue;
      // Those of the case's own signature first: the likeliest to explain it.
      const ordered = [...findings.filter((f) => f.signature === c.signature), ...findings.filter((f) => f.signature !== c.signature)];
      void this.checks.add(async () => {
        for (const f of ordered) {
          if (this.stopped() || this.settled.has(c.seq)) return;
          if (await this.tryOne(f, c)) return;
        }
      });
    }
    await this.checks.onIdle();
  }

  /** Whether a finding's template has an instance in the case that shows the case's signature in every run; if so the case is its member. */
  private async tryOne(f: Known, c: TriageCase): Promise<boolean> {
    if (f.outlier !== outlierOf(c) || this.o.findings.tried(f.id, c.seq)) return false;
    const request = JSON.parse(c.record.request) as CaseRequest & { html?: string; script?: string };
    if (typeof request.html !== 'string' || request.script !== undefined) return false;
    const shape = caseShape(request.html);
    const found = embeddings(f.template, shape, startsOf(c));
    if (found.length === 0) return false;
    const keeps = keepsFinding(this.keptBy(c));
    const tried = new Set<string>();
    for (const embedding of found)
      for (const kind of INSTANCE_KINDS) {
        const html = instanceHtml(f.template, shape, embedding, kind);
        if (html === undefined || tried.has(html) || this.stopped()) continue;
        tried.add(html);
        const instance: CaseRequest = { ...request, id: c.record.id, html };
        if (await this.holds(keeps, instance)) {
          this.place(f.id, c, 'instance', false, JSON.stringify(instance));
          return true;
        }
      }
    if (!this.stopped()) this.o.findings.addTry(f.id, c.seq);
    return false;
  }

  /** Whether a request keeps the finding in each of `runs` runs (the first that does not ends it). */
  private async holds(keeps: (request: CaseRequest) => Promise<boolean>, request: CaseRequest): Promise<boolean> {
    for (let run = 0; run < this.o.runs; run++) if (!(await keeps({ ...request, id: `${request.id}~check-${++this.sent}` }))) return false;
    return true;
  }

  /** Reduces a case into a finding (a new one, or the one with its template); 'stopped' when the budget or a signal cut it short. */
  private async reduce(c: TriageCase): Promise<Known | undefined | 'stopped'> {
    const { record } = c;
    this.o.onEvent?.({ kind: 'reducing', caseId: record.id });
    const original = { ...(JSON.parse(record.request) as object), id: record.id } as CaseRequest;
    // A reduction cut short before (by a budget) goes on from where it was.
    const earlier = this.o.journal.reduction(record);
    const resumed =
      earlier && earlier.signature === record.signature && (!c.candidate || earlier.candidate?.signature === c.signature)
        ? ({ ...(JSON.parse(earlier.request) as object), id: record.id } as CaseRequest)
        : original;
    let result: ReducedCase;
    try {
      result = await reduceCase({
        ...this.keptBy(c),
        request: resumed,
        parallel: this.o.parallel,
        maxTests: this.o.maxTests,
        runs: this.o.runs,
        timeLimitMs: this.o.deadline === undefined ? undefined : Math.max(0, this.o.deadline - Date.now()),
        signal: this.o.signal,
        onProgress: (status) => this.o.onEvent?.({ kind: 'reducing', caseId: record.id, status }),
      });
    } catch (error) {
      if (!(error instanceof NotReproducibleError)) throw error;
      if (this.stopped()) return 'stopped';
      this.giveUp(c, `not reproducible: its signature held in ${error.held} of ${error.runs} runs`);
      return undefined;
    }
    this.o.journal.addReduction(record, result);
    if (result.stopped === 'time-limit' || result.stopped === 'aborted') return 'stopped';
    const shown = c.candidate ? result.candidate?.signature : result.signature;
    if (shown !== c.signature || (c.candidate && result.signature !== record.signature)) {
      this.giveUp(c, `its reduced case, run once more, showed ${shown ?? 'no difference'}`);
      return undefined;
    }
    const template = deriveTemplate((result.reduced as { html: string }).html, {
      script: 'script' in result.reduced && result.reduced.script !== undefined,
      starts: c.candidate ? candidateStarts(result.candidate!, result.outcomes) : voteStarts(result.vote),
    });
    const outlier = outlierOf(c);
    const existing = this.o.findings.withTemplate(this.o.subject, template.text, outlier);
    if (existing !== undefined) {
      this.place(existing, c, 'reduced', false);
      return undefined;
    }
    const id = this.o.findings.add({
      subject: this.o.subject,
      template: template.text,
      signature: c.signature,
      enginesSignature: c.candidate ? record.signature : null,
      outlier,
      caseSeq: c.seq,
      reduced: result.request,
      vote: result.vote,
      outcomes: result.outcomes,
      candidate: result.candidate ?? null,
      versions: versionsOf(result.outcomes, result.candidate),
      fonts: this.o.journal.runOf(record)?.fonts ?? null,
      elements: result.after.nodes,
    });
    this.counts.created++;
    this.settled.add(c.seq);
    this.counts.placed++;
    this.o.onEvent?.({ kind: 'placed', caseId: record.id, finding: id, how: 'reduced', created: true });
    return { id, template, outlier, signature: c.signature };
  }

  private place(finding: number, c: TriageCase, how: 'reduced' | 'instance', created: boolean, instance?: string): void {
    if (this.settled.has(c.seq)) return;
    this.o.findings.addMember(finding, this.o.subject, c.seq, how, instance);
    this.settled.add(c.seq);
    this.counts.placed++;
    this.o.onEvent?.({ kind: 'placed', caseId: c.record.id, finding, how, created });
  }

  private giveUp(c: TriageCase, reason: string): void {
    this.o.findings.giveUp(this.o.subject, c.seq, reason);
    this.settled.add(c.seq);
    this.counts.gaveUp++;
    this.o.onEvent?.({ kind: 'gave-up', caseId: c.record.id, reason });
  }
}

/** A case's odd one out: the outlier engine, the candidate's name, or null for a split. */
const outlierOf = (c: TriageCase): string | null => (c.candidate ? c.candidate.name : c.record.outlier);

/** Where a case's difference may start, in a dump's order: the node its signature names, then its other failing nodes. */
function startsOf(c: TriageCase): number[] {
  const first = c.candidate ? candidateStarts(c.candidate, c.record.outcomes) : voteStarts(c.record.vote);
  const failing = c.candidate
    ? candidateFailing(c.candidate, c.record.outcomes)
    : c.record.vote === null
      ? []
      : (JSON.parse(c.record.vote) as VoteResult).nodes.map((n) => n.index);
  return [...new Set([...(first === null ? [] : [first]), ...failing])];
}

/** The nodes where a candidate's dump fails against the majority. */
function candidateFailing(record: CandidateRecord, outcomes: readonly EngineOutcome[]): number[] {
  const judged = rejudged(record, outcomes);
  return judged ? judged.result.majority.flatMap((e) => judged.result.compares[e]?.failures.map((f) => f.index) ?? []) : [];
}

function voteStarts(vote: string | null): number | null {
  if (vote === null) return null;
  return bucketOf({ op: 'geometry', vote: JSON.parse(vote) as VoteResult })?.first?.index ?? null;
}

function candidateStarts(record: CandidateRecord, outcomes: readonly EngineOutcome[]): number | null {
  const judged = rejudged(record, outcomes);
  return judged ? candidateFailingIndex(judged.result, judged.dump) : null;
}

/** The builds that made a reduced case's outcomes, the candidate's included. */
function versionsOf(outcomes: readonly EngineOutcome[], candidate: CandidateRecord | undefined): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const o of outcomes) if (o.version !== null) versions[o.engine] = o.version;
  if (candidate) versions[candidate.name] = candidate.version;
  return versions;
}
