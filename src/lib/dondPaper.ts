/**
 * The Deal-or-No-Deal numbers as printed in Game-theoretic LLM: Agent
 * Workflow for Negotiation Games (Hua et al. 2024), §5.5, Tables 10–14,
 * 16–19, for the pages to show beside Parley's runs, and the checks that
 * find where the paper contradicts itself. Nothing here is bent to match:
 * a printed value stays as printed, and the check says what it should be.
 */
import {bestAllocation, type Bundle} from "./dondAllocation.js";
import type {DondScores, DondStatsRow} from "./dond.js";

/** A printed row: rounds, agreement, Alice, Bob, PO, EF, total (rounds null where the table has none). */
export interface PaperRow extends DondScores {
  table: string;
  condition: string;
  model: string;
}

const row = (table: string, condition: string, model: string, v: (number | null)[]): PaperRow => ({
  table, condition, model, rounds: v[0], agreement: v[1]!, score_a: v[2]!, score_b: v[3]!, pareto_optimal: v[4]!, envy_free: v[5]!, total: v[6]!,
});

export const PAPER_ROWS: PaperRow[] = [
  row("10", "Best", "–", [null, 1, 5.82, 6.66, 1, 1, 12.48]),
  row("10", "Human", "human", [2.86, 0.6817, 3.32, 3.39, 0.4317, 0.4545, 6.64]),
  row("10", "raw vs raw", "Claude-3.5 Sonnet", [7.07, 0.9545, 5.55, 5.57, 0.7045, 0.7045, 11.11]),
  row("10", "raw vs raw", "o1", [3.86, 0.75, 4.39, 4.43, 0.4545, 0.4772, 8.82]),
  row("10", "raw vs raw", "GPT-4o", [18.45, 0.6363, 2.8, 4.38, 0.4091, 0.3864, 7.14]),
  row("10", "raw vs raw", "Claude-3 Opus", [4.37, 0.4772, 2.68, 3.02, 0.3636, 0.2727, 5.7]),
  row("11", "raw vs raw, temperature 0", "GPT-4o", [19.36, 0.5681, 2.98, 3.47, 0.4091, 0.326, 6.44]),
  row("12", "workflow vs workflow", "Claude-3 Opus", [4.05, 1, 5.82, 6.5, 0.9091, 0.9318, 12.31]),
  row("12", "workflow vs workflow", "GPT-4o", [4.91, 1, 5.93, 6.25, 0.8636, 1, 12.18]),
  row("12", "workflow vs workflow", "Claude-3.5 Sonnet", [4.45, 1, 5.93, 6.16, 0.7953, 0.9772, 12.11]),
  row("13", "workflow vs workflow, temperature 0", "GPT-4o", [4.8, 1, 5.53, 6.67, 0.8695, 1, 12.2]),
  row("17", "workflow Alice vs raw Bob", "Claude-3.5 Sonnet", [6.91, 0.9773, 4.88, 6.57, 0.6136, 0.5909, 11.45]),
  row("17", "workflow Alice vs raw Bob", "GPT-4o", [11.84, 0.8182, 3.66, 6.18, 0.5909, 0.3636, 9.84]),
  row("17", "workflow Alice vs raw Bob", "Claude-3 Opus", [3.86, 0.9091, 5.09, 5.53, 0.6136, 0.5909, 10.52]),
  row("18", "raw Alice vs workflow Bob", "Claude-3.5 Sonnet", [6.45, 1, 6.39, 5.7, 0.7727, 0.5909, 12.09]),
  row("18", "raw Alice vs workflow Bob", "GPT-4o", [11.36, 0.8181, 5.75, 4.14, 0.6136, 0.5227, 9.89]),
  row("18", "raw Alice vs workflow Bob", "Claude-3 Opus", [3.89, 0.7955, 4.86, 4.57, 0.4318, 0.5455, 9.43]),
];

/** Table 14 (hit = the paper's "precision", normalised hit = its "recall", reduction) and Table 16 (the indistinguishable-set versions). */
export const PAPER_VALUATION = [
  {model: "Claude-3.5 Sonnet", hit: 0.9545, hit_normalised: 0.3766, reduction: 0.7033, hit_i: 1, hit_i_normalised: 0.6022},
  {model: "GPT-4o", hit: 0.9545, hit_normalised: 0.3515, reduction: 0.698, hit_i: 1, hit_i_normalised: 0.5633},
  {model: "Claude-3 Opus", hit: 0.7954, hit_normalised: 0.2737, reduction: 0.6947, hit_i: 1, hit_i_normalised: 0.5399},
];

/** A place where the paper's numbers do not agree with themselves. */
export interface PaperInconsistency {
  where: string;
  printed: string;
  recomputed: string;
}

