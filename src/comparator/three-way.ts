// The skeleton every three-way vote shares (geometry, trace, reflection): each engine's status,
// a comparison for every pair of usable engines, the clustering of the pairs that agree, and a
// re-vote of every item (node, record) some pair fails on. Each vote supplies only its pair
// comparison and what "agree" and "fails at an item" mean for it.
//
// Engines are visited in one fixed order whatever the response's key order, and pair keys are
// canonical, so a vote is invariant under permutation of the engines.
import { ENGINE_NAMES, type EngineName } from '../protocol/common.js';
import type { ClusterVerdict, EngineStatus, PairKey } from '../protocol/vote-schema.js';
import { cluster } from './cluster.js';

/** The key of an unordered pair of engines, names in alphabetical order: "chromium~firefox". */
export const pairKey = (x: EngineName, y: EngineName) => (x < y ? `${x}~${y}` : `${y}~${x}`) as PairKey;

/** What an engine brought to the vote: a result (usable, discarded, or unemulated: shown, never compared), or nothing. */
export type Presence = 'usable' | 'discarded' | 'unemulated' | undefined;

export interface ThreeWay<R> {
  verdict: ClusterVerdict;
  outlier: EngineName | null;
  majority: EngineName[];
  engines: Record<EngineName, EngineStatus>;
  usable: EngineName[];
  /** One comparison per pair of usable engines, in engine order. */
  pairs: Map<PairKey, R>;
}

/**
 * Compares every pair of usable engines and clusters them. An engine with an error is `error`
 * whatever it also brought; one that brought nothing is `absent`.
 */
export function threeWay<R>(
  presence: (engine: EngineName) => Presence,
  errors: Partial<Record<EngineName, string>> | undefined,
  comparePair: (a: EngineName, b: EngineName) => R,
  agree: (result: R) => boolean,
): ThreeWay<R> {
  const engines = {} as Record<EngineName, EngineStatus>;
  for (const e of ENGINE_NAMES) {
    const error = errors?.[e];
    engines[e] = error !== undefined ? { status: 'error', error } : { status: presence(e) ?? 'absent' };
  }
  const usable = ENGINE_NAMES.filter((e) => engines[e].status === 'usable');
  const pairs = new Map<PairKey, R>();
  for (let i = 0; i < usable.length; i++) {
    for (let j = i + 1; j < usable.length; j++) pairs.set(pairKey(usable[i]!, usable[j]!), comparePair(usable[i]!, usable[j]!));
  }
  const { verdict, outlier, majority } = cluster(usable, (x, y) => agree(pairs.get(pairKey(x, y))!));
  return { verdict, outlier, majority, engines, usable, pairs };
}

export interface ItemVote<K extends string> {
  /** The item's position (node index, record seq). */
  at: number;
  /** The engine the other two agree against at this item, else null. */
  outlier: EngineName | null;
  /** The failure kinds seen at this item in any pair, in `kindOrder`. */
  kinds: K[];
  /** The first pair (in engine order) that fails at this item. */
  firstPair: PairKey;
}

/**
 * Re-votes every item that fails in some pair, "agree" meaning "no failure at this item". A pair
 * that is not `comparable` item by item (its documents diverged, its record counts differ)
 * agrees at no item.
 */
export function voteItems<R, K extends string>(
  vote: Pick<ThreeWay<R>, 'usable' | 'pairs'>,
  failuresOf: (result: R) => Iterable<{ at: number; kind: K }>,
  comparable: (result: R) => boolean,
  kindOrder: readonly K[],
): ItemVote<K>[] {
  const failing = new Map<number, { pairs: Set<PairKey>; kinds: Set<K>; firstPair: PairKey }>();
  for (const [key, result] of vote.pairs) {
    for (const { at, kind } of failuresOf(result)) {
      const item = failing.get(at) ?? { pairs: new Set<PairKey>(), kinds: new Set<K>(), firstPair: key };
      failing.set(at, item);
      item.pairs.add(key);
      item.kinds.add(kind);
    }
  }
  return [...failing.keys()]
    .sort((x, y) => x - y)
    .map((at) => {
      const { pairs: failed, kinds, firstPair } = failing.get(at)!;
      const agreeHere = (x: EngineName, y: EngineName) => {
        const key = pairKey(x, y);
        return comparable(vote.pairs.get(key)!) && !failed.has(key);
      };
      return { at, outlier: cluster(vote.usable, agreeHere).outlier, kinds: kindOrder.filter((k) => kinds.has(k)), firstPair };
    });
}
