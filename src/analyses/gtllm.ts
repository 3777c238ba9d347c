/**
 * The analysis of Game-theoretic LLM workflows (Hua et al. 2024): the
 * complete-information games of §4 (matrix and tree games, their equilibrium
 * rates, §4.3's Duopoly count, the adoption meta-game of §5.5.3–5.6) and the
 * Deal-or-No-Deal negotiation of §5 (Table 9's rates by difficulty, Tables
 * 10–13 and 17–18 per pairing, Tables 14–16's valuation estimates). The SQL
 * is src/lib/gtllm.ts's and src/lib/dond.ts's; this file names it.
 */
import {duopolyParetoSQL, gtllmGridSQL, gtllmStatsSQL, metaGameSQL, GTLLM_GAMES} from "../lib/gtllm.js";
import {DOND_SELECTIONS, dondBeliefSQL, dondBeliefTurns, dondGamesSQL, dondPairingSQL, dondStatsSQL, sourceTable, type DondSelection} from "../lib/dond.js";
import {valuationSummary, type BeliefRow, type ValuationSummary} from "../lib/dondBelief.js";
import {bestRow, humanRowChecks, PAPER_ROWS, type PointRow} from "../lib/dondPaper.js";
import {analyseMetaGame, metaMatrix, type MetaAnalysis, type MetaTable} from "../lib/metaGame.js";
import {findEquilibria, type EquilibriaResult} from "../lib/equilibria.js";
import {toBimatrix} from "../lib/matrixGame.js";
import {DOND_SOURCES_SQL, DOND_TURNS_SQL, HARD_POINTS_SQL, defaultSource} from "../lib/pages/dond.js";
import {TALKED_SQL, TALK_TURNS_SQL} from "../lib/pages/gtllm.js";
import type {Computation, FirstView, Row} from "../lib/snapshot.js";
import {measureSQL, NothingToMeasure, sqlMeasure, type Analysis, type GameSelector, type Measure, type Params} from "./analysis.js";

/** Parley's id of the Deal-or-No-Deal game (loaders/papers/gtllm/dond/game.ts). */
const DOND_GAME = "dond/negotiation";

const dondGames: GameSelector = (game) => game === DOND_GAME;
const dondHint = (dir: string) => `run "parley ingest dond <file> --out ${dir}" or "parley run data/runs/dond.json --out ${dir}" first`;

/** The games of one source (all when `source` is empty), as a table the SQL reads. */
const dondTable = (params: Params): string => (params.source ? sourceTable(String(params.source)) : "games");

const selectionParameter = {
  name: "selection", kind: "string", default: "all", choices: DOND_SELECTIONS,
  description: "which dialogues: all (each once) or paper (the lines the authors' code keeps for Table 9: one side per dialogue, no all-even counts, no \"maximum covered\" point, no repeated setting; ingested dialogues only)",
} as const;

const selectionOf = (params: Params): DondSelection => (params.selection === "paper" ? "paper" : "all");

const sourceParameter = {name: "source", kind: "string", default: "", description: "only the games of this source (dealornodeal, dond-hard50, simulated); all when empty"} as const;

/** One model's four pairings of a workflow and a plain player, with the game's equilibria and dominant strategies. */
export interface RunMetaGame extends MetaAnalysis {
  model: string;
  game: string;
  table: MetaTable;
  equilibria: EquilibriaResult;
}

/** The (model, game) pairs of metaGameSQL's rows that have all four pairings, each as a meta-game with its analysis. */
export function runMetaGames(rows: readonly Row[]): RunMetaGame[] {
  const keys = [...new Set(rows.map((r) => `${r.model}|${r.game}`))];
  const games: RunMetaGame[] = [];
  for (const key of keys) {
    const own = rows.filter((r) => `${r.model}|${r.game}` === key);
    if (own.length !== 4) continue;
    const cell = (a: boolean, b: boolean): [number, number] => {
      const r = own.find((x) => x.alice_uses === a && x.bob_uses === b)!;
      return [r.alice, r.bob];
    };
    const table: MetaTable = {uu: cell(true, true), un: cell(true, false), nu: cell(false, true), nn: cell(false, false)};
    games.push({model: own[0].model, game: own[0].game, table, ...analyseMetaGame(table), equilibria: findEquilibria(toBimatrix(metaMatrix(table)))});
  }
  return games;
}