/**
 * Arithmetic checks of the printed rows: a total that is not Alice + Bob
 * (beyond the two-decimal rounding of each, 0.015), and a rate over 44
 * points that is not a multiple of 1/44 (more than 0.01 of a game off).
 */
export function printedRowChecks(rows: readonly PaperRow[] = PAPER_ROWS): PaperInconsistency[] {
  const out: PaperInconsistency[] = [];
  for (const r of rows) {
    const where = `Table ${r.table}, ${r.condition}, ${r.model}`;
    const sum = r.score_a + r.score_b;
    if (Math.abs(sum - r.total) > 0.015) out.push({where, printed: `total ${r.total.toFixed(2)}`, recomputed: `Alice + Bob = ${r.score_a.toFixed(2)} + ${r.score_b.toFixed(2)} = ${sum.toFixed(2)}`});
    for (const key of ["agreement", "pareto_optimal", "envy_free"] as const) {
      const games = r[key] * 44;
      if (Math.abs(games - Math.round(games)) > 0.01) {
        out.push({where, printed: `${key.replace("_", " ")} ${r[key]}`, recomputed: `${games.toFixed(2)} of 44 points: not a whole number of games (${Math.round(games)}/44 = ${(Math.round(games) / 44).toFixed(4)})`});
      }
    }
  }
  return out;
}

/**
 * Table 19 (the meta-game) against the tables it is built from: each cell
 * should be the (Alice, Bob) scores of Table 12 (U,U), 17 (U,N), 18 (N,U)
 * and 10 (N,N).
 */
export const TABLE19_PRINTED: Record<string, Record<"UU" | "UN" | "NU" | "NN", [number, number]>> = {
  "Claude-3.5 Sonnet": {UU: [5.82, 6.16], UN: [4.88, 6.57], NU: [6.39, 5.07], NN: [5.55, 5.57]},
  "GPT-4o": {UU: [5.93, 6.25], UN: [3.66, 6.18], NU: [5.75, 4.14], NN: [2.8, 4.38]},
  "Claude-3 Opus": {UU: [5.82, 6.5], UN: [5.09, 5.53], NU: [4.86, 4.57], NN: [2.8, 4.38]},
};

export function table19Checks(rows: readonly PaperRow[] = PAPER_ROWS): PaperInconsistency[] {
  const source = {UU: "12", UN: "17", NU: "18", NN: "10"} as const;
  const out: PaperInconsistency[] = [];
  for (const [model, cells] of Object.entries(TABLE19_PRINTED)) {
    for (const cell of ["UU", "UN", "NU", "NN"] as const) {
      const r = rows.find((x) => x.table === source[cell] && x.model === model && x.condition !== "Human");
      if (!r) continue;
      const [a, b] = cells[cell];
      if (a !== r.score_a || b !== r.score_b) {
        out.push({where: `Table 19, ${model}, (${cell[0]}, ${cell[1]})`, printed: `${a.toFixed(2)}, ${b.toFixed(2)}`, recomputed: `Table ${source[cell]}: ${r.score_a.toFixed(2)}, ${r.score_b.toFixed(2)}`});
      }
    }
  }
  return out;
}

export interface PointRow {
  counts: Bundle;
  values_a: Bundle;
  values_b: Bundle;
}

/** The "Best" row over the envy-free-feasible points given: mean Alice, Bob and total of the EF ∧ PO ∧ max-total allocation. */
export function bestRow(points: readonly PointRow[]): {n: number; score_a: number; score_b: number; total: number} {
  const best = points.map((p) => bestAllocation(p.counts, p.values_a, p.values_b)).filter((b) => b !== null);
  const n = best.length;
  const mean = (f: (b: NonNullable<(typeof best)[number]>) => number) => (n ? best.reduce((s, b) => s + f(b!), 0) / n : NaN);
  return {n, score_a: mean((b) => b.score_a), score_b: mean((b) => b.score_b), total: mean((b) => b.total)};
}

/** One column of Table 9 (§5.4): human outcomes on the dialogues at ℓ1 distance ≤ −difficulty, as printed. */
export type Table9Column = DondStatsRow;

const t9 = (difficulty: number, n: number, agreement: number, envy_free: number, pareto_optimal: number, both: number): Table9Column => ({difficulty, n, agreement, envy_free, pareto_optimal, both});

/** Table 9 as printed (Hua et al. 2024, §5.4), from the test split with the authors' selection. */
export const PAPER_TABLE9: readonly Table9Column[] = [
  t9(-2, 13, 0.5385, 0.3077, 0.5384, 0.3077),
  t9(-3, 27, 0.5556, 0.4074, 0.4444, 0.3333),
  t9(-4, 57, 0.5614, 0.4035, 0.4385, 0.3333),
  t9(-5, 85, 0.6235, 0.4824, 0.4823, 0.3882),
  t9(-6, 108, 0.6574, 0.5463, 0.5277, 0.4537),
  t9(-7, 133, 0.6917, 0.6015, 0.5413, 0.4812),
  t9(-8, 177, 0.7119, 0.6441, 0.531, 0.4858),
  t9(-9, 189, 0.7249, 0.6614, 0.5396, 0.4973),
  t9(-10, 210, 0.7381, 0.681, 0.5523, 0.5142),
  t9(-11, 217, 0.7373, 0.682, 0.5529, 0.5161),
];

