/**
 * NegotiationArena through the command line: `parley run` plays the three
 * scenarios with built-in agents into Parquet, and `parley
 * negotiationarena-stats` reads that run directory, or an ingest of the
 * authors' logs, with the pages' SQL (NegotiationArena (Bianchi et al. 2024) §3).
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch} from "../support/cli.js";
import {datasetsConfig} from "../../loaders/projectConfig.js";

const {dir: tempDir} = scratch("parley-na-run-");
const logs = datasetsConfig().dir ? join(datasetsConfig().dir!, "negotiationarena") : null;

const stats = async (dir: string) => {
  const r = await parley(["negotiationarena-stats", dir]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim().split("\n").map((line) => JSON.parse(line));
};

test("parley run + negotiationarena-stats: rational pairs reproduce the ground truth; ties stay out of win rates", async () => {
  const dir = tempDir();
  const config = join(dir, "na.json");
  writeFileSync(config, JSON.stringify({game: "negotiationarena/*", players: ["rational", "random"], games_per_lineup: 5, seed: 7}));
  const r = await parley(["run", config, "--out", join(dir, "out"), "--quiet"]);
  assert.equal(r.code, 0, r.stderr);
  const rows = await stats(join(dir, "out"));
  assert.equal(rows.length, 12, "3 scenarios × 4 ordered pairs");
  assert.deepEqual(Object.keys(rows[0]), ["scenario", "p1_agent", "p2_agent", "n", "decisive", "p1_win_rate", "p2_win_rate", "p1_mean_payoff", "p2_mean_payoff"]);
  const rational = Object.fromEntries(rows.filter((x) => x.p1_agent === "rational" && x.p2_agent === "rational").map((x) => [x.scenario, x]));
  assert.deepEqual(rational.resource_exchange, {scenario: "resource_exchange", p1_agent: "rational", p2_agent: "rational", n: 5, decisive: 0, p1_win_rate: null, p2_win_rate: null, p1_mean_payoff: 0, p2_mean_payoff: 0});
  assert.deepEqual(rational.ultimatum, {scenario: "ultimatum", p1_agent: "rational", p2_agent: "rational", n: 5, decisive: 5, p1_win_rate: 1, p2_win_rate: 0, p1_mean_payoff: 99, p2_mean_payoff: 1});
  assert.equal(rational.buy_sell.p1_mean_payoff + rational.buy_sell.p2_mean_payoff, 20);
  for (const x of rows) if (x.decisive) assert.ok(Math.abs(x.p1_win_rate + x.p2_win_rate - 1) < 1e-12);
});

test("negotiationarena-stats on an ingest of the authors' buy/sell logs: GPT-4 buyers win every decisive game", {skip: logs && existsSync(logs) ? false : "NegotiationArena logs not configured"}, async () => {
  const out = join(tempDir(), "ingest");
  const r = await parley(["ingest", "negotiationarena", logs!, "--out", out]);
  assert.equal(r.code, 0, r.stderr);
  const rows = await stats(out);
  assert.deepEqual(rows.map((x) => [x.scenario, x.p1_agent, x.p2_agent, x.n, x.decisive, x.p2_win_rate]), [["buy_sell", "gpt-4-1106-preview", "gpt-4-1106-preview", 4, 4, 1]]);
});
