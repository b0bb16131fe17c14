// A candidate on a check-layout page: judged on the nodes the three browsers agree on
// (node-agreement.ts), inside its roots when it gave any, and on the page's authored expectations
// at WPT's rule (authored.ts) with values derived from its dump (authored-derive.ts).
//
// Box level: each engine's dump and the candidate's keep only the judged nodes (agreed, inside the
// roots); a judged node with no judged ancestor is a top, and each top's subtree is moved so the
// top sits at the origin: its own offset is not judged (what placed it — prose, a split ancestor,
// a root laid out alone — is not ground truth), its size and everything inside it are. Authored
// level: an element's sizes are judged when the browsers agree on its size; its offsets when its offset parent is
// agreed on every step up to it, or when every ancestor is agreed and the candidate placed its roots.
// `unsupported` when nothing is left to judge; never a pass then.
import type { AuthoredReading } from '../protocol/authored-schema.js';
import { AUTHORED_ATTRIBUTES } from '../protocol/authored-schema.js';
import { ENGINE_NAMES, type EngineName } from '../protocol/schema.js';
import type { CompareVerdict, VoteResult } from '../protocol/vote-schema.js';
import { actualOf, readingAssertions, tally, type AuthoredAssertion, type AuthoredTally } from './authored.js';
import { derivedNumber, derivedString } from './authored-derive.js';
import { scopeOf, scoped } from './candidate.js';
import type { ColumnarDump } from './columnar.js';
import { compare, type CompareResult } from './compare.js';
import { agreedOn, disagreements } from './node-agreement.js';

/** What a candidate was judged on. */
interface JudgedScope {
  /** Nodes judged: agreed by the browsers and inside its roots. */
  nodes: number;
  /** Nodes inside its roots that the browsers split on. */
  skipped_split: number;
  /** Nodes outside its roots. */
  out_of_scope: number;
  /** Authored assertions judged. */
  assertions: number;
  /** Of those, approximated from the dump (scroll sizes). */
  approximate: number;
}

export interface AuthoredCandidateResult {
  /** pass, fail, parse_divergence, or unsupported (nothing agreed inside its roots); never a pass on nothing. */
  verdict: CompareVerdict | 'unsupported';
  compares: Partial<Record<EngineName, CompareResult>>;
  authored: AuthoredTally;
  judged: JudgedScope;
}

const SEVERITY: readonly (CompareVerdict | 'unsupported')[] = ['pass', 'fail', 'parse_divergence', 'discarded', 'unsupported'];
const worst = <T extends CompareVerdict | 'unsupported'>(x: T, y: T) => (SEVERITY.indexOf(y) > SEVERITY.indexOf(x) ? y : x);
const OFFSET_NUMBERS = new Set(['offsetLeft', 'offsetTop']);

/** `d` (already scoped) with each top's subtree moved so that the top is at the origin. */
function rebased(d: ColumnarDump, judged: Uint8Array): ColumnarDump {
  const bounding = d.bounding.slice();
  const fragments = d.fragments.slice();
  const top = new Int32Array(d.count).fill(-1);
  for (let i = 0; i < d.count; i++) {
    if (!judged[i]) continue;
    const p = d.parents[i]!;
    top[i] = p >= 0 && judged[p] ? top[p]! : i;
    const t = top[i]!;
    const dx = d.bounding[t * 4]!;
    const dy = d.bounding[t * 4 + 1]!;
    bounding[i * 4] = d.bounding[i * 4]! - dx;
    bounding[i * 4 + 1] = d.bounding[i * 4 + 1]! - dy;
    for (let f = d.fragmentStart[i]!; f < d.fragmentStart[i + 1]!; f++) {
      fragments[f * 4] = d.fragments[f * 4]! - dx;
      fragments[f * 4 + 1] = d.fragments[f * 4 + 1]! - dy;
    }
  }
  return { ...d, bounding, fragments };
}

