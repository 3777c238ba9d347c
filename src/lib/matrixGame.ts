/**
 * Solution concepts of a two-player one-shot matrix game, as Game-theoretic
 * LLM workflows (Hua et al. 2024) §4.1–4.2 use them: every pure Nash
 * equilibrium (pureNash.ts), every Pareto-optimal cell, dominant
 * strategies, and the verdict on a played cell (is it an equilibrium; is it
 * a Pareto-optimal one).
 *
 * "Pareto-optimal equilibrium" (the second column of Tables 5–8) is an
 * equilibrium that no other pure equilibrium Pareto-dominates: Stag Hunt's
 * (stag, stag) but not (hare, hare); both equilibria of Battle of the Sexes;
 * the Prisoner's Dilemma's (defect, defect), which is the only equilibrium
 * although (cooperate, cooperate) dominates it (Table 5 prints the two
 * columns equal there, so the paper compares equilibria with each other).
 *
 * Pure: shared by the pages, the games (loaders/games/gtllm/) and the CLI.
 */
import {pureNash, type PureEquilibrium} from "./pureNash.js";
import type {Bimatrix} from "./bimatrix.js";

/** A matrix game as its data file gives it: action names per seat and (u_Alice, u_Bob) per cell. */
export interface MatrixGame {
  rows: string[];
  cols: string[];
  /** payoffs[i][j] = [u_Alice, u_Bob] when Alice plays row i and Bob column j. */
  payoffs: [number, number][][];
}

export interface Cell {
  i: number;
  j: number;
}

export function toBimatrix(g: MatrixGame): Bimatrix {
  return {rows: g.rows, cols: g.cols, a: g.payoffs.map((r) => r.map((c) => c[0])), b: g.payoffs.map((r) => r.map((c) => c[1]))};
}

/** Whether payoff pair p Pareto-dominates q: at least as good for both, strictly better for one. */
export const dominates = (p: readonly number[], q: readonly number[]): boolean => p[0] >= q[0] && p[1] >= q[1] && (p[0] > q[0] || p[1] > q[1]);

/** The cells no other cell Pareto-dominates, row by row. */
export function paretoCells(g: MatrixGame): Cell[] {
  const all = g.payoffs.flatMap((r, i) => r.map((p, j) => ({i, j, p})));
  return all.filter((c) => !all.some((d) => dominates(d.p, c.p))).map(({i, j}) => ({i, j}));
}

/**
 * Solutions by payoff table: agents ask at every decision of every game, and
 * a game's payoffs are one array for the whole run. The cached lists are
 * shared; callers must not change them.
 */
const cache = new WeakMap<object, {nash?: PureEquilibrium[]; paretoNash?: Cell[]}>();
const cached = (g: MatrixGame) => {
  let entry = cache.get(g.payoffs);
  if (!entry) cache.set(g.payoffs, (entry = {}));
  return entry;
};

/** Every pure Nash equilibrium (exhaustive; exact for the integer payoffs of the paper's games). */
export function nashCells(g: MatrixGame): PureEquilibrium[] {
  const entry = cached(g);
  return (entry.nash ??= pureNash(toBimatrix(g), 0));
}

/** The pure equilibria no other pure equilibrium Pareto-dominates. */
export function paretoNashCells(g: MatrixGame): Cell[] {
  const entry = cached(g);
  if (entry.paretoNash) return entry.paretoNash;
  const ne = nashCells(g);
  const pay = (c: Cell) => g.payoffs[c.i][c.j];
  return (entry.paretoNash = ne.filter((c) => !ne.some((d) => dominates(pay(d), pay(c)))).map(({i, j}) => ({i, j})));
}

/** A player's dominant strategies: `strict` beats every other strategy against everything; `weak` is never worse and sometimes better than each other one. */
export interface Dominance {
  strict: number | null;
  weak: number[];
}

/** Dominant strategies of Alice (rows) and Bob (columns). */
export function dominantStrategies(g: MatrixGame): {alice: Dominance; bob: Dominance} {
  const {a, b} = toBimatrix(g);
  const bT = b[0].map((_, j) => b.map((row) => row[j]));
  return {alice: dominance(a), bob: dominance(bT)};
}

/** m[k][l] = the chooser's payoff for own strategy k against the other's l. */
function dominance(m: number[][]): Dominance {
  const others = (k: number) => m.map((_, x) => x).filter((x) => x !== k);
  const strictly = (k: number) => others(k).every((x) => m[k].every((v, l) => v > m[x][l]));
  const weakly = (k: number) => others(k).every((x) => m[k].every((v, l) => v >= m[x][l]) && m[k].some((v, l) => v > m[x][l]));
  const strict = m.findIndex((_, k) => strictly(k));
  return {strict: strict >= 0 ? strict : null, weak: m.flatMap((_, k) => (weakly(k) ? [k] : []))};
}

/** Whether cell (i, j) is a pure equilibrium, and a Pareto-optimal one (see the header); in a one-shot game every Nash equilibrium is the only kind, so is_any_ne = is_ne. */
export function cellVerdict(g: MatrixGame, i: number, j: number): {is_ne: boolean; is_po_ne: boolean; is_any_ne: boolean} {
  const same = (c: Cell) => c.i === i && c.j === j;
  const isNe = nashCells(g).some(same);
  return {is_ne: isNe, is_po_ne: paretoNashCells(g).some(same), is_any_ne: isNe};
}

/** Everything the pages show about a matrix game. */
export function solveMatrix(g: MatrixGame) {
  return {nash: nashCells(g).map(({i, j}) => ({i, j})), pareto: paretoCells(g), pareto_nash: paretoNashCells(g), dominant: dominantStrategies(g)};
}
