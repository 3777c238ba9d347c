/**
 * The GLEE regressions from sufficient statistics: one GROUP BY over the
 * regression rows (gleeRows.ts) gives, per cell of design columns (every
 * game sharing its parameters and players), the games, and over the games
 * with a finite outcome their count, sum and sum of squared deviations from
 * the cell mean; and the same over each held-out split's test games
 * (hashSplits.ts). olsOneHot.ts's `fitOneHotCells` fits from these exactly
 * what the row-level fit gives, at a cost that grows with cells, not games.
 * The SQL is the same in native DuckDB (`parley regress`) and DuckDB-WASM.
 */
import {DESIGN_COLUMNS, type GleeRow} from "./gleeRows.js";
import {GLEE_METRICS, type GleeMetric} from "./gleeMetrics.js";
import {bucketSQL, splitBuckets, type HashSplitOptions} from "./hashSplits.js";
import type {CellStats} from "./olsOneHot.js";

/** One cell: its design columns, games (`rows`), outcome statistics (`n`, `sum`, `m2`), and per split s the test games' n, sum, m2 at `tests[3s…3s+2]`. */
export type GleeCell = GleeRow & {rows: number; n: number; sum: number; m2: number; tests: Float64Array};

/** The design columns a cell is keyed by by default (source is a filter, not a feature). */
const KEYS: readonly string[] = DESIGN_COLUMNS.filter((c) => c !== "source");

/** count, sum and within-cell sum of squares of `y` among the rows where `when` holds. */
function statsSQL(when: string | null, suffix: string): string {
  const filter = when ? ` FILTER (WHERE ${when})` : "";
  return [
    `count(y)${filter}::DOUBLE AS n${suffix}`,
    `coalesce(sum(y)${filter}, 0)::DOUBLE AS sum${suffix}`,
    `coalesce(var_pop(y)${filter} * count(y)${filter}, 0)::DOUBLE AS m2${suffix}`,
  ].join(", ");
}

/**
 * One row per cell of `rows` (a FROM-expression with game_id, the design
 * columns and the metric, e.g. gleeRegressionRowsSQL's) for `metric`, with
 * the statistics of `holdout`'s splits; cells in key order. `keys`: the
 * columns the fit reads (gleeDesign.ts `familyColumns`; fewer keys, fewer
 * values to hand over), by default every design column.
 */
export function gleeCellsSQL(rows: string, metric: GleeMetric, holdout: HashSplitOptions | false = false, keys: readonly string[] = KEYS): string {
  if (!(GLEE_METRICS as readonly string[]).includes(metric)) throw new Error(`unknown metric "${metric}" (expected one of ${GLEE_METRICS.join(", ")})`);
  const splits = holdout ? splitBuckets(holdout) : [];
  const columns = [
    "count(*)::DOUBLE AS rows",
    statsSQL(null, ""),
    ...splits.map((buckets, s) => statsSQL(`bucket IN (${buckets.join(", ")})`, `_${s}`)),
  ];
  return `
SELECT ${keys.join(", ")}, ${columns.join(",\n  ")}
FROM (SELECT ${keys.join(", ")}, CASE WHEN isfinite(${metric}) THEN ${metric} END AS y, ${bucketSQL("game_id")} AS bucket FROM (${rows}))
GROUP BY ${keys.join(", ")}
ORDER BY ${keys.join(", ")}`;
}

/**
 * The cells of gleeCellsSQL's result given as columns (name -> values, as
 * DuckDB hands them over fastest), `splits` being the number of splits it was built for.
 */
export function cellsFromColumns(columns: Record<string, ArrayLike<unknown>>, splits: number): GleeCell[] {
  const count = columns.rows?.length ?? 0;
  const cells: GleeCell[] = [];
  const split = Array.from({length: splits}, (_, s) => [columns[`n_${s}`], columns[`sum_${s}`], columns[`m2_${s}`]]);
  const keys = Object.keys(columns).filter((name) => DESIGN_COLUMNS.includes(name as never));
  for (let i = 0; i < count; i++) {
    const tests = new Float64Array(3 * splits);
    const cell: Record<string, unknown> = {rows: columns.rows[i], n: columns.n[i], sum: columns.sum[i], m2: columns.m2[i], tests};
    for (const key of keys) cell[key] = columns[key][i];
    for (let s = 0; s < splits; s++) {
      const [n, sum, m2] = split[s];
      tests[3 * s] = n[i] as number;
      tests[3 * s + 1] = sum[i] as number;
      tests[3 * s + 2] = m2[i] as number;
    }
    cells.push(cell as unknown as GleeCell);
  }
  return cells;
}

/** The cells of gleeCellsSQL's result given as row objects (as a page's `query` returns them). */
export function cellsFromRows(rows: readonly Record<string, unknown>[], splits: number): GleeCell[] {
  const names = rows.length ? Object.keys(rows[0]) : [];
  return cellsFromColumns(Object.fromEntries(names.map((name) => [name, rows.map((r) => r[name])])), splits);
}

/** A cell's statistics over split s's test games. */
export const cellTestStats = (cell: GleeCell, s: number): CellStats => ({n: cell.tests[3 * s], sum: cell.tests[3 * s + 1], m2: cell.tests[3 * s + 2]});
