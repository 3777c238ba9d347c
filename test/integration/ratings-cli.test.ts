// Hand-built run tables -> Parquet (partitioned by game, as `parley run`
// writes) and a flat GLEE games table -> native DuckDB -> `parley ratings`.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {mkdirSync, mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {writeParquet} from "../../loaders/io/parquet.js";
import {COMMON_GAME_COLUMNS, COMMON_PLAYER_COLUMNS, partitionDir} from "../../loaders/contract/tables.js";
import {GLEE_GAMES} from "../../loaders/papers/glee/tables.js";
import {projectRoot} from "../../loaders/projectConfig.js";
import {parley as cli} from "../support/cli.js";

function parley(...args: string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8"});
  return {code: r.status, stdout: r.stdout, stderr: r.stderr};
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

test("parley ratings: a partitioned run and a flat GLEE table, read by DuckDB, rated and checked against the score equations", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-ratings-"));
  const run = join(dir, "run");
  const part = join(run, partitionDir("toy/duel"));
  mkdirSync(part, {recursive: true});
  // Four games, two in each seat order; A wins both as first seat and one of two as second: A 3 wins, B 1.
  const outcomes: [string, string, number, number][] = [
    ["A", "B", 1, 0],
    ["A", "B", 1, 0],
    ["B", "A", 0, 1],
    ["B", "A", 1, 0],
  ];
  const games = outcomes.map((_, i) => ({game_id: `duel-${i}`, source: "test", config_id: i, n_players: 2}));
  const players = outcomes.flatMap(([first, second, r0, r1], i) => [
    {game_id: `duel-${i}`, seat: 0, agent: first, return: r0},
    {game_id: `duel-${i}`, seat: 1, agent: second, return: r1},
  ]);
  await writeParquet(join(part, "games.parquet"), {name: "games", columns: COMMON_GAME_COLUMNS, key: ["game_id"]}, games);
  await writeParquet(join(part, "players.parquet"), {name: "players", columns: COMMON_PLAYER_COLUMNS, key: ["game_id", "seat"]}, players);
  // A flat GLEE table of two other agents: X beats Y in both games.
  const glee = join(dir, "glee");
  mkdirSync(glee);
  const gleeRow = (i: number, alice: string, bob: string, ua: number, ub: number) => ({game_id: `b${i}`, source: "test", family: "bargaining", config_id: i, alice_agent: alice, bob_agent: bob, alice_utility: ua, bob_utility: ub});
  await writeParquet(join(glee, "games.parquet"), GLEE_GAMES, [
    gleeRow(0, "X", "Y", 0.6, 0.4),
    gleeRow(1, "Y", "X", 0.3, 0.7),
    // Self-play, each in its own configuration (so not a matched comparison): completes the 2 × 2 meta-game.
    gleeRow(2, "X", "X", 0.5, 0.5),
    gleeRow(3, "Y", "Y", 0.5, 0.5),
  ]);

  // Default weighting: the mean family weight is (4 + 2) / 2 = 3, so the
  // duel family's 4 comparisons are scaled by 3/4: A's 3 wins count 2.25.
  const weighted = JSON.parse(parley("ratings", run, glee, "--resamples", "0").stdout);
  assert.equal(weighted.agents.find((a: {agent: string}) => a.agent === "A").wins, 2.25);
  assert.equal(weighted.agents.find((a: {agent: string}) => a.agent === "X").wins, 2);
  // Every family equal: both at the mean weight 3, so the GLEE family's 2 comparisons count 3 (X won both).
  const equal = JSON.parse((await cli(["ratings", run, glee, "--resamples", "0", "--weighting", "equal"])).stdout);
  assert.equal(equal.weighting, "equal");
  assert.equal(equal.agents.find((a: {agent: string}) => a.agent === "A").wins, 2.25);
  assert.equal(equal.agents.find((a: {agent: string}) => a.agent === "X").wins, 3);
  const r = parley("ratings", run, glee, "--resamples", "100", "--weighting", "games");
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const agent = (name: string) => out.agents.find((a: {agent: string}) => a.agent === name);
  assert.deepEqual(out.components.map((c: string[]) => [...c].sort()), [["A", "B"], ["X", "Y"]]);
  assert.equal(agent("A").wins, 3);
  assert.equal(agent("A").games, 4);
  assert.equal(agent("A").rank, 1);
  assert.equal(agent("X").rank, 1);
  assert.equal(agent("A").component, agent("B").component);
  assert.notEqual(agent("A").component, agent("X").component);
  // Maximum likelihood with one virtual tie per agent against strength 1 (log 0):
  // W_i + ½ = Σ_j n_ij σ(θ_i − θ_j) + σ(θ_i), before centring; centring keeps differences.
  // Solve the two equations by bisection here, independently of the library.
  const gap = agent("A").rating - agent("B").rating;
  let lo = -5;
  let hi = 5;
  // With θ_B = θ_A − gap, A's equation fixes θ_A.
  for (let n = 0; n < 200; n++) {
    const mid = (lo + hi) / 2;
    const f = 3.5 - 4 * sigmoid(gap) - sigmoid(mid);
    if (f > 0) lo = mid;
    else hi = mid;
  }
  const thetaA = lo;
  const thetaB = thetaA - gap;
  assert.ok(Math.abs(1.5 - 4 * sigmoid(thetaB - thetaA) - sigmoid(thetaB)) < 1e-7, "B's score equation holds at the reported gap");
  assert.ok(agent("A").rating_lo <= agent("A").rating && agent("A").rating <= agent("A").rating_hi);
  assert.equal(out.resamples, 100);
  // Only the GLEE family has every pairing (the duel has no self-play): X's
  // mean payoff beats Y's against both, so α-Rank puts its mass on X.
  assert.deepEqual(out.alpha_rank.map((a: {family: string}) => a.family), ["glee/bargaining"]);
  const [alpha] = out.alpha_rank;
  assert.ok(alpha.seat0.find((s: {agent: string}) => s.agent === "X").mass > 0.99);
  assert.ok(alpha.seat1.find((s: {agent: string}) => s.agent === "X").mass > 0.99);
});

