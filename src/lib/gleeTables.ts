/**
 * The GLEE paper's summary tables, built from fits (GLEE (Shapira et al. 2024) §4):
 * - Table 2: market effects on efficiency and fairness in percentage points
 *   relative to the default market, with CIs; "best" marks the levels whose
 *   interval reaches the highest estimate (not distinguishable from the best,
 *   the paper's bold), "worst" those whose interval reaches the lowest
 *   (underlined).
 * - Table 3: each agent's effect on its own self-gain per role (Alice's
 *   agent on Alice's self-gain, Bob's agent on Bob's) and family, in
 *   percentage points relative to the baseline agent, as "coef ± half-width".
 */
import type {CoefRow, OlsFit} from "./olsOneHot.js";
import {marketParts, type GleeFamily} from "./gleeDesign.js";

export interface Effect {
  /** Percentage points (coefficient × 100). */
  pp: number;
  ci_low: number;
  ci_high: number;
  /** Half-width of the CI in pp. */
  half: number;
  best: boolean;
  worst: boolean;
  n: number;
  baseline: boolean;
}

const toEffect = (r: CoefRow): Effect => ({
  pp: 100 * r.coef,
  ci_low: 100 * r.ci_low,
  ci_high: 100 * r.ci_high,
  half: 100 * (r.ci_high - r.coef),
  best: false,
  worst: false,
  n: r.n,
  baseline: r.level === r.baseline,
});

/** Marks best (CI reaches the max estimate) and worst (CI reaches the min) among `effects`. */
export function markExtremes(effects: Effect[]): void {
  const finite = effects.filter((e) => Number.isFinite(e.pp));
  if (finite.length < 2) return;
  const max = Math.max(...finite.map((e) => e.pp));
  const min = Math.min(...finite.map((e) => e.pp));
  const eps = 1e-9;
  for (const e of finite) {
    e.best = e.ci_high >= max - eps;
    e.worst = e.ci_low <= min + eps;
  }
}

export interface MarketRow {
  market: string;
  /** Components, e.g. {CI: "yes", MA: "no", T: "∞"}. */
  parts: Record<string, string>;
  efficiency: Effect | null;
  fairness: Effect | null;
}

/** Table 2 for one family: one row per market level in either fit, sorted by efficiency (highest first). */
export function marketTable(efficiency: OlsFit | null, fairness: OlsFit | null): MarketRow[] {
  const byLevel = new Map<string, MarketRow>();
  const add = (fit: OlsFit | null, key: "efficiency" | "fairness") => {
    if (!fit) return;
    const effects: Effect[] = [];
    for (const r of fit.rows) {
      if (r.feature !== "market") continue;
      const row = byLevel.get(r.level) ?? {market: r.level, parts: Object.fromEntries(marketParts(r.level)), efficiency: null, fairness: null};
      row[key] = toEffect(r);
      effects.push(row[key]!);
      byLevel.set(r.level, row);
    }
    markExtremes(effects);
  };
  add(efficiency, "efficiency");
  add(fairness, "fairness");
  return [...byLevel.values()].sort((x, y) => (y.efficiency?.pp ?? -Infinity) - (x.efficiency?.pp ?? -Infinity));
}

export interface AgentRow {
  agent: string;
  /** Keyed by `${family}/${role}`, role "alice" | "bob". */
  cells: Record<string, Effect | null>;
}

/**
 * Table 3: `fits` maps `${family}/alice` to the family's alice_self_gain fit
 * and `${family}/bob` to its bob_self_gain fit. Rows sorted by the first
 * column's effect (highest first); baselines show 0 ± 0.
 */
export function agentTable(fits: Partial<Record<`${GleeFamily}/${"alice" | "bob"}`, OlsFit | null>>): AgentRow[] {
  const rows = new Map<string, AgentRow>();
  const keys = Object.keys(fits) as Array<keyof typeof fits>;
  for (const key of keys) {
    const fit = fits[key];
    if (!fit) continue;
    const feature = key.endsWith("/alice") ? "alice_agent" : "bob_agent";
    const effects: Effect[] = [];
    for (const r of fit.rows) {
      if (r.feature !== feature) continue;
      const row = rows.get(r.level) ?? {agent: r.level, cells: {}};
      row.cells[key] = toEffect(r);
      effects.push(row.cells[key]!);
      rows.set(r.level, row);
    }
    markExtremes(effects);
  }
  const first = keys[0];
  return [...rows.values()].sort((x, y) => (y.cells[first]?.pp ?? -Infinity) - (x.cells[first]?.pp ?? -Infinity) || (x.agent < y.agent ? -1 : 1));
}

/** "2.8 ± 0.5" (pp, one decimal). */
export function formatEffect(e: Effect | null | undefined): string {
  if (!e) return "–";
  if (!Number.isFinite(e.half)) return `${e.pp.toFixed(1)} ± ?`;
  return `${e.pp.toFixed(1)} ± ${e.half.toFixed(1)}`;
}
