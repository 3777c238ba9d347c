/**
 * The analysis of Economics Arena (Guo et al. 2024): the beauty contest and
 * the auctions' payoff and rationality ratios, deviation from the Nash
 * equilibrium, win and rule-breaking rates (§3.2, Appendix A.3), Tables 1
 * and 2, convergence (Fig. 5) and adaptivity (Fig. 3). The SQL is
 * src/lib/econarena.ts's, over the views econarenaViews makes; this file
 * names it.
 */
import {adaptivitySQL, convergenceSQL, econarenaViews, statsSQL, table1SQL, table2SQL, type EconArenaViews} from "../lib/econarena.js";
import {econarenaFirstView} from "../lib/pages/econarena.js";
import type {Query} from "../lib/snapshot.js";
import {sqlMeasure, type Analysis, type Measure} from "./analysis.js";

/** The views econarenaViews makes (fixed names, so that the SQL is known before they exist). */
const VIEWS: EconArenaViews = {games: "ea_games", players: "ea_players", turns: "ea_turns"};

async function prepareViews(query: Query): Promise<void> {
  const views = await econarenaViews(query);
  if (JSON.stringify(views) !== JSON.stringify(VIEWS)) throw new Error("econarenaViews named its views differently");
}

/** One measure of src/lib/econarena.ts over the views. */
const viewMeasure = (name: string, description: string, sql: (v: EconArenaViews) => string): Measure =>
  sqlMeasure({name, description, tables: ["games", "players", "turns"], format: "json", dataset: "econarena", prepare: prepareViews, sql: () => sql(VIEWS)});

const measures: Measure[] = [
  viewMeasure("stats", "§3.2, Appendix A.3: per game (and auction format), environment and agent: mean payoff, payoff ratio, rationality ratio (Eq. 1), mean deviation (Eq. 3), win and rule-break rates", statsSQL),
  viewMeasure("table-1", "Table 1's layout: average payoff per agent over the first 20, 60 and 100 sessions of the senior environment", (v) => table1SQL(v)),
  viewMeasure("table-2", "Table 2's layout: rule-breaking rate (%) per agent, without and with history", table2SQL),
  viewMeasure("convergence", "Fig. 5: per run of history sessions, each agent's mean strategy share, deviation and payoff ratio", convergenceSQL),
  viewMeasure("adaptivity", "§3.2, Fig. 3: each agent's strategy against the configuration (c̄ group; value and asset scale)", adaptivitySQL),
];

export const econarenaAnalysis: Analysis = {
  paper: "econarena",
  title: "Economics Arena (Guo et al. 2024)",
  games: (game) => game.startsWith("econarena/"),
  inputHint: (dir) => `run "parley run <config.json> --out ${dir}" with econarena games first`,
  measures,
  defaultMeasure: "stats",
  firstViews: [econarenaFirstView],
};