/**
 * Tables 14–16 from the beliefs stored on every turn: each game's last
 * belief and the belief held at the end of each round. A named computation,
 * so that /dond-beliefs reads the summaries (small) rather than every belief
 * (large) from its first view.
 */
export const valuationSummaries: Computation<Record<string, never>, {last: ValuationSummary[]; byRound: ValuationSummary[]}> = {
  name: "dond-valuation-summaries",
  async compute(query) {
    const beliefs = (await query(dondBeliefSQL("games", await dondBeliefTurns(query)))) as unknown as BeliefRow[];
    return {last: valuationSummary(beliefs), byRound: valuationSummary(beliefs, {byRound: true})};
  },
};

const measures: Measure[] = [
  sqlMeasure({
    name: "pairings",
    description: "§4.2, Tables 5–8's rows: per game, ordered pair, talk rounds and workflow use, ne_rate (the paper's: a pure Nash equilibrium, in trees the subgame-perfect path), po_ne_rate (a Pareto-optimal one) and any_ne_rate (trees: the outcome of any pure Nash equilibrium) (every pairing; --game keeps one game)",
    tables: ["games"],
    parameters: [{name: "game", kind: "string", default: "", description: "only this game's pairings (e.g. gtllm/prisoners_dilemma); every game when empty"}],
    format: "json",
    dataset: "gtllm",
    sql: ({game}) => gtllmStatsSQL(game ? `(SELECT * FROM games WHERE game = '${String(game).replace(/'/g, "''")}')` : "games"),
  }),
  sqlMeasure({
    name: "tables-5-8",
    description: "Tables 5–8 as Parley's runs fill them: NE (trees: subgame perfect, the paper's), PO-NE and any-NE rates per game for each player in self-play, by talk rounds and workflow use",
    tables: ["games"],
    format: "json",
    dataset: "gtllm",
    sql: () => gtllmGridSQL("games"),
  }),
  sqlMeasure({
    name: "duopoly-pareto",
    description: "§4.3's Duopoly count: choices of the Pareto action (quantity level 2) out of all choices, per self-play player, talk rounds and workflow use",
    tables: ["games"],
    format: "json",
    dataset: "gtllm",
    sql: () => duopolyParetoSQL("games"),
  }),
  sqlMeasure({
    name: "meta-game-payoffs",
    description: "§5.5.3–5.6, Table 19 from runs: mean payoffs per model, game and pairing of a workflow and a plain player",
    tables: ["games"],
    format: "json",
    dataset: "gtllm",
    sql: () => metaGameSQL("games"),
  }),
  {
    name: "meta-game",
    description: "§5.5.3–5.6, Table 19 from runs: each model and game with all four pairings as a 2×2 game (use the workflow or not), its pure and mixed equilibria, dominant strategies and Pareto-optimal cells",
    tables: ["games"],
    format: "json",
    dataset: "gtllm",
    answer: async (query) => runMetaGames(await query(metaGameSQL("games"))),
  },
  sqlMeasure({
    name: "dond-difficulty",
    description: "Deal or No Deal, §5.3–5.4, Table 9: agreement, envy-free and Pareto-optimal rates per difficulty (with --cumulative, each row pools every dialogue at least that difficult)",
    tables: ["games"],
    games: dondGames,
    inputHint: dondHint,
    parameters: [{name: "cumulative", kind: "boolean", default: false, description: "pool every dialogue at least as difficult, as Table 9 does"}, sourceParameter, selectionParameter],
    format: "json",
    dataset: "dond",
    sql: (params) => dondStatsSQL(dondTable(params), {cumulative: params.cumulative === true, selection: selectionOf(params)}),
  }),
  sqlMeasure({
    name: "dond-dialogues",
    description: "Deal or No Deal, §5.3–5.4: every dialogue with its difficulty, scores, envy freeness and Pareto optimality, most difficult first",
    tables: ["games"],
    games: dondGames,
    inputHint: dondHint,
    parameters: [sourceParameter, selectionParameter],
    format: "jsonl",
    dataset: "dond",
    sql: (params) => dondGamesSQL(dondTable(params), selectionOf(params)),
  }),
  sqlMeasure({
    name: "dond-pairings",
    description: "Deal or No Deal, §5.5, Tables 10–13 and 17–18: per pairing, mean rounds, agreement, each side's score, Pareto-optimal and envy-free shares and total, over the points with an envy-free allocation",
    tables: ["games"],
    games: dondGames,
    inputHint: dondHint,
    format: "json",
    dataset: "dond",
    sql: () => dondPairingSQL("games"),
  }),
  {
    name: "dond-best",
    description: "Deal or No Deal, §5.5.1, Table 10's Best row: over the hard points with an envy-free allocation, the mean Alice, Bob and total of the envy-free, Pareto-optimal allocation with the largest total (printed 5.82, 6.66, 12.48)",
    tables: ["games"],
    games: dondGames,
    inputHint: (dir) => `run "parley ingest dond-hard50 data/dond/hard50.json --out ${dir}" or "parley run data/runs/dond.json --out ${dir}" first`,
    format: "json",
    dataset: "dond",
    answer: async (query) => bestRow((await query(HARD_POINTS_SQL)) as unknown as PointRow[]),
  },
  {
    name: "dond-human-row",
    description: "Deal or No Deal, §5.5.1, Table 10's Human row: Parley's row from the outcomes recorded with the 44 points (source dond-hard50), the printed row, and where they differ, the likely swap of PO and EF included",
    tables: ["games"],
    games: dondGames,
    inputHint: (dir) => `run "parley ingest dond-hard50 data/dond/hard50.json --out ${dir}" first`,
    format: "json",
    dataset: "dond",
    async answer(query) {
      const human = (await query(dondPairingSQL("games"))).find((r) => r.source === "dond-hard50");
      if (!human) throw new NothingToMeasure("no human outcomes of the hard points (source dond-hard50) in these games");
      const printed = PAPER_ROWS.find((r) => r.condition === "Human")!;
      return {parley: human, printed, differences: humanRowChecks(human as unknown as Parameters<typeof humanRowChecks>[0], printed)};
    },
  },
  {
    name: "dond-valuations",
    description: "Deal or No Deal, §5.2, Tables 14–16: the belief workflow's valuation estimates, from each game's last belief and per round",
    tables: ["games", "turns"],
    games: dondGames,
    inputHint: dondHint,
    format: "json",
    dataset: "dond",
    answer: (query) => valuationSummaries.compute(query, {}),
  },
];

