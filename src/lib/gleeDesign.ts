/**
 * The GLEE regression design (GLEE (Shapira et al. 2024) §3, Appendix F): which one-hot
 * features a family's regression has, their reference levels (Table 8), the
 * `market` interaction feature, and the model-pair effects of Figures 1 and
 * 21–23. Pure: rows in, fits and tables out; olsOneHot.ts does the algebra.
 *
 * Features per family (Appendix F.1; the market-defining parameters are
 * replaced by their interaction `market`):
 * - bargaining:  delta_a, delta_b, money, market = CI × MA × T
 * - negotiation: factor_a, factor_b, money, market = CI × MA × T
 * - persuasion:  prior, value_high, money, market = CI × message type × buyer type
 *   (T = 20 in every persuasion game, so it is not a feature)
 * plus `alice_agent` and `bob_agent`, or in the pair variant one feature
 * `pair` = the ordered (Alice agent, Bob agent).
 *
 * Baselines (Table 8): δ_A = δ_B = 0.9, F_A = F_B = 1, p = 0.5, v = 1.25,
 * M = 1e4; market: CI, no messages (binary messages), T = ∞ (bargaining),
 * T = 1 (negotiation), long-living buyer (persuasion). The baseline agent is
 * selectable; by default gemini-1.5-flash (Table 3's reference) when it
 * played, else the most frequent agent. The baseline pair is (baseline
 * agent, baseline agent) when it played.
 */
import {fitOneHot, fitOneHotCells, type OlsFit, type OneHotFeature} from "./olsOneHot.js";
import {GLEE_FAMILIES, GLEE_METRICS, type GleeFamily, type GleeMetric} from "./gleeMetrics.js";
import {cellTestStats, type GleeCell} from "./gleeCells.js";
import type {GleeRow} from "./gleeRows.js";

export {GLEE_FAMILIES, GLEE_METRICS, type GleeFamily, type GleeMetric};
export const METRIC_LABELS: Record<GleeMetric, string> = {
  efficiency: "Efficiency",
  fairness: "Fairness",
  alice_self_gain: "Alice self-gain",
  bob_self_gain: "Bob self-gain",
};

export type {GleeRow} from "./gleeRows.js";

/** Table 8's reference agent, used when it played. */
export const DEFAULT_BASELINE_AGENT = "gemini-1.5-flash";

/** "1e4" for powers of ten, else up to 3 significant digits ("0.333", "1.25"). */
export function formatNumberLevel(v: number): string {
  if (v > 0 && Number.isInteger(Math.log10(v)) && v >= 100) return `1e${Math.log10(v)}`;
  return String(Number(v.toPrecision(3)));
}

const yesNo = (b: boolean | null | undefined) => (b === null || b === undefined ? null : b ? "yes" : "no");
const horizonLevel = (h: number | null | undefined) => (h === null || h === undefined ? "∞" : String(h));
/** The level of a numeric column; formatted once per distinct value (this runs for every game of every fit). */
const num = (key: keyof GleeRow) => {
  const cache = new Map<number, string>();
  return (r: GleeRow) => {
    const v = r[key];
    if (typeof v !== "number" || !Number.isFinite(v)) return null;
    let level = cache.get(v);
    if (level === undefined) cache.set(v, (level = formatNumberLevel(v)));
    return level;
  };
};

/**
 * The market level of a game, e.g. "CI=yes, MA=no, T=∞" (bargaining,
 * negotiation) or "CI=yes, msg=binary, buyer=long_living" (persuasion).
 * Null when a component is missing.
 */
export function marketLevel(family: GleeFamily, r: GleeRow): string | null {
  const ci = yesNo(r.complete_information);
  if (family === "persuasion") {
    if (ci === null || !r.message_type || !r.buyer_type) return null;
    return `CI=${ci}, msg=${r.message_type}, buyer=${r.buyer_type}`;
  }
  const ma = yesNo(r.messages);
  if (ci === null || ma === null) return null;
  return `CI=${ci}, MA=${ma}, T=${horizonLevel(r.horizon)}`;
}

/** The components of a market level: [["CI", "yes"], ["MA", "no"], ["T", "∞"]]. */
export function marketParts(level: string): Array<[string, string]> {
  return level.split(", ").map((part) => {
    const k = part.indexOf("=");
    return [part.slice(0, k), part.slice(k + 1)] as [string, string];
  });
}

