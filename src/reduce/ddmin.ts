// ddmin (Zeller and Hildebrandt) over the units of one level: the configuration is the list of
// unit indices kept. Each step splits it into n chunks and looks, in this order, for a
// configuration that still passes: the empty one (first step only), each chunk alone (when
// n > 2; for n = 2 the chunks are the complements), then each complement (everything but one
// chunk). The first success in that order is taken (see first-success.ts); on none, n doubles
// until chunks are single units. The result is 1-minimal at this level: removing any one
// remaining unit fails (unless a budget stopped the search).
import { firstSuccess } from './first-success.js';

/** How ddmin runs its tests. */
export interface DdminOptions {
  /** How many trials are tested at a time. */
  parallel: number;
  /** True once the budget is spent: ddmin then returns the best configuration found so far. */
  halted: () => boolean;
  /** Told each configuration ddmin moves to. */
  onAccept?: (keep: readonly number[]) => void;
}

function chunks(config: readonly number[], n: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < n; i++) out.push(config.slice(Math.floor((i * config.length) / n), Math.floor(((i + 1) * config.length) / n)));
  return out;
}

/** A smallest-found subset of the unit indices 0..size-1 for which `passes` holds. */
export async function ddmin(size: number, passes: (keep: readonly number[]) => Promise<boolean>, options: DdminOptions): Promise<number[]> {
  let config = Array.from({ length: size }, (_, i) => i);
  let n = 2;
  let first = true;
  while (config.length > 0 && !options.halted()) {
    const parts = chunks(config, Math.min(n, config.length));
    const subsets = parts.length > 2 ? parts : [];
    const complements = parts.map((_, i) => parts.filter((_, j) => j !== i).flat());
    const trials = [...(first ? [[]] : []), ...subsets, ...complements];
    first = false;
    const hit = await firstSuccess(trials, passes, options.parallel, options.halted);
    if (hit >= 0) {
      const isSubset = hit < trials.length - complements.length;
      config = trials[hit]!;
      options.onAccept?.(config);
      n = isSubset ? 2 : Math.max(n - 1, 2);
    } else if (n < config.length) {
      n = Math.min(2 * n, config.length);
    } else {
      break;
    }
  }
  return config;
}
