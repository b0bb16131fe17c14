// The bucket signature of a candidate finding: one short line naming the candidate, what kind of
// finding it is, the failure kind, the subpixel tag, the node's tag and the box properties that
// differ, so that a campaign counts a thousand cases of one difference as one line. The browsers'
// own signatures (signature.ts) read `outlier firefox | size | DIV | height`; a candidate's read:
//
//   fail                candidate taffy | fail | size | - | DIV | height
//   subpixel fail       candidate taffy | fail | offset | subpixel | DIV | x
//   sides with outlier  candidate yoga | sides_with_outlier chromium | size | - | DIV | width,height
//   parse divergence    candidate taffy | parse_divergence | shape | - | DIV/SPAN | -
//   discarded           candidate taffy | discarded
//   unsupported         candidate taffy | unsupported | grid-template-columns
//   error               candidate taffy | error | candidate_timeout
//
// A case with mutations adds the candidate held to itself (candidate.ts, `fresh`): a
// self-disagreement has a bucket of its own, whatever the vote said:
//
//   boxes               candidate taffy | self | DIV | width
//   styles only         candidate taffy | self | DIV | style width
//   another tree        candidate taffy | self | shape | DIV/SPAN
//
// A pass has no signature, nor has a case whose engines have no majority: there is nothing to
// match, so it is not a finding about the candidate.
import type { Failure } from './compare.js';
import type { CandidateResult, FreshResult } from './candidate.js';
import type { ColumnarDump } from './columnar.js';
import { clean, errorCode, type GEOMETRY_KINDS } from './signature.js';
import { TOLERANCE } from './compare.js';

/** The box properties a failure involves, in this order: width, height (size), x, y (offset), fragments (count). */
const PROPERTY_ORDER = ['width', 'height', 'x', 'y', 'fragments'] as const;

interface FailingNode {
  index: number;
  kinds: Set<(typeof GEOMETRY_KINDS)[number]>;
  properties: Set<(typeof PROPERTY_ORDER)[number]>;
}

/** The signature of a candidate's result for a case, or null when it is no finding; `candidate` is the dump judged (null without one). */
export function candidateSignature(name: string, result: CandidateResult, candidate: ColumnarDump | null): string | null {
  const head = `candidate ${name}`;
  switch (result.verdict) {
    case 'pass':
    case 'no_majority':
      return null;
    case 'unsupported':
      return `${head} | unsupported | ${clean((result.unsupported ?? '').split(':')[0]!)}`;
    case 'error':
      return `${head} | error | ${errorCode(result.error ?? '')}`;
    case 'discarded':
      return `${head} | discarded`;
  }
  const against = result.majority.map((e) => result.compares[e]!);
  const verdict = result.sides_with_outlier ? `sides_with_outlier ${result.outlier}` : result.verdict;
  if (result.verdict === 'parse_divergence') {
    const d = against.find((c) => c.divergence)!.divergence!;
    const tags = [...new Set([d.a?.tag ?? '(end)', d.b?.tag ?? '(end)'])].sort();
    return `${head} | ${verdict} | shape | - | ${tags.join('/')} | -`;
  }
  const node = firstFailing(
    against.flatMap((c) => c.failures),
    candidate,
  );
  const tag = result.subpixel ? 'subpixel' : '-';
  if (!node) return `${head} | ${verdict} | - | ${tag} | - | -`;
  const kind = node.kinds.has('fragment_count') ? 'fragment_count' : node.kinds.has('size') ? 'size' : 'offset';
  const element = candidate ? candidate.tagTable.name(candidate.tags[node.index]!) : `#${node.index}`;
  const properties = PROPERTY_ORDER.filter((p) => node.properties.has(p));
  return `${head} | ${verdict} | ${kind} | ${tag} | ${element} | ${properties.join(',') || '-'}`;
}

/** Whether a candidate's signature is a self-disagreement's (candidateSelfSignature). */
export const isSelfSignature = (signature: string): boolean => /^candidate .* \| self \| /.test(signature);

/** The signature of a candidate's self-disagreement (its incremental dump `candidate` against its fresh one), or null when it agrees. */
export function candidateSelfSignature(name: string, fresh: FreshResult, candidate: ColumnarDump): string | null {
  if (fresh.self === 'agrees') return null;
  const head = `candidate ${name} | self`;
  const { divergence } = fresh.selfCompare;
  if (divergence) return `${head} | shape | ${[...new Set([divergence.a?.tag ?? '(end)', divergence.b?.tag ?? '(end)'])].sort().join('/')}`;
  const { index, properties } = selfFirst(fresh, candidate)!;
  return `${head} | ${candidate.tagTable.name(candidate.tags[index]!)} | ${properties}`;
}

/** The node a self-disagreement's signature names (where the incremental dump starts to differ from the fresh one), if the trees are alike. */
export function candidateSelfIndex(fresh: FreshResult, candidate: ColumnarDump): number | null {
  return fresh.self === 'differs' && !fresh.selfCompare.divergence ? selfFirst(fresh, candidate)!.index : null;
}

/** The first failing node of a self-disagreement with no divergence, and what differs there: geometry first, else styles. */
function selfFirst({ selfCompare }: FreshResult, candidate: ColumnarDump): { index: number; properties: string } | undefined {
  const node = firstFailing(selfCompare.failures, candidate);
  if (node) return { index: node.index, properties: PROPERTY_ORDER.filter((p) => node.properties.has(p)).join(',') || '-' };
  const first = selfCompare.style_mismatches[0];
  if (!first) return undefined;
  const properties = selfCompare.style_mismatches.filter((m) => m.index === first.index).map((m) => m.property);
  return { index: first.index, properties: `style ${properties.join(',')}` };
}

/** The index of the node where a candidate's geometry failures against the majority start (the one its signature names), if any. */
export function candidateFailingIndex(result: CandidateResult, candidate: ColumnarDump): number | null {
  return (
    firstFailing(
      result.majority.flatMap((e) => result.compares[e]?.failures ?? []),
      candidate,
    )?.index ?? null
  );
}

/**
 * Where the candidate's failures start, by the rule the browsers' signatures use (geometryFirst
 * in signature.ts): a failing node none of whose children fail (a size difference travels up
 * through every auto-sized ancestor), the first of those whose own size or fragment count differs,
 * else the first.
 */
function firstFailing(failures: Failure[], candidate: ColumnarDump | null): FailingNode | undefined {
  const nodes = new Map<number, FailingNode>();
  for (const f of failures) {
    const node = nodes.get(f.index) ?? { index: f.index, kinds: new Set(), properties: new Set() };
    nodes.set(f.index, node);
    switch (f.kind) {
      case 'size':
      case 'fragment':
        node.kinds.add('size');
        if (Math.abs(f.dw) > TOLERANCE) node.properties.add('width');
        if (Math.abs(f.dh) > TOLERANCE) node.properties.add('height');
        break;
      case 'fragment_count':
        node.kinds.add('fragment_count');
        node.properties.add('fragments');
        break;
      case 'offset':
        node.kinds.add('offset');
        if (Math.abs(f.dx) > TOLERANCE) node.properties.add('x');
        if (Math.abs(f.dy) > TOLERANCE) node.properties.add('y');
        break;
    }
  }
  const sorted = [...nodes.values()].sort((x, y) => x.index - y.index);
  const parents = new Set(candidate ? sorted.map((n) => candidate.parents[n.index]!) : []);
  const innermost = sorted.filter((n) => !parents.has(n.index));
  return innermost.find((n) => n.kinds.has('size') || n.kinds.has('fragment_count')) ?? innermost[0];
}
