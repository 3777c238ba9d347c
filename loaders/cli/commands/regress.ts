/**
 * `parley regress <dir> --family F --metric M [--pairs] [--baseline-agent X]
 * [--conventions paper|glee-code]`: the GLEE one-hot regression
 * (src/lib/gleeDesign.ts, olsOneHot.ts) on the games of <dir>, metrics from
 * the shared SQL (in the chosen conventions) run by native DuckDB, fitted
 * from per-cell sufficient statistics that one GROUP BY computes
 * (src/lib/gleeCells.ts), so a million games cost what their cells cost.
 * Prints {summary, rows: [{feature, level, coef, se, ci_low, ci_high,
 * baseline, n}], dropped} as JSON (regressionReport, src/analyses/glee.ts,
 * whose measure `regression` is the same fit for `parley stats glee`);
 * --rows-only prints just the rows.
 */
import {existsSync, statSync} from "node:fs";
import {withInputViews, withRunInputs} from "./inputs.js";
import type {Db} from "../../io/duckdb.js";
import {familyColumns, fitGleeCells, GLEE_FAMILIES, GLEE_METRICS, type GleeFamily, type GleeMetric, type GleeRow} from "../../../src/lib/gleeDesign.js";
import {gleeRegressionRowsSQL} from "../../../src/lib/gleeRows.js";
import {cellsFromColumns, gleeCellsSQL, type GleeCell} from "../../../src/lib/gleeCells.js";
import type {HashSplitOptions} from "../../../src/lib/hashSplits.js";
import {GLEE_CONVENTIONS, type GleeConventions} from "../../../src/lib/gleeMetrics.js";
import {familyWhere, MAX_SPLITS, regressionReport} from "../../../src/analyses/glee.js";
import {choiceOption, intOption, parse, printJson, UsageError} from "./args.js";
import {usage} from "../../usage/regress.usage.js";


/**
 * Runs `sql` (given the regression rows' SQL of one family, optionally one
 * source, with metrics in `conventions`) over the games of a run directory (either layout, all shards), or
 * of a games Parquet file / glob.
 */
async function queryFamily<T>(dir: string, family: GleeFamily, source: string | undefined, conventions: GleeConventions, sql: (rows: string) => string, read: (db: Db, sql: string) => Promise<T>): Promise<T> {
  const query = sql(gleeRegressionRowsSQL("games", familyWhere(family, source), conventions));
  if (existsSync(dir) && statSync(dir).isDirectory()) {
    const hint = `expected ${family} games written by "parley run" or "parley ingest"`;
    return withRunInputs("regress", dir, ["games"], (game) => game === `glee/${family}`, hint, (db) => read(db, query));
  }
  if (!dir.includes("*") && !existsSync(dir)) throw new UsageError(`parley regress: ${dir} not found (expected a directory written by "parley run" or "parley ingest")`);
  return withInputViews("regress", {games: dir}, (db) => read(db, query));
}

/** Reads the regression rows of one family (one per game), with metrics in `conventions`. */
export function readGleeRows(dir: string, family: GleeFamily, source?: string, conventions: GleeConventions = "paper"): Promise<GleeRow[]> {
  return queryFamily(dir, family, source, conventions, (rows) => rows, (db, sql) => db.query<GleeRow & Record<string, unknown>>(sql));
}

/** Reads the regression cells of one family for `metric` (gleeCells.ts), with the statistics of `holdout`'s splits. */
export function readGleeCells(dir: string, family: GleeFamily, metric: GleeMetric, source?: string, holdout: HashSplitOptions | false = false, conventions: GleeConventions = "paper"): Promise<GleeCell[]> {
  const splits = holdout ? holdout.splits : 0;
  return queryFamily(dir, family, source, conventions, (rows) => gleeCellsSQL(rows, metric, holdout, familyColumns(family)), async (db, sql) => cellsFromColumns(await db.queryColumns(sql), splits));
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
  const holdout = splits ? {splits} : false;
  const conventions = choiceOption("regress", "conventions", values.conventions, GLEE_CONVENTIONS, "paper");
  const cells = await readGleeCells(positionals[0], family, metric, values.source, holdout, conventions);
  if (!cells.length) throw new UsageError(`parley regress: no ${family} games in ${positionals[0]}${values.source ? ` with source ${values.source}` : ""}`);
  const fit = fitGleeCells(cells, {family, metric, pairs: values.pairs, baselineAgent: values["baseline-agent"] ?? null, holdout});
  const report = regressionReport(fit, family, metric, values.pairs, conventions);
  printJson(values["rows-only"] ? report.rows : report);
  return 0;
}
