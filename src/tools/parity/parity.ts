// Harness parity (docs/wpt.md, "Measuring parity with the harness"): each engine's authored
// verdict on a check-layout file (the layout route's journal) against what WPT's own harness said
// in the same engine (the trace route's journal, where checkLayout makes one subtest per element).
// Pure functions of the two journals as read.ts reads them.
//
// Pairing: a file's id is its path in the checkout in both routes (wpt-import names a layout
// request and a trace of the same .html file alike), so a check-layout case of the layout journal
// pairs with the trace of the same id, exactly; then per engine of the configuration:
//
//   skipped   refused (either side an invalid item), not_in_harness (no trace of that id), an
//             engine error on either side (layout_engine_error, harness_engine_error), or no
//             result (layout_no_result: no authored reading; harness_no_result)
//   harness   pass: status OK, at least one subtest, every one PASS; fail: OK with another
//             status; error: anything else (ERROR, TIMEOUT, no harness record, no subtest)
//   authored  pass: nothing failed and at least one assertion held; fail; none (no assertion)
//   agree     the two are both pass, or both not pass
import type { AuthoredFailure } from '../../comparator/authored.js';
import { ENGINE_NAMES, type EngineName } from '../../protocol/schema.js';
import { causeOf, type Cause } from './cause.js';
import type { EngineSide, ParityCase, ParityConfig, ParityJournal } from './read.js';

const SKIP_REASONS = [
  'refused',
  'not_in_harness',
  'layout_engine_error',
  'harness_engine_error',
  'layout_no_result',
  'harness_no_result',
] as const;
type SkipReason = (typeof SKIP_REASONS)[number];

export interface Tally {
  pairs: number;
  agreeing: number;
  /** agreeing / pairs; null without a pair. */
  ratio: number | null;
}

interface Disagreement {
  id: string;
  engine: EngineName;
  cause: Cause;
  harness: { verdict: 'pass' | 'fail' | 'error'; status: string; subtests: number; failing: { name: string; status: string }[] };
  authored: { verdict: 'pass' | 'fail' | 'none'; pass: number; fail: number; failures: AuthoredFailure[] };
}

export interface ParityResult {
  layout: string;
  harness: string;
  config: ParityConfig;
  /** Check-layout files in the layout journal; those with a trace of the same id in the harness journal. */
  files: { layout: number; paired: number };
  pairs: number;
  agreeing: number;
  ratio: number | null;
  /** Pairs where the harness passed, and where the authored assertions did. */
  harness_pass: number;
  authored_pass: number;
  skipped: Partial<Record<SkipReason, number>>;
  by_directory: Record<string, Tally>;
  by_engine: Partial<Record<EngineName, Tally>>;
  by_cause: Partial<Record<Cause, number>>;
  disagreements: Disagreement[];
}

/** The difference between two journals' configurations, in words; null when they are one configuration. */
export function configDifference(layout: ParityJournal, harness: ParityJournal): string | null {
  const a = layout.config;
  const b = harness.config;
  const differs = (what: string, x: string[], y: string[]) =>
    x.join(',') === y.join(',')
      ? null
      : `${what}: ${x.join(', ') || 'none'} in ${layout.path}, ${y.join(', ') || 'none'} in ${harness.path}`;
  const found = [differs('engines', a.engines, b.engines), differs('fonts', a.fonts, b.fonts)];
  for (const engine of [...new Set([...Object.keys(a.versions), ...Object.keys(b.versions)])].sort())
    found.push(differs(`${engine} build`, a.versions[engine] ?? [], b.versions[engine] ?? []));
  const all = found.filter((d) => d !== null);
  return all.length ? all.join('; ') : null;
}

/** The directory a WPT id is in, as `summary` groups them: its first two path segments. */
const directoryOf = (id: string) => id.split('/').slice(0, 2).join('/');

function harnessVerdict(side: Extract<EngineSide, { kind: 'harness' }>): 'pass' | 'fail' | 'error' {
  if (side.status !== 'OK' || side.subtests.length === 0) return 'error';
  return side.subtests.every((s) => s.status === 'PASS') ? 'pass' : 'fail';
}