/** The game /gtllm's pair table opens on: the first of the paper's ten. */
export const DEFAULT_PAIR_GAME = GTLLM_GAMES[0][0];

const firstViews: FirstView[] = [
  {
    page: "dond",
    dataset: "dond",
    tables: ["games", "turns"],
    async script({query}) {
      const source = defaultSource((await query(DOND_SOURCES_SQL)).map((r) => String(r.source)));
      if (source === undefined) return;
      await query(measureSQL(gtllmAnalysis, "dond-difficulty", {source, cumulative: false}));
      const [first] = await query(measureSQL(gtllmAnalysis, "dond-dialogues", {source}));
      if (first) await query(DOND_TURNS_SQL, [first.game_id]);
    },
  },
  {
    page: "dond-played",
    dataset: "dond",
    tables: ["games"],
    async script({query}) {
      await query(measureSQL(gtllmAnalysis, "dond-pairings"));
      await query(HARD_POINTS_SQL);
    },
  },
  {
    page: "dond-beliefs",
    dataset: "dond",
    tables: ["games", "turns"],
    script: async ({memo}) => void (await memo(valuationSummaries, {})),
  },
  {
    page: "gtllm",
    dataset: "gtllm",
    tables: ["games", "turns"],
    async script({query}) {
      for (const name of ["tables-5-8", "duopoly-pareto"]) await query(measureSQL(gtllmAnalysis, name));
      await query(measureSQL(gtllmAnalysis, "pairings", {game: DEFAULT_PAIR_GAME}));
      const [first] = await query(TALKED_SQL);
      if (first) await query(TALK_TURNS_SQL, [first.game_id]);
    },
  },
  {
    page: "gtllm-metagame",
    dataset: "gtllm",
    tables: ["games"],
    script: async ({query}) => void (await query(measureSQL(gtllmAnalysis, "meta-game-payoffs"))),
  },
];

export const gtllmAnalysis: Analysis = {
  paper: "gtllm",
  title: "Game-theoretic LLM workflows (Hua et al. 2024)",
  games: (game, _params, catalog) => catalog.isDataGame(game),
  inputHint: (dir) => `play a matrix or tree game first, e.g. "parley run data/runs/gtllm.json --out ${dir}"`,
  measures,
  defaultMeasure: "pairings",
  firstViews,
};

