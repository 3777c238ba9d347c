/**
 * Held-out splits assigned by hashing each game's id, so that they do not
 * depend on the order rows are read in (a run read as one directory or as n
 * shards, native DuckDB or DuckDB-WASM) and can be computed inside one GROUP
 * BY: every game falls in one of BUCKETS buckets (the first 32 bits of the
 * md5 of its id, modulo BUCKETS), and split s tests the games of
 * round(testFraction · BUCKETS) buckets drawn without replacement by a
 * generator seeded with `seed` (a different draw per split).
 */
import {mulberry32} from "./olsOneHot.js";

export const BUCKETS = 100;

export interface HashSplitOptions {
  splits: number;
  testFraction?: number;
  seed?: number;
}

/** SQL for the bucket (0 … BUCKETS − 1) of the id in the VARCHAR expression `id`; the same in native DuckDB and DuckDB-WASM. */
export function bucketSQL(id: string): string {
  return `(('0x' || left(md5(${id}), 8))::BIGINT % ${BUCKETS})::INTEGER`;
}

/** The test buckets of each split, in split order. */
export function splitBuckets({splits, testFraction = 0.2, seed = 1}: HashSplitOptions): number[][] {
  const random = mulberry32(seed);
  const take = Math.min(BUCKETS - 1, Math.max(1, Math.round(testFraction * BUCKETS)));
  const out: number[][] = [];
  for (let s = 0; s < splits; s++) {
    const pool = Array.from({length: BUCKETS}, (_, i) => i);
    // Partial Fisher–Yates: the first `take` entries are a uniform draw.
    for (let i = 0; i < take; i++) {
      const j = i + Math.floor(random() * (BUCKETS - i));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    out.push(pool.slice(0, take).sort((a, b) => a - b));
  }
  return out;
}