const authoredVerdict = (side: Extract<EngineSide, { kind: 'authored' }>): 'pass' | 'fail' | 'none' =>
  side.fail > 0 ? 'fail' : side.pass > 0 ? 'pass' : 'none';

/** Why a (file, engine) pair is not compared; null when both sides have a verdict. */
function skipOf(l: ParityCase, h: ParityCase | undefined, engine: EngineName): SkipReason | null {
  if (l.invalid !== null || h?.invalid) return 'refused';
  if (!h) return 'not_in_harness';
  const a = l.engines[engine];
  const b = h.engines[engine];
  if (a?.kind === 'error') return 'layout_engine_error';
  if (b?.kind === 'error') return 'harness_engine_error';
  if (a?.kind !== 'authored') return 'layout_no_result';
  if (b?.kind !== 'harness') return 'harness_no_result';
  return null;
}

const ratioOf = (t: Omit<Tally, 'ratio'>): Tally => ({ ...t, ratio: t.pairs ? t.agreeing / t.pairs : null });

/** The comparison of two journals of one configuration (checked apart: configDifference). */
export function compareJournals(layout: ParityJournal, harness: ParityJournal): ParityResult {
  const engines = ENGINE_NAMES.filter((e) => layout.config.engines.includes(e));
  const skipped: ParityResult['skipped'] = {};
  const directories = new Map<string, Omit<Tally, 'ratio'>>();
  const perEngine = new Map<EngineName, Omit<Tally, 'ratio'>>();
  const byCause: ParityResult['by_cause'] = {};
  const disagreements: Disagreement[] = [];
  const total = { pairs: 0, agreeing: 0, harness_pass: 0, authored_pass: 0 };
  let paired = 0;
  const ids = [...layout.cases.keys()].sort();
  for (const id of ids) {
    const l = layout.cases.get(id)!;
    const h = harness.cases.get(id);
    if (h) paired++;
    for (const engine of engines) {
      const skip = skipOf(l, h, engine);
      if (skip) {
        skipped[skip] = (skipped[skip] ?? 0) + 1;
        continue;
      }
      const a = l.engines[engine] as Extract<EngineSide, { kind: 'authored' }>;
      const b = h!.engines[engine] as Extract<EngineSide, { kind: 'harness' }>;
      const hv = harnessVerdict(b);
      const av = authoredVerdict(a);
      const agree = (hv === 'pass') === (av === 'pass');
      for (const t of [
        total,
        directories.get(directoryOf(id)) ?? directories.set(directoryOf(id), { pairs: 0, agreeing: 0 }).get(directoryOf(id))!,
        perEngine.get(engine) ?? perEngine.set(engine, { pairs: 0, agreeing: 0 }).get(engine)!,
      ]) {
        t.pairs++;
        if (agree) t.agreeing++;
      }
      if (hv === 'pass') total.harness_pass++;
      if (av === 'pass') total.authored_pass++;
      if (agree) continue;
      const cause = causeOf(l.request, { harness: hv, authored: av, subtests: b.subtests.map((s) => s.name) });
      byCause[cause] = (byCause[cause] ?? 0) + 1;
      disagreements.push({
        id,
        engine,
        cause,
        harness: { verdict: hv, status: b.status, subtests: b.subtests.length, failing: b.subtests.filter((s) => s.status !== 'PASS') },
        authored: { verdict: av, pass: a.pass, fail: a.fail, failures: a.failures },
      });
    }
  }
  return {
    layout: layout.path,
    harness: harness.path,
    config: layout.config,
    files: { layout: ids.length, paired },
    ...ratioOf({ pairs: total.pairs, agreeing: total.agreeing }),
    harness_pass: total.harness_pass,
    authored_pass: total.authored_pass,
    skipped,
    by_directory: Object.fromEntries([...directories].sort(([x], [y]) => (x < y ? -1 : 1)).map(([d, t]) => [d, ratioOf(t)])),
    by_engine: Object.fromEntries([...perEngine].map(([e, t]) => [e, ratioOf(t)])),
    by_cause: byCause,
    disagreements,
  };
}