/** Table 8's default market per family. */
export const BASELINE_MARKET: Record<GleeFamily, string> = {
  bargaining: "CI=yes, MA=no, T=∞",
  negotiation: "CI=yes, MA=no, T=1",
  persuasion: "CI=yes, msg=binary, buyer=long_living",
};

/** Table 1's market levels per family (for reporting levels absent from a dataset). */
export const MARKET_LEVELS: Record<GleeFamily, string[]> = {
  bargaining: ["yes", "no"].flatMap((ci) => ["yes", "no"].flatMap((ma) => ["12", "∞"].map((t) => `CI=${ci}, MA=${ma}, T=${t}`))),
  negotiation: ["yes", "no"].flatMap((ci) => ["yes", "no"].flatMap((ma) => ["1", "10", "∞"].map((t) => `CI=${ci}, MA=${ma}, T=${t}`))),
  persuasion: ["yes", "no"].flatMap((ci) => ["binary", "text"].flatMap((m) => ["long_living", "myopic"].map((b) => `CI=${ci}, msg=${m}, buyer=${b}`))),
};

/** Table 1 parameter grids and Table 8 baselines of the non-market parameters. */
const PARAMETERS: Record<GleeFamily, Array<{name: keyof GleeRow; baseline: string; levels: string[]}>> = {
  bargaining: [
    {name: "delta_a", baseline: "0.9", levels: ["0.8", "0.9", "0.95", "1"]},
    {name: "delta_b", baseline: "0.9", levels: ["0.8", "0.9", "0.95", "1"]},
    {name: "money", baseline: "1e4", levels: ["1e2", "1e4", "1e6"]},
  ],
  negotiation: [
    {name: "factor_a", baseline: "1", levels: ["0.8", "1", "1.2", "1.5"]},
    {name: "factor_b", baseline: "1", levels: ["0.8", "1", "1.2", "1.5"]},
    {name: "money", baseline: "1e4", levels: ["1e2", "1e4", "1e6"]},
  ],
  persuasion: [
    {name: "prior", baseline: "0.5", levels: ["0.333", "0.5", "0.8"]},
    {name: "value_high", baseline: "1.25", levels: ["1.2", "1.25", "2", "3", "4"]},
    {name: "money", baseline: "1e4", levels: ["1e2", "1e4", "1e6"]},
  ],
};

/** The games columns a family's fit reads (its features' levels), and `family`. */
export function familyColumns(family: GleeFamily): string[] {
  const market = family === "persuasion" ? ["complete_information", "message_type", "buyer_type"] : ["complete_information", "messages", "horizon"];
  return ["family", "alice_agent", "bob_agent", ...PARAMETERS[family].map((p) => p.name), ...market];
}

export const PAIR_SEPARATOR = " | ";
export const pairLevel = (alice: string, bob: string) => `${alice}${PAIR_SEPARATOR}${bob}`;

export interface DesignOptions {
  /** One `pair` feature instead of alice_agent and bob_agent. */
  pairs?: boolean;
  /** Reference agent; default gemini-1.5-flash when it played, else the most frequent agent. */
  baselineAgent?: string | null;
}

/** Picks the baseline agent: the requested one, else Table 3's reference if present, else null (the fit then takes the most frequent). */
export function chooseBaselineAgent(rows: readonly GleeRow[], requested?: string | null): string | null {
  if (requested) return requested;
  return rows.some((r) => r.alice_agent === DEFAULT_BASELINE_AGENT || r.bob_agent === DEFAULT_BASELINE_AGENT) ? DEFAULT_BASELINE_AGENT : null;
}

/** The one-hot features of a family's regression. */
export function gleeFeatures(family: GleeFamily, {pairs = false, baselineAgent = null}: DesignOptions = {}): OneHotFeature<GleeRow>[] {
  const features: OneHotFeature<GleeRow>[] = PARAMETERS[family].map((p) => ({name: p.name, level: num(p.name), baseline: p.baseline, levels: p.levels}));
  features.push({name: "market", level: (r) => marketLevel(family, r), baseline: BASELINE_MARKET[family], levels: MARKET_LEVELS[family]});
  if (pairs) {
    features.push({
      name: "pair",
      level: (r) => (r.alice_agent && r.bob_agent ? pairLevel(r.alice_agent, r.bob_agent) : null),
      baseline: baselineAgent ? pairLevel(baselineAgent, baselineAgent) : null,
    });
  } else {
    features.push({name: "alice_agent", level: (r) => r.alice_agent ?? null, baseline: baselineAgent});
    features.push({name: "bob_agent", level: (r) => r.bob_agent ?? null, baseline: baselineAgent});
  }
  return features;
}

