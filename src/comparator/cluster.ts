// Groups labelled items (normally the three engines) by pairwise agreement. Generic in what
// "agree" means: the geometry vote passes a dump comparison, later votes pass their own.
//
//   unanimous     every pair agrees
//   outlier       all but one agree with each other and the odd one agrees with none of them
//   split         anything else, including agreement that is not transitive (A≈B, B≈C,
//                 A≉C): within a tolerance, B bridging two items that disagree says nothing
//                 about which of them is right, so no majority is trusted
//   insufficient  fewer than 3 items: two that disagree cannot name an outlier, and two that
//                 agree are not a vote
//
// `agree` is called once per unordered pair and must be symmetric. `majority` is sorted, so
// the result does not depend on the order of `keys`.

import type { ClusterVerdict } from '../protocol/vote-schema.js';

export interface Cluster<K extends string> {
  verdict: ClusterVerdict;
  /** The one item outside the majority (verdict "outlier" only). */
  outlier: K | null;
  /** The agreeing items: all of them when unanimous, all but the outlier when outlier, else none. */
  majority: K[];
}

export function cluster<K extends string>(keys: readonly K[], agree: (a: K, b: K) => boolean): Cluster<K> {
  const n = keys.length;
  const none = (verdict: 'split' | 'insufficient'): Cluster<K> => ({ verdict, outlier: null, majority: [] });
  if (n < 3) return none('insufficient');

  const agrees = keys.map(() => new Array<boolean>(n).fill(false));
  for (let i = 0; i < n; i++) {
    agrees[i]![i] = true;
    for (let j = i + 1; j < n; j++) agrees[i]![j] = agrees[j]![i] = agree(keys[i]!, keys[j]!);
  }
  // Transitive (an equivalence) exactly when items that agree have the same agreement row.
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (agrees[i]![j] && agrees[i]!.some((v, k) => v !== agrees[j]![k])) return none('split');
    }
  }
  const large = agrees.findIndex((row) => row.filter(Boolean).length >= n - 1);
  if (large < 0) return none('split');
  const majority = keys.filter((_, k) => agrees[large]![k]).sort();
  const outlier = keys.find((k) => !majority.includes(k)) ?? null;
  return { verdict: outlier === null ? 'unanimous' : 'outlier', outlier, majority };
}