export const TABLE9_RATES = ["agreement", "envy_free", "pareto_optimal", "both"] as const;
export type Table9Rate = (typeof TABLE9_RATES)[number];

/**
 * How a printed four-decimal value shows `value`: "rounded" (to the nearest),
 * "truncated" (cut after the fourth decimal, where that differs from
 * rounding), or "differs" (neither). 7/13 = 0.53846… prints as 0.5385
 * rounded, and Table 9 prints it 0.5384: truncated.
 */
export function printedAs(value: number, printed: number): "rounded" | "truncated" | "differs" {
  const digits = (x: number) => Math.round(x * 1e4);
  if (digits(value) === digits(printed)) return "rounded";
  // A small epsilon so that k/n exactly on a fourth decimal (0.4444… never, 0.5 always) truncates to itself.
  if (Math.floor(value * 1e4 + 1e-9) === digits(printed)) return "truncated";
  return "differs";
}

/** A printed rate of Table 9 read as a count out of its column's n: the count k whose k/n prints so, and how. */
export interface Table9Cell {
  difficulty: number;
  rate: Table9Rate;
  printed: number;
  n: number;
  /** The whole number of dialogues k with k/n printed as shown, or null when none is. */
  k: number | null;
  how: "rounded" | "truncated" | "differs";
}

/** Each printed rate of Table 9 as k out of n, and whether it is k/n rounded or truncated. */
export function table9Cells(columns: readonly Table9Column[] = PAPER_TABLE9): Table9Cell[] {
  return columns.flatMap((c) =>
    TABLE9_RATES.map((rate) => {
      const printed = c[rate];
      const near = Math.round(printed * c.n);
      for (const k of [near, near - 1, near + 1]) {
        const how = printedAs(k / c.n, printed);
        if (k >= 0 && k <= c.n && how !== "differs") return {difficulty: c.difficulty, rate, printed, n: c.n, k, how};
      }
      return {difficulty: c.difficulty, rate, printed, n: c.n, k: null, how: "differs" as const};
    }),
  );
}

/**
 * Table 10's Human row against the row recomputed from the human outcomes
 * of the 44 points (Def. 7 envy free, Def. 8 Pareto optimal): one line per
 * column that differs, and a line when the printed PO and EF look swapped
 * (printed PO is the recomputed EF and printed EF the recomputed PO, each to
 * within a hundredth of a game out of n, truncation included), which the
 * page states as likely, not as fact.
 */
export function humanRowChecks(recomputed: DondScores & {n: number}, printed: PaperRow = PAPER_ROWS.find((r) => r.condition === "Human")!): PaperInconsistency[] {
  const where = "Table 10, Human row";
  const out: PaperInconsistency[] = [];
  const games = (x: number) => x * recomputed.n;
  const sameGames = (x: number, y: number) => Math.abs(games(x) - games(y)) < 0.01 || printedAs(y, x) !== "differs";
  const rateText = (x: number) => `${x.toFixed(4)} (${games(x).toFixed(2)} of ${recomputed.n})`;
  for (const key of ["agreement", "pareto_optimal", "envy_free"] as const) {
    if (!sameGames(printed[key], recomputed[key])) out.push({where: `${where}, ${key.replace("_", " ")}`, printed: rateText(printed[key]), recomputed: `${rateText(recomputed[key])} from the recorded outcomes`});
  }
  for (const key of ["score_a", "score_b", "total"] as const) {
    if (Math.abs(printed[key] - recomputed[key]) > 0.005) out.push({where: `${where}, ${key === "total" ? "total" : key === "score_a" ? "Alice" : "Bob"}`, printed: printed[key].toFixed(2), recomputed: `${recomputed[key].toFixed(2)} from the recorded outcomes`});
  }
  const swapped = !sameGames(printed.pareto_optimal, recomputed.pareto_optimal) && sameGames(printed.pareto_optimal, recomputed.envy_free) && sameGames(printed.envy_free, recomputed.pareto_optimal);
  if (swapped) {
    out.push({
      where: `${where}, PO and EF`,
      printed: `PO ${printed.pareto_optimal.toFixed(4)}, EF ${printed.envy_free.toFixed(4)}`,
      recomputed: `the recorded outcomes give EF ${rateText(recomputed.envy_free)} and PO ${rateText(recomputed.pareto_optimal)}: the two printed columns are likely swapped (PO as printed is the EF share, EF as printed the PO share)`,
    });
  }
  return out;
}
