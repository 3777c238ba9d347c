/**
 * A small seeded random number generator (mulberry32) and a string hash
 * (cyrb53-style) to derive independent streams, so every game of a run is
 * reproducible from (run seed, game id) alone, whatever order games run in.
 * Pure: no DOM, no Node API.
 */

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** True with probability p. */
  bernoulli(p: number): boolean;
  /** A uniformly chosen element. */
  pick<T>(items: readonly T[]): T;
}

/** 32-bit hash of a string (seeded), for deriving seeds from ids. */
export function hash32(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

/** mulberry32: a class rather than closures, so creating thousands per second stays cheap. */
class Mulberry32 implements Rng {
  private a: number;
  constructor(seed: number) {
    this.a = seed >>> 0;
  }
  next(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  bernoulli(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
}

/** mulberry32 seeded with a 32-bit integer. */
export function createRng(seed: number): Rng {
  return new Mulberry32(seed);
}

/** An independent stream for `key` (e.g. "game-id/alice") under the run seed. */
export function deriveRng(seed: number, key: string): Rng {
  return createRng(hash32(key, seed));
}
