/**
 * `parley regress <dir> --family F --metric M [--pairs] [--baseline-agent X]
 * [--conventions paper|glee-code]`: the GLEE one-hot regression
 * (src/lib/gleeDesign.ts, olsOneHot.ts) on the games.parquet of <dir>,
 * metrics from the shared SQL (in the chosen conventions) run by native DuckDB.
 * Prints {summary, rows: [{feature, level, coef, se, ci_low, ci_high,
 * baseline, n}], dropped} as JSON; --rows-only prints just the rows.
 */
import {existsSync, statSync} from "node:fs";
import {queryInputs, withRunInputs} from "./inputs.js";
import {sqlString} from "../io/duckdb.js";
import {fitGlee, GLEE_FAMILIES, GLEE_METRICS, type GleeFamily, type GleeMetric, type GleeRow} from "../../src/lib/gleeDesign.js";
import {gleeRegressionRowsSQL} from "../../src/lib/gleeRows.js";
import {GLEE_CONVENTIONS, type GleeConventions} from "../../src/lib/gleeMetrics.js";
import type {OlsFit} from "../../src/lib/olsOneHot.js";
import {choiceOption, intOption, parse, printJson, UsageError} from "./args.js";
import {commands} from "./index.js";

/** Held-out RMSE splits; each refits the model, so the count is bounded. */
const MAX_SPLITS = 1000;

export const usage = commands.regress.usage;

/** Reads the regression rows of one family from a run directory (either layout), or a games Parquet file / glob, with metrics in `conventions`. */
export async function readGleeRows(dir: string, family: GleeFamily, source?: string, conventions: GleeConventions = "paper"): Promise<GleeRow[]> {
  const where = [`g.family = ${sqlString(family)}`, source ? `g.source = ${sqlString(source)}` : null].filter(Boolean).join(" AND ");
  const sql = gleeRegressionRowsSQL("games", where, conventions);
  if (existsSync(dir) && statSync(dir).isDirectory()) {
    const hint = `expected ${family} games written by "parley run" or "parley ingest"`;
    return withRunInputs("regress", dir, ["games"], (game) => game === `glee/${family}`, hint, (db) => db.query<GleeRow & Record<string, unknown>>(sql));
  }
  if (!dir.includes("*") && !existsSync(dir)) throw new UsageError(`parley regress: ${dir} not found (expected a directory written by "parley run" or "parley ingest")`);
  return queryInputs<GleeRow & Record<string, unknown>>("regress", {games: dir}, sql);
}

/** The JSON `parley regress` prints. */
export function regressionReport(fit: OlsFit, family: string, metric: string, pairs: boolean, conventions: GleeConventions = "paper") {
  return {
    summary: {
      family,
      metric,
      conventions,
      variant: pairs ? "pairs" : "agents",
      n: fit.n,
      excluded: fit.excluded,
      p: fit.p,
      df: fit.df,
      r2: fit.r2,
      sigma: fit.sigma,
      rmse: fit.rmse,
      ci: `${Math.round(fit.quantile.confidence * 100)}% = coef ± t(${fit.quantile.prob}, df = ${fit.quantile.df}) · se, t = ${fit.quantile.value}`,
      baselines: fit.baselines,
      notes: fit.notes,
    },
    rows: fit.rows.map(({feature, level, coef, se, ci_low, ci_high, baseline, n}) => ({feature, level, coef, se, ci_low, ci_high, baseline, n})),
    dropped: fit.dropped,
  };
}

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("regress", argv, {
    family: {type: "string"},
    metric: {type: "string"},
    pairs: {type: "boolean", default: false},
    "baseline-agent": {type: "string"},
    source: {type: "string"},
    splits: {type: "string"},
    "rows-only": {type: "boolean", default: false},
    conventions: {type: "string"},
  });
  if (positionals.length !== 1 || !values.family || !values.metric) throw new UsageError(`usage: parley ${usage}`);
  const family = values.family as GleeFamily;
  const metric = values.metric as GleeMetric;
  if (!GLEE_FAMILIES.includes(family)) throw new UsageError(`parley regress: --family must be one of ${GLEE_FAMILIES.join(", ")}, got "${values.family}"`);
  if (!(GLEE_METRICS as readonly string[]).includes(metric)) throw new UsageError(`parley regress: --metric must be one of ${GLEE_METRICS.join(", ")}, got "${values.metric}"`);
  const splits = intOption("regress", "splits", values.splits, {min: 0, max: MAX_SPLITS}, 20);
  const conventions = choiceOption("regress", "conventions", values.conventions, GLEE_CONVENTIONS, "paper");
  const rows = await readGleeRows(positionals[0], family, values.source, conventions);
  if (!rows.length) throw new UsageError(`parley regress: no ${family} games in ${positionals[0]}${values.source ? ` with source ${values.source}` : ""}`);
  const fit = fitGlee(rows, {family, metric, pairs: values.pairs, baselineAgent: values["baseline-agent"] ?? null, holdout: splits ? {splits} : false});
  const report = regressionReport(fit, family, metric, values.pairs, conventions);
  printJson(values["rows-only"] ? report.rows : report);
  return 0;
}
