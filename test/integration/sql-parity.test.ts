// The shared SQL of src/lib gives the same rows in DuckDB-WASM (the pages' engine,
// loading Parquet as pages do) as in native DuckDB (the CLI's engine).
import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {fileURLToPath} from "node:url";
import {flattenRunTable, withParquetViews} from "../../loaders/io/parquet.js";
import {ingestDond} from "../../loaders/papers/gtllm/dond/ingest.js";
import {writeIngest} from "../../loaders/ingest/write.js";
import {locateDataset} from "../../loaders/datasets/catalog.js";
import {dondBeliefSQL, dondGameMetricsSQL, dondPairingSQL, dondStatsSQL} from "../../src/lib/dond.js";
import {dondPaperSelectionSQL} from "../../src/lib/dondPaperSelection.js";
import {datasetTables} from "../../loaders/datasets/emit.js";
import {queryWasm} from "../support/wasmDuckDB.js";
import {generateRun} from "../../loaders/runner/generate.js";
import {GLEE_CONVENTIONS, gleeMetricsSQL} from "../../src/lib/gleeMetrics.js";
import {gleeRegressionRowsSQL} from "../../src/lib/gleeRows.js";
import {gleeCellsSQL} from "../../src/lib/gleeCells.js";
import {ingestGamabench} from "../../loaders/papers/gamabench/ingest.js";
import {gamabenchViews, gameScoresSQL, GAMABENCH_SCORE_COLUMNS} from "../../src/lib/gamabench.js";
import {adaptivitySQL, convergenceSQL, econarenaViews, statsSQL, table1SQL, table2SQL} from "../../src/lib/econarena.js";
import {parseRunConfig} from "../../loaders/runner/runConfig.js";
import {writeTournament} from "../../loaders/runner/tournament.js";
import {flatTables} from "../../loaders/contract/tables.js";
import {econarenaGames} from "../../loaders/papers/econarena/games.js";
import {RUN_SEAT_TABLES, runSeatsSQL} from "../../src/lib/runSeats.js";
import {focalSeatsSQL} from "../../src/lib/generalisation.js";
import {acceptanceCurveSQL, buyerPayoffSQL, labelledGamesSQL, pairStatsSQL, priceSequencesSQL, stakeShareSQL} from "../../src/lib/negotiationArena.js";

/** Rounds doubles to 12 significant digits: the engines' libm (power, log) differ in the last bits. */
function rounded(value: unknown): unknown {
  if (typeof value === "number" && !Number.isInteger(value)) return Number(value.toPrecision(12));
  if (Array.isArray(value)) return value.map(rounded);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v)]));
  return value;
}

type Query = (q: string) => Promise<Record<string, unknown>[]>;

/** `sql` may first run statements of its own (views) through `query`, in each engine, and return the SQL to compare. */
async function same(tables: Record<string, string>, sql: string | ((query: Query) => Promise<string>)) {
  const native = await withParquetViews(tables, async (db) => db.query(typeof sql === "string" ? sql : await sql((q) => db.query(q))));
  const wasm = await queryWasm(tables, sql);
  assert.ok(native.length > 0, "the query returns rows");
  assert.deepEqual(rounded(wasm), rounded(native));
}

test("Deal-or-No-Deal metrics agree between DuckDB-WASM and native DuckDB", async () => {
  const at = locateDataset("dond");
  const source = at.available ? at.path! : fileURLToPath(new URL("../fixtures/dond/hand.txt", import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), "parley-parity-"));
  await writeIngest(ingestDond(source), dir);
  const games = {games: join(dir, "games.parquet")};
  await same(games, dondGameMetricsSQL("games"));
  await same(games, dondStatsSQL("games"));
  await same(games, dondStatsSQL("games", {cumulative: true}));
  // The authors' Table 9 selection (list positions, first-seen settings by window), on the split (the hand-made file keeps no line).
  if (at.available) {
    await same(games, dondStatsSQL("games", {cumulative: true, selection: "paper"}));
    await same(games, dondPaperSelectionSQL("games"));
  }
});

test("Deal or No Deal played (the catalog's supplement: the 50 points' human outcomes and data/runs/dond.json): pairings and beliefs agree", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-parity-"));
  const {result} = await datasetTables("dond");
  await writeIngest(result, dir);
  const tables = {games: join(dir, "games.parquet"), turns: join(dir, "turns.parquet")};
  await same(tables, dondPairingSQL("games"));
  await same(tables, dondBeliefSQL("games", "turns"));
  await same(tables, dondStatsSQL("(SELECT * FROM games WHERE source = 'simulated')"));
});

test("GLEE metrics and regression rows agree, in the same order, in both conventions", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-parity-"));
  await generateRun("default", dir);
  const games = {games: join(dir, "games.parquet")};
  for (const conventions of GLEE_CONVENTIONS) {
    await same(games, gleeMetricsSQL("games", {conventions}));
    await same(games, gleeRegressionRowsSQL("games", undefined, conventions));
    await same(games, gleeRegressionRowsSQL("games", "g.family = 'persuasion'", conventions));
  }
  // The regression's sufficient statistics, hash-assigned held-out splits included.
  await same(games, gleeCellsSQL(gleeRegressionRowsSQL("games", "g.family = 'bargaining'"), "alice_self_gain", {splits: 3}));
});

