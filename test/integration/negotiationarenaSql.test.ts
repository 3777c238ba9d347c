// NegotiationArena's analyses in SQL, on native DuckDB (NegotiationArena, Bianchi et al. 2024): win rates
// without ties on a hand-made table, and on played games the price sequences and the ultimatum acceptance curve.
import {test} from "node:test";
import assert from "node:assert/strict";
import {parseRunConfig} from "../../loaders/runner/runConfig.js";
import {runTournament} from "../../loaders/runner/tournament.js";
import {withDuckDB, sqlString, type Db} from "../../loaders/io/duckdb.js";
import {acceptanceCurveSQL, pairStatsSQL, priceSequencesSQL} from "../../src/lib/negotiationArena.js";

const RE = "negotiationarena/resource_exchange";
const UG = "negotiationarena/ultimatum";
const BS = "negotiationarena/buy_sell";

/** Loads rows into a DuckDB table with the given columns (missing values as NULL). */
async function load(db: Db, name: string, rows: Record<string, unknown>[], columns: Record<string, string>): Promise<void> {
  const names = Object.keys(columns);
  const literal = (v: unknown, type: string) =>
    v === null || v === undefined ? `NULL::${type}` : typeof v === "string" ? sqlString(v) : `${v}::${type}`;
  await db.run(`CREATE TABLE ${name} (${names.map((c) => `${c} ${columns[c]}`).join(", ")})`);
  if (rows.length) await db.run(`INSERT INTO ${name} VALUES ${rows.map((r) => `(${names.map((c) => literal(r[c], columns[c])).join(", ")})`).join(", ")}`);
}

const GAME_COLUMNS = {game_id: "VARCHAR", game: "VARCHAR", p1_agent: "VARCHAR", p2_agent: "VARCHAR", p1_payoff: "DOUBLE", p2_payoff: "DOUBLE", winner: "VARCHAR", seller_cost: "DOUBLE", buyer_value: "DOUBLE", price: "DOUBLE", iterations: "INTEGER", stake: "DOUBLE", injected_offer: "DOUBLE", final_response: "VARCHAR"};

test("win rates leave ties out; mean payoffs count every game (hand-made table)", async () => {
  const rows = [
    {game_id: "a", game: RE, p1_agent: "A", p2_agent: "B", p1_payoff: 3, p2_payoff: -3, winner: "p1"},
    {game_id: "b", game: RE, p1_agent: "A", p2_agent: "B", p1_payoff: -1, p2_payoff: 1, winner: "p2"},
    {game_id: "c", game: RE, p1_agent: "A", p2_agent: "B", p1_payoff: 0, p2_payoff: 0, winner: "tie"},
    {game_id: "d", game: RE, p1_agent: "A", p2_agent: "B", p1_payoff: 2, p2_payoff: -2, winner: "p1"},
    {game_id: "e", game: RE, p1_agent: "B", p2_agent: "A", p1_payoff: 0, p2_payoff: 0, winner: "tie"},
    {game_id: "f", game: "glee/bargaining", p1_agent: "A", p2_agent: "B", p1_payoff: 9, p2_payoff: 9, winner: "p1"},
  ];
  const stats = await withDuckDB(async (db) => {
    await load(db, "games", rows, GAME_COLUMNS);
    return db.query(pairStatsSQL("games"));
  });
  assert.deepEqual(stats, [
    {scenario: "resource_exchange", p1_agent: "A", p2_agent: "B", n: 4, decisive: 3, p1_win_rate: 2 / 3, p2_win_rate: 1 / 3, p1_mean_payoff: 1, p2_mean_payoff: -1},
    {scenario: "resource_exchange", p1_agent: "B", p2_agent: "A", n: 1, decisive: 0, p1_win_rate: null, p2_win_rate: null, p1_mean_payoff: 0, p2_mean_payoff: 0},
  ]);
});

test("played games through the shared SQL: price sequences (p₁, p₂, final price) and the ultimatum acceptance curve from injected offers", async () => {
  const config = parseRunConfig({
    game: [UG, BS], grid: {[UG]: {iterations: [2, 3], stake: [10], injected_offer: [0, 1, 5, 10]}, [BS]: {}},
    players: ["rational", "split-difference"], lineups: [["rational", "rational"], ["split-difference", "split-difference"]], games_per_lineup: 2, seed: 4,
  }, "t");
  const games: Record<string, unknown>[] = [];
  const turns: Record<string, unknown>[] = [];
  await runTournament(config, {onGame: (g) => {
    games.push({...g.row, game: g.game});
    turns.push(...g.turns);
  }});
  const {curve, sequences} = await withDuckDB(async (db) => {
    await load(db, "games", games, GAME_COLUMNS);
    await load(db, "turns", turns, {game_id: "VARCHAR", turn: "INTEGER", seat: "INTEGER", action: "VARCHAR", price: "DOUBLE", rule_break: "BOOLEAN"});
    return {curve: await db.query(acceptanceCurveSQL("games")), sequences: await db.query(priceSequencesSQL("games", "turns"))};
  });
  const rational = curve.filter((c) => c.p1_agent === "rational").map((c) => [c.iterations, c.amount, c.n, c.p_accept]);
  // The rational decider accepts any positive amount (§5.2) and rejects 0, in both variants.
  assert.deepEqual(rational, [2, 3].flatMap((t) => [[t, 0, 2, 0], [t, 1, 2, 1], [t, 5, 2, 1], [t, 10, 2, 1]]));
  const split = sequences.find((s) => s.p1_agent === "split-difference")!;
  assert.deepEqual([split.p1, split.p2, split.final_price, split.prices], [80, 30, 48, [80, 30, 55, 43, 49, 46, 48]]);
  const rationalBs = sequences.find((s) => s.p1_agent === "rational")!;
  assert.deepEqual([rationalBs.p1, rationalBs.p2, rationalBs.final_price], [100, 0, 60]);
});
