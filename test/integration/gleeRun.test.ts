// `parley run` -> Parquet -> `parley metrics` (DuckDB), through the real command line.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {mkdtempSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {queryRun} from "../../loaders/io/parquet.js";
import {projectRoot} from "../../loaders/projectConfig.js";

function parley(...args: string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8"});
  return {code: r.status, stdout: r.stdout, stderr: r.stderr};
}

test("parley run plays the issue's example config and parley metrics prints the closed form", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-glee-run-"));
  const config = join(dir, "example.json");
  writeFileSync(config, JSON.stringify({
    family: "bargaining",
    grid: {delta_a: [0.9], delta_b: [0.8], money: [10000], horizon: ["inf"], complete_information: [true], messages: [false]},
    players: ["rubinstein"], pairs: "all", games_per_pair: 1, seed: 1,
  }));
  const out = join(dir, "out");
  const run = parley("run", config, "--out", out);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).games, 1);

  const games = await queryRun(out, ["games"], "SELECT family, alice_agent, bob_agent, delta_a, delta_b, money, horizon, horizon_cap, rounds, agreement, alice_share FROM games");
  assert.equal(games.length, 1);
  const g = games[0] as Record<string, number | string | boolean | null>;
  assert.deepEqual([g.family, g.alice_agent, g.bob_agent, g.delta_a, g.delta_b, g.money, g.horizon, g.horizon_cap, g.rounds, g.agreement], ["bargaining", "rubinstein", "rubinstein", 0.9, 0.8, 10000, null, 99, 1, true]);
  assert.ok(Math.abs((g.alice_share as number) - 0.2 / 0.28) < 1e-9);
  const turns = await queryRun(out, ["turns"], "SELECT turn, player, role, action, decision, rule_break FROM turns ORDER BY turn");
  assert.deepEqual(turns.map((t) => [t.player, t.role, t.action, t.decision, t.rule_break]), [
    ["alice", "proposer", "offer", null, false],
    ["bob", "responder", "decision", "accept", false],
  ]);

  const metrics = parley("metrics", out);
  assert.equal(metrics.code, 0, metrics.stderr);
  const lines = metrics.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 1);
  const m = lines[0];
  assert.deepEqual(Object.keys(m).slice(0, 2), ["game_id", "family"]);
  const p = 0.2 / 0.28;
  assert.ok(Math.abs(m.efficiency - 1) < 1e-12);
  assert.ok(Math.abs(m.fairness - (1 - 4 * (p - 0.5) ** 2)) < 1e-9);
  assert.ok(Math.abs(m.alice_self_gain - p) < 1e-9 && Math.abs(m.bob_self_gain - (1 - p)) < 1e-9);
});

test("parley run names the bad key of an invalid config; parley agents lists at least 8 agents", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-glee-bad-"));
  const config = join(dir, "bad.json");
  writeFileSync(config, JSON.stringify({family: "negotiation", grid: {factor_a: ["high"]}}));
  const run = parley("run", config, "--out", join(dir, "out"));
  assert.equal(run.code, 2);
  assert.match(run.stderr, /bad\.json: grid\.factor_a\[0\]: expected a number in \(0, 1000\], got "high"/);
  const agents = parley("agents");
  assert.equal(agents.code, 0, agents.stderr);
  const list = JSON.parse(agents.stdout) as {id: string; games: string[]; description: string; source: string}[];
  assert.ok(list.length >= 8);
  for (const id of ["rubinstein", "rational", "commitment", "truthful", "babbling", "bayesian", "fair", "greedy", "split-difference", "anchor", "tit-for-tat", "random"]) {
    assert.ok(list.some((a) => a.id === id), id);
  }
  assert.ok(list.every((a) => a.description && a.source && a.games.length));
});
