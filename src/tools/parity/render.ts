// `wpt-parity`'s plain-text report: the ratios, what was skipped, and each disagreement with the
// harness's failing subtests, the authored failing assertions and the cause tag. Strings from the
// journals (ids, subtest names, expected values) are shown with visible() on lines of their own.
import type { AuthoredFailure } from '../../comparator/authored.js';
import { visible } from '../../system/visible-text.js';
import type { ParityResult, Tally } from './parity.js';

/** A list shown to this many items per disagreement; --json has them all. */
const SHOWN = 8;

const percent = (ratio: number | null) => (ratio === null ? '–' : `${(ratio * 100).toFixed(1)} %`);
const tallyLine = (name: string, t: Tally, width: number) =>
  `  ${visible(name).padEnd(width)}  ${String(t.agreeing).padStart(5)} / ${String(t.pairs).padEnd(5)}  ${percent(t.ratio)}`;

const assertion = (f: AuthoredFailure) =>
  `${visible(f.tag)} #${f.index} ${visible(f.attr)}: expected ${visible(JSON.stringify(f.expected))}, got ${visible(JSON.stringify(f.actual))}`;

function capped<T>(items: readonly T[], show: (item: T) => string, indent: string): string[] {
  const lines = items.slice(0, SHOWN).map((i) => `${indent}${show(i)}`);
  if (items.length > SHOWN) lines.push(`${indent}… and ${items.length - SHOWN} more (--json has them all)`);
  return lines;
}

export function renderParity(r: ParityResult): string {
  const builds = Object.entries(r.config.versions)
    .map(([e, v]) => `${e} ${v.join('+')}`)
    .join(', ');
  const lines = [
    `layout route:  ${visible(r.layout)}`,
    `harness route: ${visible(r.harness)}`,
    `configuration: ${visible(builds)}; fonts ${visible(r.config.fonts.join('+'))}`,
    `check-layout files: ${r.files.layout} in the layout journal, ${r.files.paired} with a trace in the harness journal`,
    `(file, engine) pairs: ${r.pairs}, agreeing ${r.agreeing}: ${percent(r.ratio)}` +
      ` (the harness passes ${r.harness_pass}, the authored assertions ${r.authored_pass})`,
  ];
  const skipped = Object.entries(r.skipped);
  if (skipped.length) lines.push(`skipped pairs: ${skipped.map(([reason, n]) => `${reason} ${n}`).join(', ')}`);
  const width = Math.max(10, ...Object.keys(r.by_directory).map((d) => visible(d).length));
  lines.push('', 'by directory (agreeing / pairs):', ...Object.entries(r.by_directory).map(([d, t]) => tallyLine(d, t, width)));
  lines.push('by engine:', ...Object.entries(r.by_engine).map(([e, t]) => tallyLine(e, t!, width)));
  if (r.disagreements.length === 0) return `${lines.join('\n')}\n\nno disagreement\n`;
  lines.push(
    '',
    `disagreements: ${r.disagreements.length} (${Object.entries(r.by_cause)
      .map(([c, n]) => `${c} ${n}`)
      .join(', ')})`,
  );
  for (const d of r.disagreements) {
    lines.push(`${visible(d.id)}  ${d.engine}  ${d.cause}`);
    const h = d.harness;
    lines.push(`  harness ${h.verdict}: status ${visible(h.status)}, ${h.subtests} subtest(s), ${h.failing.length} not PASS`);
    lines.push(...capped(h.failing, (s) => `${visible(JSON.stringify(s.name))} ${visible(s.status)}`, '    '));
    const a = d.authored;
    lines.push(`  authored ${a.verdict}: ${a.pass} held, ${a.fail} failed`);
    lines.push(...capped(a.failures, assertion, '    '));
  }
  return `${lines.join('\n')}\n`;
}