test("parley ratings: mistakes are one line", () => {
  const bad = parley("ratings", projectRoot, "--weighting", "votes");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr.trim(), /^parley ratings: --weighting must be one of families, equal, games, got "votes"$/);
  const clones = parley("ratings", projectRoot, "--clones", "merge");
  assert.equal(clones.code, 2);
  assert.match(clones.stderr.trim(), /^parley ratings: --clones must be one of entrants, robust, got "merge"$/);
  const empty = mkdtempSync(join(tmpdir(), "parley-ratings-empty-"));
  const none = parley("ratings", empty);
  assert.equal(none.code, 2);
  assert.equal(none.stderr.trim().split("\n").length, 1, none.stderr);
  assert.match(none.stderr, /holds no games table/);
});

test("parley ratings on the built-in game-theoretic run (data/runs/gtllm.json): workflow-bi and backward-induction, the same algorithm, share a tier; clone-robust, they are weighed as one", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-ratings-gtllm-"));
  const played = await cli(["run", join(projectRoot, "data/runs/gtllm.json"), "--out", join(dir, "run"), "--quiet"]);
  assert.equal(played.code, 0, played.stderr);
  const rated = async (...flags: string[]) => {
    const r = await cli(["ratings", join(dir, "run"), "--resamples", "200", ...flags]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as {clone_groups: string[][]; agents: {agent: string; tier: number; settled: string; df: number; clone_group: number | null}[]};
  };
  const out = await rated();
  const agent = (name: string) => out.agents.find((a) => a.agent === name)!;
  assert.equal(agent("workflow-bi").tier, agent("backward-induction").tier);
  // Two configurations in each of the five tree families they play: about 5 degrees of freedom.
  assert.ok(Math.abs(agent("backward-induction").df - 5) < 1, `df ${agent("backward-induction").df}`);
  assert.ok(out.agents.every((a) => ["preliminary", "usable", "established"].includes(a.settled)));
  assert.deepEqual(out.clone_groups, []);
  const robust = await rated("--clones", "robust");
  const group = robust.agents.find((a) => a.agent === "workflow-bi")!.clone_group;
  assert.notEqual(group, null);
  assert.ok(robust.clone_groups[group!].includes("backward-induction"), JSON.stringify(robust.clone_groups));
});
