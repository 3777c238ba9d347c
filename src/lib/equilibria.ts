/**
 * Nash equilibria of a bimatrix game, as `parley equilibria` and the
 * meta-game page report them.
 *
 * 1. Pure equilibria: every cell checked (pureNash.ts), always complete.
 * 2. Strictly dominated strategies are removed iteratively; this keeps every
 *    equilibrium and often shrinks a meta-game a lot.
 * 3. Mixed equilibria: support enumeration on the reduced game when it has
 *    at most `maxSupportPairs` support pairs (complete for nondegenerate
 *    games); otherwise Lemke–Howson from every label and from every
 *    equilibrium found (lemkeHowson.ts), which may miss some.
 * 4. Every candidate is verified with a best-response check on the original
 *    payoffs (isNash: no deviation gains more than 1e-9 of that player's
 *    payoff range) and deduplicated to 1e-7.
 *
 * The solvers work on each player's payoffs mapped to [0, 1] (equilibria are
 * invariant under positive affine maps), so the answer is the same whether
 * payoffs are in units of 1e-200 or 1e200, or shifted by 1e9.
 *
 * `mixed` lists the equilibria in which at least one player randomizes;
 * pure equilibria are only in `pure`.
 */
import {checkBimatrix, eliminateDominated, expectedPayoffs, isNash, subgame, type Bimatrix} from "./bimatrix.js";
import {pureNash, type PureEquilibrium} from "./pureNash.js";
import {supportEnumeration, supportPairs, type MixedProfile} from "./supportEnumeration.js";
import {lemkeHowsonAll, sameProfile} from "./lemkeHowson.js";

export type {Bimatrix} from "./bimatrix.js";
export type {PureEquilibrium} from "./pureNash.js";

export interface MixedEquilibrium {
  /** Alice's probabilities by row name (rows with probability 0 omitted). */
  row: Record<string, number>;
  /** Bob's probabilities by column name (0 omitted). */
  col: Record<string, number>;
  /** Full probability vectors over rows and cols. */
  x: number[];
  y: number[];
  /** Expected payoffs. */
  a: number;
  b: number;
}

export interface EquilibriaResult {
  pure: PureEquilibrium[];
  mixed: MixedEquilibrium[];
  method: "support-enumeration" | "lemke-howson";
  /** True when the mixed list is provably every equilibrium: support enumeration on a game where no system was singular. */
  complete: boolean;
  /** Strategies removed as strictly dominated (they are in no equilibrium). */
  eliminated: {rows: string[]; cols: string[]};
  /** Support pairs of the reduced game (the cost of support enumeration). */
  support_pairs: number;
}

export interface EquilibriaOptions {
  /** Use support enumeration up to this many support pairs; default 200,000 (a 9 × 9 game has 48,619; 10 × 10, 184,755). */
  maxSupportPairs?: number;
}

/** All pure equilibria and the mixed ones the methods above find, each verified. */
export function findEquilibria(input: Bimatrix, {maxSupportPairs = 200_000}: EquilibriaOptions = {}): EquilibriaResult {
  const game = checkBimatrix(input);
  const m = game.rows.length;
  const n = game.cols.length;
  const pure = pureNash(game);
  const kept = eliminateDominated(game);
  const reduced = subgame(game, kept.rows, kept.cols);
  const pairs = supportPairs(kept.rows.length, kept.cols.length);
  let candidates: MixedProfile[];
  let method: EquilibriaResult["method"];
  let complete: boolean;
  if (pairs <= maxSupportPairs) {
    const r = supportEnumeration(reduced);
    candidates = r.equilibria;
    method = "support-enumeration";
    complete = !r.singular;
  } else {
    candidates = lemkeHowsonAll(reduced).equilibria;
    method = "lemke-howson";
    complete = false;
  }
  const mixed: MixedEquilibrium[] = [];
  for (const c of candidates) {
    // Back to the full game's strategy indices.
    const x = new Array<number>(m).fill(0);
    const y = new Array<number>(n).fill(0);
    kept.rows.forEach((i, k) => (x[i] = c.x[k]));
    kept.cols.forEach((j, k) => (y[j] = c.y[k]));
    if (!isNash(game, x, y)) continue;
    const support = (v: number[]) => v.filter((p) => p > 1e-9).length;
    if (support(x) === 1 && support(y) === 1) continue; // pure: reported in `pure`
    if (mixed.some((e) => sameProfile(e, {x, y}))) continue;
    const [a, b] = expectedPayoffs(game, x, y);
    mixed.push({
      row: Object.fromEntries(game.rows.flatMap((name, i) => (x[i] > 1e-9 ? [[name, x[i]]] : []))),
      col: Object.fromEntries(game.cols.flatMap((name, j) => (y[j] > 1e-9 ? [[name, y[j]]] : []))),
      x,
      y,
      a,
      b,
    });
  }
  return {
    pure,
    mixed,
    method,
    complete,
    eliminated: {
      rows: game.rows.filter((_, i) => !kept.rows.includes(i)),
      cols: game.cols.filter((_, j) => !kept.cols.includes(j)),
    },
    support_pairs: pairs,
  };
}
