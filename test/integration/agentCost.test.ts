// Cost per game for the /ratings page (src/lib/agentCost.ts): token sums per
// agent from recorded turns in native DuckDB, priced by hand here; agents
// without tokens or without a price get no cost (never zero).
import {test} from "node:test";
import assert from "node:assert/strict";
import {withDuckDB} from "../../loaders/io/duckdb.js";
import {agentCosts, commonTokensSQL, gleeTokensSQL, poolTokens, priceOf, type AgentTokens} from "../../src/lib/agentCost.js";

const PRICES = {"openai/gpt-4o-mini": {input_per_million: 0.15, output_per_million: 0.6, as_of: "2026-11-01"}, mini: {input_per_million: 1, output_per_million: 2, as_of: null}};

test("tokens per agent from the common tables and from GLEE's flat tables", async () => {
  const [common, glee] = await withDuckDB(async (db) => {
    await db.query(`CREATE TABLE players AS SELECT * FROM (VALUES ('g1', 0, 'gpt-4o-mini'), ('g1', 1, 'fair'), ('g2', 0, 'fair'), ('g2', 1, 'gpt-4o-mini')) p(game_id, seat, agent)`);
    await db.query(`CREATE TABLE turns AS SELECT * FROM (VALUES ('g1', 0, 100, 20), ('g1', 0, 150, 30), ('g1', 1, NULL, NULL), ('g2', 1, 1000, 200), ('g2', 0, NULL, NULL)) t(game_id, seat, input_tokens, output_tokens)`);
    await db.query(`CREATE TABLE games AS SELECT * FROM (VALUES ('b1', 'mini', 'fair'), ('b2', 'fair', 'fair')) g(game_id, alice_agent, bob_agent)`);
    await db.query(`CREATE TABLE gturns AS SELECT * FROM (VALUES ('b1', 'alice', 40, 10), ('b1', 'bob', NULL, NULL), ('b2', 'alice', NULL, NULL)) t(game_id, player, input_tokens, output_tokens)`);
    // Tables from before the cached and reasoning counts were kept: their sums are 0.
    const old = new Set(["game_id", "seat", "player", "input_tokens", "output_tokens"]);
    return [await db.query(commonTokensSQL("players", "turns", old)), await db.query(gleeTokensSQL("games", "gturns", old))];
  });
  const none = {cached_input_tokens: 0, reasoning_tokens: 0, cache_write_tokens: 0};
  assert.deepEqual(common.map((r) => ({...r})), [
    {agent: "fair", games: 2, games_with_tokens: 0, input_tokens: 0, output_tokens: 0, ...none},
    {agent: "gpt-4o-mini", games: 2, games_with_tokens: 2, input_tokens: 1250, output_tokens: 250, ...none},
  ]);
  assert.deepEqual(glee.map((r) => ({...r})), [
    {agent: "fair", games: 3, games_with_tokens: 0, input_tokens: 0, output_tokens: 0, ...none},
    {agent: "mini", games: 1, games_with_tokens: 1, input_tokens: 40, output_tokens: 10, ...none},
  ]);
  const costs = agentCosts(poolTokens([common as unknown as AgentTokens[], glee as unknown as AgentTokens[]]), PRICES);
  const by = new Map(costs.map((c) => [c.agent, c]));
  // By hand: (1250 × 0.15 + 250 × 0.6) / 1e6 / 2 games = 0.00016875 $; mini: (40 × 1 + 10 × 2) / 1e6 / 1 = 0.00006 $.
  assert.ok(Math.abs(by.get("gpt-4o-mini")!.cost_per_game! - 0.00016875) < 1e-15);
  assert.equal(by.get("gpt-4o-mini")!.price_key, "openai/gpt-4o-mini");
  assert.ok(Math.abs(by.get("mini")!.cost_per_game! - 0.00006) < 1e-15);
  assert.equal(by.get("fair")!.games, 5, "pooled over both sources");
  assert.equal(by.get("fair")!.cost_per_game, null, "a scripted agent has no cost, not zero");
  assert.match(by.get("fair")!.no_cost!, /no token counts/);
});

test("cached input at the cached-input price, cache writes at the cache-write price and thinking as output, from turns that record them", async () => {
  const [row] = await withDuckDB(async (db) => {
    await db.query(`CREATE TABLE players AS SELECT * FROM (VALUES ('g1', 0, 'claude'), ('g2', 0, 'claude')) p(game_id, seat, agent)`);
    await db.query(`CREATE TABLE turns AS SELECT * FROM (VALUES ('g1', 0, 4000, 900, 3000, 700, 1000), ('g1', 0, 5000, 500, 4500, 300, 500), ('g2', 0, 1000, 100, NULL, NULL, NULL)) t(game_id, seat, input_tokens, output_tokens, cached_input_tokens, reasoning_tokens, cache_write_tokens)`);
    return db.query(commonTokensSQL("players", "turns"));
  });
  assert.deepEqual({...row}, {agent: "claude", games: 2, games_with_tokens: 2, input_tokens: 10_000, output_tokens: 1_500, cached_input_tokens: 7_500, reasoning_tokens: 1_000, cache_write_tokens: 1_500});
  const [c] = agentCosts([row as unknown as AgentTokens], {"anthropic/claude": {input_per_million: 3, cached_input_per_million: 0.3, cache_write_per_million: 3.75, output_per_million: 15, as_of: "2026-11-01"}});
  // By hand: (1,000 × 3 + 7,500 × 0.3 + 1,500 × 3.75 + 1,500 × 15) / 1e6 / 2 games = (3,000 + 2,250 + 5,625 + 22,500) / 1e6 / 2 = 0.016687 5 $.
  assert.ok(Math.abs(c!.cost_per_game! - 0.0166875) < 1e-15);
});

test("an agent with tokens but no price has no cost; prices match the agent or <provider>/<agent>", () => {
  const [c] = agentCosts([{agent: "claude-x", games: 3, games_with_tokens: 3, input_tokens: 10, output_tokens: 10}], PRICES);
  assert.equal(c.cost_per_game, null);
  assert.match(c.no_cost!, /no price/);
  assert.equal(priceOf("mini", PRICES)!.key, "mini");
  assert.equal(priceOf("gpt-4o-mini", PRICES)!.key, "openai/gpt-4o-mini");
  assert.equal(priceOf("gpt-4o-mini", {...PRICES, "azure/gpt-4o-mini": PRICES["openai/gpt-4o-mini"]}), null, "two providers: ambiguous, no guess");
});
