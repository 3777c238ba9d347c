// Run config values the games or tables cannot represent, plans that are huge
// or empty, and pairs that cannot be seated: each is one line naming the key,
// exit code 2, before any game is played. Through the real CLI.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {existsSync, mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {projectRoot} from "../../loaders/projectConfig.js";
import {queryRun} from "../../loaders/io/parquet.js";
import {parseRunConfig} from "../../loaders/runner/runConfig.js";
import {countGames} from "../../loaders/runner/grid.js";
import {describePlan} from "../../loaders/runner/runConfigChecks.js";

function parley(...args: string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8"});
  return {code: r.status, stdout: r.stdout, stderr: r.stderr};
}

const small = {delta_a: [0.9], delta_b: [0.9], horizon: [2], complete_information: [true], messages: [false]};

/** Writes `config` (an object, or raw JSON text) and runs it; returns the result and the output directory. */
function runConfig(dir: string, config: unknown, ...flags: string[]) {
  const file = join(dir, "config.json");
  writeFileSync(file, typeof config === "string" ? config : JSON.stringify(config));
  const out = join(dir, "out");
  rmSync(out, {recursive: true, force: true});
  return {...parley("run", file, "--out", out, ...flags), file, out};
}

test("out-of-range values are refused naming the key, before any game", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-limits-"));
  try {
    const cases: [unknown, string][] = [
      [{family: "bargaining", grid: {...small, money: [100, 1e300]}, players: ["fair"]}, "grid.money[1]: expected a number in [0.01, 1e12], got 1e300"],
      [{family: "persuasion", grid: {money: [1e13]}, players: ["commitment", "bayesian"]}, "grid.money[0]: expected a number in [0.01, 1e12], got 1e13"],
      [{family: "negotiation", grid: {factor_a: [1e300]}, players: ["fair"]}, "grid.factor_a[0]: expected a number in (0, 1000], got 1e300"],
      [{family: "persuasion", grid: {value_high: [1e6]}, players: ["commitment", "bayesian"]}, "grid.value_high[0]: expected a number in (1, 1000], got 1e6"],
      [{family: "bargaining", grid: {...small, horizon: [2147483648]}, players: ["fair"]}, 'grid.horizon[0]: expected a positive integer up to 10000 or "inf", got 2147483648'],
      // 2^53 + 2: JSON numbers past 2^53 are not even read exactly.
      [`{"family": "bargaining", "players": ["fair"], "seed": 9007199254740994}`, "seed: expected an integer in [0, 4294967295], got 9007199254740994"],
      [{family: "bargaining", players: ["fair"], seed: -1}, "seed: expected an integer in [0, 4294967295], got -1"],
      [{family: "bargaining", players: ["fair"], games_per_pair: 1e10}, "games_per_pair: expected an integer in [1, 2147483647], got 10000000000"],
      [{family: "bargaining", players: ["fair"], concurrency: 1e9}, "concurrency: expected an integer in [1, 1000], got 1000000000"],
      [{family: "bargaining", players: ["fair"], max_attempts: 1e9}, "max_attempts: expected an integer in [1, 100], got 1000000000"],
    ];
    for (const [config, message] of cases) {
      const r = runConfig(dir, config);
      assert.equal(r.code, 2, `${message}\n${r.stderr}`);
      assert.equal(r.stderr, `parley run: ${r.file}: ${message}\n`);
      assert.equal(existsSync(r.out), false, "nothing played or written");
    }
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});

test("money at the documented maximum plays bargaining and persuasion with finite utilities", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-limits-max-"));
  try {
    const r = runConfig(dir, {
      family: ["bargaining", "persuasion"],
      grid: {bargaining: {...small, money: [1e12]}, persuasion: {money: [1e12], prior: [0.5], value_high: [1000], complete_information: [true], message_type: ["binary"], buyer_type: ["myopic"]}},
      players: ["fair", "greedy", "commitment", "bayesian"],
    }, "--quiet");
    assert.equal(r.code, 0, r.stderr);
    const [row] = await queryRun(r.out, ["games"], "SELECT count(*) AS n, count(alice_utility) AS a, count(bob_utility) AS b, max(abs(bob_utility)) AS big FROM games");
    assert.ok((row.n as number) > 0);
    assert.deepEqual([row.a, row.b], [row.n, row.n], "no utility is NULL");
    assert.ok(Number.isFinite(row.big as number));
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});

test("a plan is announced on stderr; above 1,000,000 games it needs --yes; zero games or an unseatable pair is an error", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-limits-plan-"));
  try {
    const ok = runConfig(dir, {family: "bargaining", grid: {...small, money: [100, 1000]}, players: ["fair", "greedy"], games_per_pair: 2});
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stderr, `parley run: ${ok.file}: plans 16 games (glee/bargaining: 2 configurations × 4 lineups × 2 games per lineup)\n`);
    assert.equal(JSON.parse(ok.stdout).games, 16);

    const huge = runConfig(dir, {family: "bargaining", grid: {...small, money: [100]}, players: ["fair", "greedy"], games_per_pair: 1e9});
    assert.equal(huge.code, 2, huge.stderr);
    assert.equal(huge.stderr, `parley run: ${huge.file}: plans 4,000,000,000 games (glee/bargaining: 1 configuration × 4 lineups × 1,000,000,000 games per lineup), more than 1,000,000; run again with --yes to play them\n`);
    assert.equal(existsSync(huge.out), false);

    const errors: [unknown, string][] = [
      [{family: "bargaining", players: ["commitment", "bayesian"]}, "players: no listed player can take seat 0 (alice) of glee/bargaining, so the run plans no glee/bargaining game"],
      [{family: "persuasion", players: ["commitment", "bayesian"], pairs: "self"}, 'pairs: "self" plans no glee/persuasion game: no listed player can take every seat of glee/persuasion'],
      [{family: ["bargaining", "persuasion"], players: ["fair", "bayesian"], pairs: [["fair", "fair"]]}, 'pairs[0][0]: agent "fair" cannot take seat 0 (alice) of glee/persuasion'],
      [{family: "persuasion", players: ["commitment", "bayesian"], pairs: [["commitment", "commitment"]]}, 'pairs[0][1]: agent "commitment" cannot take seat 1 (bob) of glee/persuasion'],
    ];
    for (const [config, message] of errors) {
      const r = runConfig(dir, config);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr, `parley run: ${r.file}: ${message}\n`);
    }
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});

test("the announced count is the number of games the run plays", () => {
  for (const raw of [
    {family: "all", grid: "full", players: "all"},
    {family: ["bargaining", "negotiation"], players: ["fair", "commitment", "tit-for-tat"], pairs: "self", games_per_pair: 3},
    {family: "negotiation", grid: {money: [100, 1e4]}, players: ["fair", "rational"], pairs: [["fair", "rational"], ["rational", "rational"]]},
  ]) {
    const config = parseRunConfig(raw);
    assert.equal(describePlan(config).games, countGames(config), JSON.stringify(raw));
  }
});
