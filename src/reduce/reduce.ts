// The reduction driver: the passes in order, repeated to a fixpoint, then a check that no single
// element can go; docs/reduce.md describes the algorithm. Every text the driver holds has passed
// the predicate, so whenever it stops, it stops with a case that still shows the signature.
import { OPS, UNNAMED_OP, isOp } from '../protocol/ops.js';
import { ddmin } from './ddmin.js';
import { firstSuccess } from './first-success.js';
import { canonicalHtml, countElements, htmlSubject, modeOf, parseHtml, type HtmlDoc, type HtmlKind } from './html-case.js';
import { stage, type Field, type Stage, type Subject } from './pass.js';
import { attributes } from './passes/attributes.js';
import { cssDeclarations, cssRules } from './passes/css.js';
import { hoisting, subtrees } from './passes/elements.js';
import { removalBuilders } from './element-removals.js';
import { statements, scriptSubject } from './passes/statements.js';
import { mutationEntries, mutationsSubject } from './passes/mutations.js';
import { textNodes, words } from './passes/text.js';
import { Tester } from './tester.js';
import { renumberMutations } from './renumber.js';
import type { Mutation } from '../protocol/mutations-schema.js';
import type { CaseSize, CaseTexts, Predicate, ReduceOptions, ReduceResult, ReducibleRequest } from './types.js';

/** The case does not satisfy the predicate in every one of its runs before any reduction. */
export class NotReproducibleError extends Error {
  constructor(
    /** Runs in which the original satisfied the predicate. */
    readonly held: number,
    /** Runs made. */
    readonly runs: number,
  ) {
    super(`not_reproducible: the original case satisfied the predicate in ${held} of ${runs} runs`);
    this.name = 'NotReproducibleError';
  }
}

/** The html passes, in the order they run. */
function htmlStages(subject: Subject<HtmlDoc>): Stage[] {
  return [
    stage('html', subject, subtrees),
    stage('html', subject, hoisting),
    stage('html', subject, attributes),
    stage('html', subject, cssRules),
    stage('html', subject, cssDeclarations),
    stage('html', subject, textNodes),
    stage('html', subject, words),
  ];
}

function bytes(text: string | undefined): number {
  return text === undefined ? 0 : Buffer.byteLength(text);
}

