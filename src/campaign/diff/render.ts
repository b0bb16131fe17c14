// `diff` for people: who recorded each journal, the counts, then one row per listed case. Every
// string that came from a journal (ids, candidate names and versions, signatures, builds) goes
// through visible/visibleToken (src/system/visible-text.ts), so none can break a row or reach the terminal as a control.
import { ENGINE_NAMES } from '../../protocol/schema.js';
import { visible, visibleToken } from '../../system/visible-text.js';
import type { DiffCase, DiffResult, DiffSide, JournalSide } from './diff.js';

export function renderDiff(d: DiffResult): string {
  const c = d.counts;
  const listed = d.cases.length;
  const lines = [
    `base  ${who(d.base)}`,
    `head  ${who(d.head)}`,
    listed === 0
      ? `no changes: ${c.unchanged} case(s) alike`
      : `${listed} case(s) changed: ${c.newly_failing} newly failing, ${c.newly_passing} newly passing, ` +
        `${c.added} added, ${c.removed} removed, ${c.changed} changed; ${c.unchanged} alike`,
  ];
  if (listed === 0) return `${lines.join('\n')}\n`;
  const seen = new Map<string, number>();
  for (const k of d.cases) seen.set(k.id, (seen.get(k.id) ?? 0) + 1);
  const rows = d.cases.map((k) => [
    k.change,
    id(k, seen.get(k.id)! > 1),
    sideText(k.base, k.head),
    sideText(k.head, k.base) + buildsText(k),
  ]);
  const header = ['change', 'case', 'base', 'head'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const row = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  lines.push('', row(header), ...rows.map(row));
  return `${lines.join('\n')}\n`;
}

/** `path: chromium 1.2, firefox 3.4, webkit 5.6; candidate NAME (VERSION)`. */
function who(s: JournalSide): string {
  const engines = ENGINE_NAMES.filter((e) => s.engines[e]?.length).map((e) => `${e} ${s.engines[e]!.map((v) => visible(v)).join(' + ')}`);
  const candidate = s.candidate ? `candidate ${visibleToken(s.candidate.name)} (${visible(s.candidate.version)})` : 'no candidate';
  return `${visible(s.journal)}: ${s.cases} case(s); ${engines.join(', ') || 'no engine answered'}; ${candidate}`;
}

/** A case's id, with its content hashes when the id alone does not say which case it is (listed twice, or its content changed). */
function id(k: DiffCase, repeated: boolean): string {
  const hashes = [...new Set([k.base?.hash, k.head?.hash].filter((h) => h !== undefined))].map((h) => h.slice(0, 8));
  return repeated || hashes.length > 1 ? `${visibleToken(k.id)} @${hashes.join('→')}` : visibleToken(k.id);
}

/** One side: the vote (and its signature when it differs from the other side's), then the candidate's verdict likewise. */
function sideText(s: DiffSide | null, other: DiffSide | null): string {
  if (!s) return '-';
  const vote = s.vote === null ? 'invalid' : s.vote === 'outlier' ? `outlier ${s.outlier}` : s.vote;
  const parts = [s.signature !== null && s.signature !== other?.signature ? `${vote} [${visible(s.signature)}]` : vote];
  const c = s.candidate;
  if (c)
    parts.push(c.signature !== null && c.signature !== other?.candidate?.signature ? `${c.verdict} [${visible(c.signature)}]` : c.verdict);
  else if (other?.candidate) parts.push('no candidate answer');
  return parts.join(', ');
}

/** The engines whose build changed where the vote flipped: ` (chromium 1 → 2)`. */
function buildsText(k: DiffCase): string {
  if (!k.builds) return '';
  const changes = ENGINE_NAMES.filter((e) => k.builds![e]).map(
    (e) => `${e} ${visible(k.builds![e]!.base)} → ${visible(k.builds![e]!.head)}`,
  );
  return ` (${changes.join(', ')})`;
}
