/**
 * Allocations of Deal or No Deal, as Game-theoretic LLM: Agent Workflow for
 * Negotiation Games (Hua et al. 2024) §5 defines them: three item types with
 * counts c, Alice takes x ∈ ∏ {0..c_k} and Bob c − x, U_i = v_i · (own items).
 *
 * - Envy free (Def. 7, with the authors' weak inequalities): U_A(x) ≥ U_A(c − x)
 *   and U_B(c − x) ≥ U_B(x).
 * - Pareto optimal (Def. 8, as the authors' code checks it): no allocation is
 *   at least as good for both and strictly better for one, over all
 *   allocations (not only envy-free ones).
 * - "Best" (the row of Tables 10 and 12): the envy-free and Pareto-optimal
 *   allocation with the largest total; ties go to the first in lexicographic
 *   order of Alice's counts (itertools.product order).
 *
 * Pure: used by the game, the scripted agents, the pages and the tests. The
 * per-game SQL metrics (src/lib/dond.ts) apply the same definitions.
 */

export type Bundle = readonly number[];

/** v · x. */
export const value = (v: Bundle, x: Bundle): number => v[0] * x[0] + v[1] * x[1] + v[2] * x[2];

/** c − x: what the other side gets. */
export const rest = (counts: Bundle, x: Bundle): number[] => [counts[0] - x[0], counts[1] - x[1], counts[2] - x[2]];

/** Every share x ∈ ∏ {0..c_k}, in lexicographic order. */
export function allocations(counts: Bundle): number[][] {
  const out: number[][] = [];
  for (let a = 0; a <= counts[0]; a++) for (let b = 0; b <= counts[1]; b++) for (let c = 0; c <= counts[2]; c++) out.push([a, b, c]);
  return out;
}

/** Envy free for the holder of `x` valuing with `v`: v·x ≥ v·(c − x). */
export const noEnvy = (counts: Bundle, v: Bundle, x: Bundle): boolean => value(v, x) >= value(v, rest(counts, x));

/** Alice's share `xa` is envy free for both (Def. 7 with ≥). */
export const envyFree = (counts: Bundle, va: Bundle, vb: Bundle, xa: Bundle): boolean => noEnvy(counts, va, xa) && noEnvy(counts, vb, rest(counts, xa));

/** Utilities (U_A, U_B) are Pareto optimal among all allocations of `counts`. */
export function paretoOptimal(counts: Bundle, va: Bundle, vb: Bundle, ua: number, ub: number): boolean {
  for (const x of allocations(counts)) {
    const a = value(va, x);
    const b = value(vb, rest(counts, x));
    if (a >= ua && b >= ub && (a > ua || b > ub)) return false;
  }
  return true;
}

export interface BestAllocation {
  /** Alice's share. */
  alloc_a: number[];
  score_a: number;
  score_b: number;
  total: number;
  /** How many EF ∧ PO allocations share the maximum total. */
  tied: number;
}

/** The envy-free, Pareto-optimal allocation with the largest total (first in lexicographic order), or null when no allocation is envy free. */
export function bestAllocation(counts: Bundle, va: Bundle, vb: Bundle): BestAllocation | null {
  let best: BestAllocation | null = null;
  for (const x of allocations(counts)) {
    if (!envyFree(counts, va, vb, x)) continue;
    const a = value(va, x);
    const b = value(vb, rest(counts, x));
    if (!paretoOptimal(counts, va, vb, a, b)) continue;
    if (!best || a + b > best.total) best = {alloc_a: x, score_a: a, score_b: b, total: a + b, tied: 1};
    else if (a + b === best.total) best.tied++;
  }
  return best;
}

/** Whether any allocation of `counts` is envy free for both. */
export const hasEnvyFree = (counts: Bundle, va: Bundle, vb: Bundle): boolean => allocations(counts).some((x) => envyFree(counts, va, vb, x));

/** The envy-free allocations with the largest total (L*(v) of Def. 12), Alice's shares. */
export function bestEnvyFreeSet(counts: Bundle, va: Bundle, vb: Bundle): number[][] {
  let top = -Infinity;
  let set: number[][] = [];
  for (const x of allocations(counts)) {
    if (!envyFree(counts, va, vb, x)) continue;
    const t = value(va, x) + value(vb, rest(counts, x));
    if (t > top) [top, set] = [t, [x]];
    else if (t === top) set.push(x);
  }
  return set;
}

/** The item types in order, singular. */
export const ITEMS = ["book", "hat", "ball"] as const;