/** The candidate's dump against the engines' on a check-layout page; `readings`: the engines' own authored readings. */
export function judgeAuthoredCandidate(
  candidate: ColumnarDump,
  dumps: Partial<Record<EngineName, ColumnarDump>>,
  vote: Pick<VoteResult, 'engines' | 'pairs' | 'nodes'>,
  readings: Partial<Record<EngineName, AuthoredReading>>,
  { roots, placed = true }: { roots?: readonly number[]; placed?: boolean } = {},
): AuthoredCandidateResult {
  const n = candidate.count;
  const split = disagreements(vote, n);
  const inRoots = roots ? scopeOf(candidate, roots) : new Uint8Array(n).fill(1);
  const judged = new Uint8Array(n);
  // Every ancestor (and the node) agreed on: its place on the page is ground truth.
  const placedAgreed = new Uint8Array(n);
  const scope: JudgedScope = { nodes: 0, skipped_split: 0, out_of_scope: 0, assertions: 0, approximate: 0 };
  for (let i = 0; i < n; i++) {
    const agreed = split !== null && agreedOn(split, i);
    const p = candidate.parents[i]!;
    placedAgreed[i] = agreed && (p < 0 || placedAgreed[p] === 1) ? 1 : 0;
    if (!inRoots[i]) scope.out_of_scope++;
    else if (!agreed) scope.skipped_split++;
    else {
      judged[i] = 1;
      scope.nodes++;
    }
  }
  const compares: Partial<Record<EngineName, CompareResult>> = {};
  const mine = rebased(scoped(candidate, judged), judged);
  let verdict: CompareVerdict | 'unsupported' = scope.nodes ? 'pass' : 'unsupported';
  for (const engine of ENGINE_NAMES) {
    const dump = dumps[engine];
    if (!dump || !scope.nodes) continue;
    compares[engine] = compare(rebased(scoped(dump, judged), judged), mine);
    verdict = worst(verdict, compares[engine].verdict);
  }
  const reading = ENGINE_NAMES.map((e) => readings[e]).find((r) => r !== undefined);
  const offsetParents = new Map(reading?.elements.map((e) => [e.index, e.offset_parent]) ?? []);
  // An offset is ground truth when the browsers agree on every step from the node to its offset
  // parent, laid out by the candidate (inside its roots); against the viewport (no offset parent,
  // or BODY) only when every ancestor is agreed and the candidate placed its roots on the page.
  const offsetAgreed = (i: number, parent: number): boolean => {
    if (split === null) return false;
    if (parent < 0 || candidate.tagTable.name(candidate.tags[parent]!) === 'BODY') return (placed || !roots) && placedAgreed[i] === 1;
    if (!inRoots[parent]) return false;
    for (let k = i; k !== parent && k >= 0; k = candidate.parents[k]!) if (!agreedOn(split, k, ['offset'])) return false;
    return true;
  };
  const assertions: AuthoredAssertion[] = [];
  const shapeHolds = verdict !== 'parse_divergence' && verdict !== 'unsupported';
  for (const a of shapeHolds && reading ? readingAssertions(reading) : []) {
    // A node the prose only moved (its offset split the browsers) still has an agreed size.
    if (a.index >= n || !inRoots[a.index] || split === null || !agreedOn(split, a.index, ['size', 'fragment_count'])) continue;
    const needs: readonly string[] = AUTHORED_ATTRIBUTES[a.attr];
    const parent = offsetParents.get(a.index) ?? -1;
    const placedHere = offsetAgreed(a.index, parent);
    if (needs.some((v) => OFFSET_NUMBERS.has(v)) && !placedHere) continue;
    const values: Record<string, number | string | null> = {};
    for (const name of needs) {
      if (name === 'display' || name.startsWith('padding-') || name.startsWith('margin-')) {
        values[name] = derivedString(candidate, a.index, name as 'display');
        continue;
      }
      const derived = derivedNumber(candidate, a.index, name as Parameters<typeof derivedNumber>[2], parent);
      values[name] = derived.value;
      if (derived.approximate) scope.approximate++;
    }
    scope.assertions++;
    assertions.push({ ...a, actual: actualOf(a.attr, values) });
  }
  const authored = tally(assertions, [], (i) => candidate.tagTable.name(candidate.tags[i]!));
  if (verdict === 'pass' && authored.fail > 0) verdict = 'fail';
  return { verdict, compares, authored, judged: scope };
}
