/**
 * The analysis of Economics Arena (Guo et al. 2024): the beauty contest and
 * the auctions' payoff and rationality ratios, deviation from the Nash
 * equilibrium, win and rule-breaking rates (§3.2, Appendix A.3), Tables 1
 * and 2, convergence (Fig. 5), adaptivity (Fig. 3) and each decision's
 * deviation (Figures 1b, 2b, 4). The SQL is src/lib/econarena.ts's, over the
 * views econarenaViews makes; this file names it, and declares /econarena's
 * first view.
 */
import {adaptivitySQL, convergenceSQL, decisionsSQL, econarenaViews, statsSQL, table1SQL, table2SQL, type EconArenaViews} from "../lib/econarena.js";
import {deviationsQuery, GAMES_SQL, gameKey, oneGame, prepareEconarena, type GameMeasure} from "../lib/pages/econarena.js";
import type {FirstView, Query} from "../lib/snapshot.js";
import {measureSQL, sqlMeasure, type Analysis, type Measure} from "./analysis.js";

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
  viewMeasure("decisions", "Figures 1b, 2b, 4: one row per seat and run: agent, configuration, choice, payoff, payoff ratio, deviation from the equilibrium (Eq. 3), choice share, win and rule break", (v) => `SELECT * FROM (${decisionsSQL(v)}) ORDER BY game_id, run, seat`),
];

/** One game's rows (a game key, see gameKey) of the measure `name`, for /econarena's per-game sections. */
export const measureForGame = (name: GameMeasure, key: string): [string, unknown[]] => oneGame(name, measureSQL(econarenaAnalysis, name), key);

const firstViews: FirstView[] = [
  {
    page: "econarena",
    dataset: "econarena",
    tables: ["games", "players", "turns"],
    prepare: prepareEconarena,
    async script({query}) {
      for (const name of ["stats", "table-1", "table-2"]) await query(measureSQL(econarenaAnalysis, name));
      const [first] = await query(GAMES_SQL);
      if (!first) return;
      const key = gameKey(first as {game: string; format: string});
      for (const [sql, params] of [deviationsQuery(key), measureForGame("convergence", key), measureForGame("adaptivity", key)]) await query(sql, params);
    },
  },
];

export const econarenaAnalysis: Analysis = {
  paper: "econarena",
  title: "Economics Arena (Guo et al. 2024)",
  games: (game) => game.startsWith("econarena/"),
  inputHint: (dir) => `run "parley run <config.json> --out ${dir}" with econarena games first`,
  measures,
  defaultMeasure: "stats",
  firstViews,
};