test("gamma-Bench scores agree", {skip: locateDataset("gamabench").available ? false : "gamma-Bench not configured"}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-parity-"));
  await writeIngest(await ingestGamabench(locateDataset("gamabench").path!), dir);
  const scores = async (query: Query) => {
    const views = await gamabenchViews(query);
    return `SELECT * FROM (${gameScoresSQL(views.games, views.turns)}) ORDER BY ALL`;
  };
  await same({games: join(dir, "games.parquet"), turns: join(dir, "turns.parquet")}, scores);
  // A table set without most gamma-Bench columns (as a run of the guessing game alone writes): the views add them as NULLs.
  const guessing = await withParquetViews({games: join(dir, "games.parquet"), turns: join(dir, "turns.parquet")}, async (db) => {
    const only = join(dir, "guessing");
    await db.run(`COPY (SELECT * EXCLUDE (variant, gold, tokens) FROM games WHERE game = 'gamabench/guessing') TO '${only}-games.parquet' (FORMAT parquet)`);
    await db.run(`COPY (SELECT game_id, turn, round, seat, action, rule_break, amount FROM turns WHERE game_id IN (SELECT game_id FROM games WHERE game = 'gamabench/guessing')) TO '${only}-turns.parquet' (FORMAT parquet)`);
    return {games: `${only}-games.parquet`, turns: `${only}-turns.parquet`};
  });
  assert.ok(!GAMABENCH_SCORE_COLUMNS.turns.every(([c]) => ["game_id", "turn", "round", "seat", "action", "rule_break", "amount"].includes(c)), "columns are missing");
  await same(guessing, scores);
});

test("Economics Arena measures agree (stats, Tables 1–2, convergence, adaptivity)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-parity-"));
  const config = parseRunConfig({
    game: ["econarena/beauty_contest", "econarena/auction"],
    grid: {"econarena/beauty_contest": {environment: ["senior"], runs: [1, 6], bound_group: ["fixed", "M"]}, "econarena/auction": {environment: ["senior"], runs: [1, 3], pricing: ["second", "first", "english"]}},
    players: ["rational", "level-1", "level-2", "random", "shade-25"],
    lineups: {"econarena/beauty_contest": [["rational", "level-1", "level-2", "random", "rational"]], "econarena/auction": [["rational", "shade-25", "random", "rational", "shade-25"]]},
    games_per_lineup: 4, seed: 3,
  });
  await writeTournament(config, join(dir, "run"));
  const tables: Record<string, string> = {};
  for (const schema of Object.values(flatTables(econarenaGames))) {
    tables[schema.name] = join(dir, `${schema.name}.parquet`);
    await flattenRunTable(join(dir, "run"), schema, tables[schema.name]);
  }
  for (const sql of [statsSQL, table1SQL, table2SQL, convergenceSQL, adaptivitySQL]) {
    await same(tables, async (query) => `SELECT * FROM (${sql(await econarenaViews(query))}) ORDER BY ALL`);
  }
});

test("NegotiationArena's analyses agree (the build-time runs beside the ingested logs)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-parity-"));
  await writeIngest((await datasetTables("negotiationarena")).result, dir);
  const tables = {games: join(dir, "games.parquet"), turns: join(dir, "turns.parquet")};
  await same(tables, pairStatsSQL("games"));
  await same(tables, async (query) => {
    await query(`CREATE OR REPLACE VIEW arena AS ${labelledGamesSQL("games")}`);
    return pairStatsSQL("arena", "injected_offer IS NULL");
  });
  await same(tables, priceSequencesSQL("games", "turns"));
  await same(tables, acceptanceCurveSQL("games"));
  await same(tables, buyerPayoffSQL("games"));
  await same(tables, stakeShareSQL("games"));
});

test("a generalisation protocol's focal seats agree, from a run's seats tables as /ratings reads them", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-parity-"));
  const config = parseRunConfig({
    game: ["gtllm/prisoners_dilemma", "gtllm/stag_hunt"], grid: {negotiation_rounds: [0, 4]},
    players: ["equilibrium", "random", "workflow-ne", "best-response"], lineups: "all", games_per_lineup: 3, seed: 5,
    generalisation: {focal: ["equilibrium", "best-response"], seen: ["random"], unseen: ["workflow-ne"], held_out: {"gtllm/stag_hunt": {negotiation_rounds: [4]}}},
  });
  await writeTournament(config, join(dir, "run"));
  const tables: Record<string, string> = {};
  for (const [name, columns] of Object.entries(RUN_SEAT_TABLES)) {
    tables[name] = join(dir, `${name}.parquet`);
    await flattenRunTable(join(dir, "run"), {name, columns}, tables[name]);
  }
  await same(tables, focalSeatsSQL(runSeatsSQL(), config.generalisation!));
});
