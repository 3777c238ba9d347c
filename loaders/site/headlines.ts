/**
 * The home page's headline results, computed once at build time from the
 * same data and code as the analysis pages (so the home page draws at once,
 * with no DuckDB in the browser): the gamma-Bench leaderboard's top models
 * (gamma-Bench (Huang et al. 2024) Tables 1–2, with Parley's strategies),
 * GLEE's market effects on efficiency and fairness (GLEE (Shapira et al.
 * 2024) Table 2) and the bargaining pair heatmap of Alice's self-gain
 * (Figure 1), on the simulated tournament.
 */
import {mkdirSync, mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {datasetTables} from "../datasets/emit.js";
import {writeIngest} from "../ingest/write.js";
import {generateRun} from "../runner/generate.js";
import {answerOverRuns} from "../analyses/overRuns.js";
import {gamabenchAnalysis} from "../../src/analyses/gamabench.js";
import {gleeAnalysis} from "../../src/analyses/glee.js";
import {fitGlee, pairEffects, GLEE_FAMILIES, type GleeFamily, type GleeRow, type PairEffect} from "../../src/lib/gleeDesign.js";
import {marketTable, type MarketRow} from "../../src/lib/gleeTables.js";
import {GAMABENCH_MODELS, type ScoreSummary} from "../../src/lib/gamabench.js";

export interface Headlines {
  gamabench: {model: string; label: string; paper: boolean; overall: number; sd: number | null; runs: number}[];
  markets: Record<string, MarketRow[]>;
  pairs: {family: string; metric: string; effects: PairEffect[]};
}

/** One family's regression rows (one per game) of the run in `dir`. */
const gleeRows = async (dir: string, family: GleeFamily) => (await answerOverRuns(gleeAnalysis, "regression-rows", dir, {family})) as GleeRow[];

export async function headlines(): Promise<Headlines> {
  const dir = mkdtempSync(join(tmpdir(), "parley-headlines-"));
  try {
    // gamma-Bench: the dataset exactly as its page receives it (the paper's files, if configured, and Parley's run).
    const gb = join(dir, "gamabench");
    mkdirSync(gb);
    await writeIngest((await datasetTables("gamabench")).result, gb);
    const scores = (await answerOverRuns(gamabenchAnalysis, "scores", gb)) as ScoreSummary;
    const known = new Map(GAMABENCH_MODELS.map((m) => [m.model as string, m.label as string]));
    const gamabench = Object.entries(scores)
      .filter(([, games]) => games.overall)
      .map(([model, games]) => ({model, label: known.get(model) ?? model, paper: known.has(model), overall: games.overall!.mean, sd: games.overall!.sd, runs: games.overall!.runs}))
      .sort((a, b) => b.overall - a.overall);

    // GLEE: the simulated tournament the family pages show.
    const glee = join(dir, "glee");
    mkdirSync(glee);
    await generateRun("default", glee);
    const markets: Record<string, MarketRow[]> = {};
    for (const family of GLEE_FAMILIES) {
      const rows = await gleeRows(glee, family);
      markets[family] = marketTable(fitGlee(rows, {family, metric: "efficiency", holdout: false}), fitGlee(rows, {family, metric: "fairness", holdout: false}));
    }
    const bargaining = await gleeRows(glee, "bargaining");
    const effects = pairEffects(fitGlee(bargaining, {family: "bargaining", metric: "alice_self_gain", pairs: true, holdout: false}));
    return {gamabench, markets, pairs: {family: "bargaining", metric: "alice_self_gain", effects}};
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}