/** The request with its html, script and mutations replaced by `texts`, fields it lacked left out. */
function withTexts<R extends ReducibleRequest>(request: R, texts: CaseTexts): R {
  const out = { ...request };
  if (texts.html !== undefined) out.html = texts.html;
  if (texts.script !== undefined) out.script = texts.script;
  if (texts.mutations !== undefined) out.mutations = JSON.parse(texts.mutations) as unknown[];
  return out;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

/** How a request's html is reduced: as the case server serves it (src/protocol/ops.ts), a whole document or a page's body markup. */
function htmlKindOf(op: string): HtmlKind {
  const served = isOp(op) ? OPS[op].document : null;
  return served === 'body' || served === 'recorder' ? 'body' : 'document';
}

/**
 * Deletes what it can from `request.html`, `request.script` and `request.mutations` while `predicate` holds on the
 * trial request, in each of `options.runs` runs. Rejects with NotReproducibleError when the
 * original fails the predicate in any of its runs, and with the predicate's own error if it throws.
 */
export async function reduce<R extends ReducibleRequest>(
  request: R,
  predicate: Predicate<R>,
  options: ReduceOptions = {},
): Promise<ReduceResult<R>> {
  const kind: HtmlKind = options.htmlKind ?? htmlKindOf(request.op ?? UNNAMED_OP);
  const parallel = positiveInteger('parallel', options.parallel ?? 8);
  const tester = new Tester(
    (texts) => predicate(withTexts(request, texts)),
    {
      maxTests: positiveInteger('maxTests', options.maxTests ?? 10_000),
      deadline: options.timeLimitMs === undefined ? Infinity : Date.now() + options.timeLimitMs,
      signal: options.signal,
    },
    positiveInteger('runs', options.runs ?? 1),
  );
  const halted = () => tester.halted();
  const current: CaseTexts = {
    html: request.html,
    script: request.script,
    mutations: request.mutations === undefined ? undefined : JSON.stringify(request.mutations),
  };
  const sizeOf = (texts: CaseTexts = current): CaseSize => ({
    nodes: countElements(parseHtml(texts.html ?? '', kind)),
    bytes: bytes(texts.html) + bytes(texts.script) + bytes(texts.mutations),
  });
  const report = (pass: string, texts: CaseTexts = current) => {
    if (!options.onProgress) return;
    const { nodes, bytes: size } = sizeOf(texts);
    options.onProgress({ pass, tested: tester.tested, size, nodes });
  };
  const before = sizeOf();

  // Every run of the original is made and counted. One a budget left unmade is not a failure:
  // the reduction then just ends with the original.
  const original = await tester.count(current, parallel);
  if (original.held < original.ran) throw new NotReproducibleError(original.held, original.ran);

  /**
   * The case with `text` as its `field`: a new html takes the mutations renumbered to its
   * elements (renumber.ts); undefined when one names an element the html no longer has.
   */
  const trialOf = (field: Field, text: string): CaseTexts | undefined => {
    if (field !== 'html' || current.mutations === undefined || current.html === undefined) return { ...current, [field]: text };
    const mutations = renumberMutations(current.html, text, JSON.parse(current.mutations) as Mutation[]);
    return mutations && { ...current, html: text, mutations: JSON.stringify(mutations) };
  };

  /** Whether `text` would be progress for `field` and passes; no test when it would not. */
  const passes = (field: Field, text: string | undefined): Promise<boolean> => {
    const base = current[field]!;
    if (text === undefined || text === base || bytes(text) >= bytes(base)) return Promise.resolve(false);
    const trial = trialOf(field, text);
    return trial ? tester.test(trial) : Promise.resolve(false);
  };
  /** The case is now `text` as its `field` (a trial that passed). */
  const accept = (field: Field, text: string) => Object.assign(current, trialOf(field, text));

  // The html is edited as parse5 prints it; that print must itself keep the signature, or
  // the html is kept verbatim.
  let html: Subject<HtmlDoc> | undefined;
  if (current.html !== undefined) {
    const mode = modeOf(parseHtml(current.html, kind));
    const subject = htmlSubject(kind, mode);
    const canonical = canonicalHtml(parseHtml(current.html, kind), mode);
    const trial = canonical === undefined ? undefined : trialOf('html', canonical);
    if (canonical === current.html || (trial !== undefined && (await tester.test(trial)))) {
      accept('html', canonical!);
      html = subject;
    }
  }
  const htmlVerbatim = current.html !== undefined && html === undefined && !tester.stopped;
  // The mutations first: a shorter list leaves the document's passes fewer elements it names.
  const stages: Stage[] = [
    ...(current.mutations !== undefined
      ? [
          stage(
            'mutations',
            mutationsSubject(() => current.html ?? ''),
            mutationEntries,
          ),
        ]
      : []),
    ...(html ? htmlStages(html) : []),
    ...(current.script !== undefined ? [stage('script', scriptSubject, statements)] : []),
  ];

  /** Runs one pass, level by level; true when it deleted something. */
  const run = async (s: Stage): Promise<boolean> => {
    let changed = false;
    for (let level = 0; s.hierarchical || level === 0; level++) {
      const base = current[s.field]!;
      const units = s.open(base, level);
      if (!units || units.size === 0) break;
      const label = s.hierarchical ? `${s.name}@${level}` : s.name;
      report(label);
      const keep = await ddmin(units.size, (k) => passes(s.field, units.build(k)), {
        parallel,
        halted,
        onAccept: (k) => report(label, trialOf(s.field, units.build(k)!)),
      });
      const reduced = units.build(keep);
      if (reduced !== undefined && reduced !== base && bytes(reduced) < bytes(base)) {
        accept(s.field, reduced);
        changed = true;
      }
      if (tester.stopped) break;
    }
    return changed;
  };

  /** Tries removing each single element, then hoisting each; true when one of them passed. */
  const oneElementGoes = async (subject: Subject<HtmlDoc>): Promise<boolean> => {
    const removals = removalBuilders(subject, current.html!);
    report('one-minimal');
    const hit = await firstSuccess(removals, (build) => passes('html', build()), parallel, halted);
    if (hit < 0) return false;
    accept('html', removals[hit]!()!);
    return true;
  };

  let complete = false;
  while (!complete && !halted()) {
    let changed = false;
    for (const s of stages) {
      changed = (await run(s)) || changed;
      if (tester.stopped) break;
    }
    if (tester.stopped) break;
    if (!changed && html) changed = await oneElementGoes(html);
    complete = !changed && !tester.stopped;
  }
  report('done');
  return {
    request: withTexts(request, current),
    before,
    after: sizeOf(),
    tests: tester.tested,
    runs: tester.runs,
    cacheHits: tester.cacheHits,
    stopped: tester.stopped,
    oneMinimal: complete && !htmlVerbatim,
    htmlVerbatim,
  };
}
