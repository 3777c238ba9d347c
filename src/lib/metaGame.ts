/**
 * The adoption meta-game of Game-theoretic LLM workflows (Hua et al. 2024)
 * §5.5.3–5.6, Table 19: for one model, Alice and Bob each choose to use the
 * negotiation workflow (U) or not (N); a cell holds the pair's mean scores
 * (u_Alice, u_Bob) from the experiment with that pairing: (U,U) Table 12,
 * (U,N) Table 17, (N,U) Table 18, (N,N) Table 10.
 *
 * The paper contradicts itself here, so both versions are kept: Table 19 as
 * printed (with the text's reading of it), and the cells taken from the four
 * source tables. They differ for Claude-3.5 Sonnet ((U,U) Alice 5.82 vs 5.93;
 * (N,U) Bob 5.07 vs 5.70, and Table 18's row total 12.09 confirms 5.70) and
 * for Claude-3 Opus (Table 19 prints (N,N) as 2.80, 4.38, GPT-4o's cell; the
 * text and Table 10 say 2.68, 3.02). With 5.70, Sonnet's equilibrium moves
 * from (N,N) to (N,U).
 */
import {dominantStrategies, nashCells, paretoCells, type Cell, type Dominance, type MatrixGame} from "./matrixGame.js";

export type MetaCell = [number, number];

/** The four pairings: [Alice uses, Bob uses]. */
export interface MetaTable {
  uu: MetaCell;
  un: MetaCell;
  nu: MetaCell;
  nn: MetaCell;
}

export const META_ACTIONS = ["use", "not use"];

export function metaMatrix(t: MetaTable): MatrixGame {
  return {rows: META_ACTIONS, cols: META_ACTIONS, payoffs: [[t.uu, t.un], [t.nu, t.nn]]};
}

export interface MetaAnalysis {
  /** Pure equilibria as [Alice's, Bob's] strategy names. */
  nash: [string, string][];
  dominant: {alice: Dominance; bob: Dominance};
  pareto: [string, string][];
}

const named = (cells: Cell[]): [string, string][] => cells.map((c) => [META_ACTIONS[c.i], META_ACTIONS[c.j]]);

/** Pure equilibria, dominant strategies and Pareto-optimal cells of one model's meta-game. */
export function analyseMetaGame(t: MetaTable): MetaAnalysis {
  const g = metaMatrix(t);
  return {nash: named(nashCells(g)), dominant: dominantStrategies(g), pareto: named(paretoCells(g))};
}

export interface PaperMetaGame {
  model: string;
  printed: MetaTable;
  /** The same cells from Tables 12, 17, 18 and 10. */
  sources: MetaTable;
  /** What the paper concludes (§5.6). */
  conclusion: string;
  /** Where printed and source cells differ, and why. */
  note: string | null;
}

/** Table 19 as printed and from its source tables. */
export const PAPER_META_GAMES: PaperMetaGame[] = [
  {
    model: "Claude-3.5 Sonnet",
    printed: {uu: [5.82, 6.16], un: [4.88, 6.57], nu: [6.39, 5.07], nn: [5.55, 5.57]},
    sources: {uu: [5.93, 6.16], un: [4.88, 6.57], nu: [6.39, 5.7], nn: [5.55, 5.57]},
    conclusion: "not using is dominant for both; the equilibrium (not use, not use) is Pareto-dominated by (use, use): a prisoner's dilemma",
    note: "Table 19 and the text print (U,U) Alice 5.82 and (N,U) Bob 5.07; Table 12 gives 5.93 and Table 18 gives 5.70 (its row total 12.09 = 6.39 + 5.70). With 5.70, Bob's best reply to N is U and the equilibrium is (N,U).",
  },
  {
    model: "GPT-4o",
    printed: {uu: [5.93, 6.25], un: [3.66, 6.18], nu: [5.75, 4.14], nn: [2.8, 4.38]},
    sources: {uu: [5.93, 6.25], un: [3.66, 6.18], nu: [5.75, 4.14], nn: [2.8, 4.38]},
    conclusion: "using is dominant for Alice; Bob's best reply is to use; the equilibrium (use, use) is Pareto-optimal",
    note: "The text compares Bob's 6.25 with 4.14 where the alternative is 6.18; the cells agree with their sources.",
  },
  {
    model: "Claude-3 Opus",
    printed: {uu: [5.82, 6.5], un: [5.09, 5.53], nu: [4.86, 4.57], nn: [2.8, 4.38]},
    sources: {uu: [5.82, 6.5], un: [5.09, 5.53], nu: [4.86, 4.57], nn: [2.68, 3.02]},
    conclusion: "using is dominant for both; the equilibrium (use, use) is Pareto-optimal",
    note: "Table 19 prints (N,N) as 2.80, 4.38 (GPT-4o's cell); the text and Table 10 give 2.68, 3.02. The equilibrium is (use, use) either way.",
  },
];