export interface GleeFitOptions extends DesignOptions {
  family: GleeFamily;
  metric: GleeMetric;
  /** Held-out RMSE (20 splits by default); false skips it (pages that refit on every input change). */
  holdout?: false | {splits?: number; testFraction?: number; seed?: number};
}

/** The rows (or cells) of the fit's family and its features; throws on an unknown family or metric. */
function familyDesign<R extends GleeRow>(rows: readonly R[], options: GleeFitOptions): {own: R[]; features: OneHotFeature<GleeRow>[]} {
  const {family, metric} = options;
  if (!GLEE_FAMILIES.includes(family)) throw new Error(`unknown family "${family}" (expected one of ${GLEE_FAMILIES.join(", ")})`);
  if (!(GLEE_METRICS as readonly string[]).includes(metric)) throw new Error(`unknown metric "${metric}" (expected one of ${GLEE_METRICS.join(", ")})`);
  const own = rows.filter((r) => r.family === family);
  const baselineAgent = chooseBaselineAgent(own, options.baselineAgent);
  return {own, features: gleeFeatures(family, {pairs: options.pairs, baselineAgent})};
}

/** Fits the family × metric regression on the rows of that family. */
export function fitGlee(rows: readonly GleeRow[], options: GleeFitOptions): OlsFit {
  const {own, features} = familyDesign(rows, options);
  return fitOneHot(own, {features, y: (r) => r[options.metric] ?? null, holdout: options.holdout});
}

/**
 * The same fit from the cells of gleeCellsSQL (run for `options.metric` and
 * the same holdout options): equal to `fitGlee` on the rows the cells
 * summarize, except that held-out splits are hash-assigned (hashSplits.ts).
 */
export function fitGleeCells(cells: readonly GleeCell[], options: GleeFitOptions): OlsFit {
  const {own, features} = familyDesign(cells, options);
  const holdout = options.holdout === false ? false : {splits: 20, testFraction: 0.2, seed: 1, ...options.holdout};
  if (holdout && own.some((c) => c.tests.length < 3 * holdout.splits)) throw new Error(`fitGleeCells: the cells hold statistics of fewer than ${holdout.splits} held-out splits; build them with the same holdout options`);
  return fitOneHotCells(own, {
    features,
    stats: (c) => c,
    rows: (c) => c.rows,
    holdout: holdout && holdout.splits > 0 ? {splits: holdout.splits, test: cellTestStats, test_fraction: holdout.testFraction, seed: holdout.seed} : false,
  });
}

export interface PairEffect {
  alice: string;
  bob: string;
  /** Effect of the pair relative to the mean outcome: β_pair − Σ_Q w_Q β_Q, w_Q the share of games of pair Q. */
  effect: number;
  se: number;
  ci_low: number;
  ci_high: number;
  /** Games the pair played. */
  n: number;
}

/**
 * Figures 1 and 21–23: each ordered pair's effect relative to the mean
 * outcome, from a pair-variant fit. The regression fits the mean exactly
 * (it has an intercept), so the model's average prediction for pair P over
 * the data's configurations, minus the mean outcome, is β_P − Σ_Q w_Q β_Q;
 * its standard error comes from the coefficient covariance. Pairs whose
 * level was dropped as collinear have no cell.
 */
export function pairEffects(fit: OlsFit): PairEffect[] {
  const levels = fit.rows.filter((r) => r.feature === "pair");
  const total = levels.reduce((s, r) => s + r.n, 0);
  if (!total) return [];
  const weights = levels.map((r) => ["pair", r.level, -r.n / total] as [string, string, number]);
  return levels.map((r) => {
    const c = fit.contrast([...weights, ["pair", r.level, 1]]);
    const k = r.level.indexOf(PAIR_SEPARATOR);
    return {
      alice: r.level.slice(0, k),
      bob: r.level.slice(k + PAIR_SEPARATOR.length),
      effect: c.estimate,
      se: c.se,
      ci_low: c.ci_low,
      ci_high: c.ci_high,
      n: r.n,
    };
  });
}

export interface MetaGame {
  rows: string[];
  cols: string[];
  /** Alice's expected self-gain per (Alice agent, Bob agent). */
  a: number[][];
  /** Bob's expected self-gain. */
  b: number[][];
  /** Games per cell. */
  n: number[][];
  /** Pairs without an estimate; the agents involved were left out of the table. */
  missing: string[];
  method: "adjusted" | "raw";
}

