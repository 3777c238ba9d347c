/**
 * Parley's pieces for pages of your own, from one import:
 *
 *   import {openDatabase, gleeMetricsSQL, fitGlee, Loading, Table} from "./components/kit.js";
 *
 * Everything here is re-exported from the module that defines it (nothing is
 * reimplemented), so your page computes exactly what the site's pages and
 * the `parley` commands compute. The worked example is src/study-discount.md;
 * the Guide's "Writing a page" (src/guide/pages.md) walks through it. Pages named
 * `src/study-*.md` are picked up as studies. Keep these offline rules: import
 * Plot and Inputs from node_modules (`import * as Plot from
 * "@observablehq/plot"`), pass Parquet attachments as `.href`, build DOM
 * with document.createElement and textContent (never the `html` template,
 * never agent text as HTML).
 */

// ── Data: open a run's or a dataset's tables in DuckDB-WASM.
/**
 * `openDatabase({games: FileAttachment("data/glee/games.parquet").href})`:
 * DuckDB-WASM with each file loaded as a table named by its key; `db.query(sql,
 * params)` returns plain row objects (BIGINT as number).
 */
export {openDatabase, type Database, type Row} from "./duckdb.js";
/**
 * `pageData({first, tables})`: answers from a build-time snapshot when it
 * has them, else from DuckDB-WASM (see the Guide's "Adding an analysis", First views).
 */
export {pageData, type PageData} from "./pageData.js";
/** A page's first view (`FirstView`, declared by its paper's analysis, src/analyses/<paper>.ts) and the named work (`Computation`) it answers at build time. */
export type {Computation, FirstView} from "../lib/snapshot.js";
/** The configured runs (src/generated/runs.js RUNS) beside a page's built-in datasets, and a run's card with its manifest. */
export {withRuns, DatasetCard, type ConfiguredRun, type PageDataset} from "./runDatasets.js";

// ── Metrics: one SQL definition, shared with the pages and the CLI.
/** GLEE (Shapira et al. 2024) §2 metrics per game: efficiency, fairness, self-gains (`gleeMetricsSQL(games, {carry, where, conventions})`; `conventions` the paper's formulas or GLEE's code's). */
export {gleeMetricsSQL, GLEE_FAMILIES, GLEE_METRICS, GLEE_PARAMETERS, GLEE_CONVENTIONS, CONVENTION_LABELS, type GleeFamily, type GleeMetric, type GleeConventions} from "../lib/gleeMetrics.js";
/** Self-gain by the agent's own discount factor (the worked example's SQL). */
export {selfGainByDiscountSQL, withIntervals, type SelfGainByDiscount} from "../lib/selfGain.js";
/** Seat rows of any game (`commonSeatsSQL`, `gleeSeatsSQL`) and the games the ratings read. */
export {commonSeatsSQL, gleeSeatsSQL, ratedGames, seatMetaGame, type SeatRow} from "../lib/ratingsData.js";

// ── Statistics: intervals, regressions, ratings, paired comparisons.
/** Student's t (`studentTQuantile(0.975, df)`) and the t interval of a mean (`meanInterval({n, mean, sd})`). */
export {meanInterval, studentTQuantile, studentTCdf} from "../lib/studentT.js";
/** One-hot OLS with 95 % intervals: on rows (`fitOneHot`) or on per-cell sufficient statistics (`fitOneHotCells`). */
export {fitOneHot, fitOneHotCells, type OlsFit, type CoefRow} from "../lib/olsOneHot.js";
/** GLEE's regression design (§3, Appendix F): `fitGlee(rows, {family, metric, pairs})`, pair effects, the meta-game of choosing an LLM. */
export {fitGlee, fitGleeCells, pairEffects, metaGame, METRIC_LABELS, type GleeRow, type PairEffect} from "../lib/gleeDesign.js";
/** The regression from one GROUP BY: `gleeCellsSQL(rows, metric)` then `fitGleeCells`. */
export {gleeCellsSQL, cellsFromColumns} from "../lib/gleeCells.js";
/** Bradley–Terry ratings with cluster-robust intervals, tiers and settledness (on a margin outcome too), and α-Rank. */
export {rateAgents, type RatedGame, type RatingsResult} from "../lib/ratings.js";
export {alphaRank} from "../lib/alphaRank.js";
/** Beside them: Davidson's ties model and Nash averaging on rated games, the ranking controlled for covariates, and `nashAverage(A)` of any antisymmetric matrix. */
export {davidsonRatings, nashRatings} from "../lib/ratingModels.js";
export {controlledRatings} from "../lib/controlledRatings.js";
export {nashAverage} from "../lib/nashAveraging.js";
/** Paired comparison of two agents (or runs): mean difference, t interval, t and sign-flip tests, Holm. */
export {compareAgents, compareRuns, pairedTest} from "../lib/compare.js";

// ── Equilibria of payoff tables.
/** Every Nash equilibrium of a bimatrix game (pure and mixed), and the adopt-or-not meta-game analysis. */
export {findEquilibria, type Bimatrix, type EquilibriaResult} from "../lib/equilibria.js";
export {analyseMetaGame, metaMatrix, type MetaTable} from "../lib/metaGame.js";

// ── Drawing, loading states, downloads, shareable inputs.
/** Charts: `Name(data, {width, ...})` returning a DOM node. */
export {CoefPlot} from "./coefPlot.js";
export {PairHeatmap} from "./pairHeatmap.js";
export {MetricByAgent, MetricHistogram, ParameterImpact} from "./gleeCharts.js";
export {MetaGameMatrix} from "./metaGameMatrix.js";
/** `Loading(promise, render, {what})`: "Loading <what>…" until the data is there, then the section, or one line saying what failed. */
export {Loading} from "./loading.js";
/** `Exportable(chart, {name})` adds SVG/PNG/CSV downloads; `Table(rows, {name, ...})` is Inputs.table with a CSV of every row. */
export {Exportable, Table} from "./exports.js";
/** `plot(options)`: Plot.plot with the colour-blind-safe palette; in Exportable its chart gets a description and a data table (src/components/figure.ts). */
export {plot} from "./figure.js";
/** `urlInput(name, create, codec)`: an input whose value lives in the page's URL, so a copied link opens the same view. */
export {urlInput, text, flag, integer, oneOf, someOf} from "./urlState.js";
