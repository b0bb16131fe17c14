// A small seeded generator, written here rather than taken from a library so that a seed's
// cases stay byte-identical for as long as this file does: sfc32, seeded through splitmix32.

/** A value drawn with some relative weight. */
export type Weighted<T> = readonly [weight: number, value: T];

/** Deterministic pseudo-random numbers from any number of 32-bit unsigned seed words. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(...seeds: number[]) {
    let state = 0;
    for (const seed of seeds) state = mix32((state ^ seed) + 0x9e3779b9);
    const splitmix = (): number => {
      state = (state + 0x9e3779b9) | 0;
      return mix32(state);
    };
    this.a = splitmix();
    this.b = splitmix();
    this.c = splitmix();
    this.d = splitmix();
    for (let i = 0; i < 12; i++) this.uint32(); // sfc32's warm-up
  }

  /** The next 32-bit unsigned integer. */
  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor((this.uint32() / 0x100000000) * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.uint32() / 0x100000000 < p;
  }

  /** One of `items`, uniformly. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  /** One of `entries`' values, with probability proportional to its weight. */
  weighted<T>(entries: readonly Weighted<T>[]): T {
    const total = entries.reduce((sum, [weight]) => sum + weight, 0);
    let point = (this.uint32() / 0x100000000) * total;
    for (const [weight, value] of entries) {
      point -= weight;
      if (point < 0) return value;
    }
    return entries[entries.length - 1]![1];
  }

  /** `count` distinct items of `items`, in a random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    for (let i = 0; i < Math.min(count, pool.length); i++) {
      const j = this.int(i, pool.length - 1);
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    return pool.slice(0, count);
  }
}

/** MurmurHash3's finalizer: every input bit moves every output bit. */
function mix32(value: number): number {
  let z = value | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}