/**
 * Footnote 13's meta-game: users pick the agent that represents them, and
 * the payoff of (Alice agent i, Bob agent j) is each side's expected
 * self-gain over the dataset's configurations of the family.
 * - "adjusted" (default): mean self-gain + the pair's effect from the pair
 *   regression (pairEffects), i.e. the model's average prediction for the
 *   pair over every game of the family, so pairs that happened to play
 *   easier configurations gain nothing from it.
 * - "raw": the mean self-gain over the pair's own games. On a balanced
 *   tournament (every pair plays every configuration equally often) the two
 *   coincide.
 * A pair with no games (or a collinear level) has no payoff; the agent with
 * the most such holes is dropped, repeatedly, until the table is complete,
 * and the holes are listed in `missing`.
 */
export function metaGame(rows: readonly GleeRow[], family: GleeFamily, {method = "adjusted"}: {method?: "adjusted" | "raw"} = {}): MetaGame {
  const own = rows.filter((r) => r.family === family && r.alice_agent && r.bob_agent);
  if (method === "adjusted") {
    const fit = (metric: GleeMetric) => fitGlee(own, {family, metric, pairs: true, holdout: false});
    return metaGameOfFits(fit("alice_self_gain"), fit("bob_self_gain"), own);
  }
  const cells = new Map<string, {a: number; b: number; n: number}>();
  for (const r of own) {
    if (!Number.isFinite(r.alice_self_gain) || !Number.isFinite(r.bob_self_gain)) continue;
    const key = pairLevel(r.alice_agent!, r.bob_agent!);
    const c = cells.get(key) ?? {a: 0, b: 0, n: 0};
    c.a += r.alice_self_gain!;
    c.b += r.bob_self_gain!;
    c.n++;
    cells.set(key, c);
  }
  for (const c of cells.values()) (c.a /= c.n), (c.b /= c.n);
  return completeTable(cells, own, "raw");
}

/**
 * The "adjusted" meta-game from the two pair-variant fits of the family
 * (Alice's and Bob's self-gain, from rows or from cells, fitGleeCells), over
 * the agents of `seats` (the family's games, or cells, with both agents).
 */
export function metaGameOfFits(alice: OlsFit, bob: OlsFit, seats: readonly Pick<GleeRow, "alice_agent" | "bob_agent">[]): MetaGame {
  const cells = new Map<string, {a: number; b: number; n: number}>();
  const eb = new Map(pairEffects(bob).map((e) => [pairLevel(e.alice, e.bob), e]));
  for (const e of pairEffects(alice)) {
    const key = pairLevel(e.alice, e.bob);
    const other = eb.get(key);
    if (other) cells.set(key, {a: alice.y_mean + e.effect, b: bob.y_mean + other.effect, n: Math.min(e.n, other.n)});
  }
  return completeTable(cells, seats.filter((r) => r.alice_agent && r.bob_agent), "adjusted");
}

/** The payoff table over the agents of `seats`, the agent with the most holes dropped until it is complete (see metaGame). */
function completeTable(cells: Map<string, {a: number; b: number; n: number}>, seats: readonly Pick<GleeRow, "alice_agent" | "bob_agent">[], method: MetaGame["method"]): MetaGame {
  let rowNames = [...new Set(seats.map((r) => r.alice_agent!))].sort();
  let colNames = [...new Set(seats.map((r) => r.bob_agent!))].sort();
  const missing: string[] = [];
  for (const i of rowNames) for (const j of colNames) if (!cells.has(pairLevel(i, j))) missing.push(pairLevel(i, j));
  for (;;) {
    const holes = new Map<string, number>();
    for (const i of rowNames) for (const j of colNames) {
      if (cells.has(pairLevel(i, j))) continue;
      holes.set(`r:${i}`, (holes.get(`r:${i}`) ?? 0) + 1);
      holes.set(`c:${j}`, (holes.get(`c:${j}`) ?? 0) + 1);
    }
    if (!holes.size) break;
    const [worst] = [...holes.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0];
    if (worst.startsWith("r:")) rowNames = rowNames.filter((x) => x !== worst.slice(2));
    else colNames = colNames.filter((x) => x !== worst.slice(2));
  }
  const get = (i: string, j: string) => cells.get(pairLevel(i, j))!;
  return {
    rows: rowNames,
    cols: colNames,
    a: rowNames.map((i) => colNames.map((j) => get(i, j).a)),
    b: rowNames.map((i) => colNames.map((j) => get(i, j).b)),
    n: rowNames.map((i) => colNames.map((j) => get(i, j).n)),
    missing,
    method,
  };
}
