// `parley runs add` and `parley runs list` through the command line, on real
// runs: a whole one, a sharded one (game=<id>/shard=<i>/), a run still
// going (a live lock and its checkpoints, before any table) and a missing
// directory, with a scratch config (PARLEY_CONFIG).
import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdirSync, readFileSync, renameSync, rmSync, writeFileSync} from "node:fs";
import {hostname} from "node:os";
import {join} from "node:path";
import {writeSmallGleeConfig} from "../support/smallGleeRun.js";
import {parley, scratch} from "../support/cli.js";

const {dir: tempDir} = scratch("parley-runs-cli-");

const ok = (r: {code: number | null; stdout: string; stderr: string}) => {
  assert.equal(r.code, 0, r.stderr);
  return r;
};

test("runs add, then runs list: games per game id, agents, date; sharded and in-progress runs; one line for a missing one", async () => {
  const dir = tempDir();
  const config = writeSmallGleeConfig(dir, 2);
  const whole = join(dir, "runs", "whole");
  const sharded = join(dir, "runs", "sharded");
  const going = join(dir, "runs", "going");
  ok(await parley(["run", config, "--out", whole]));
  ok(await parley(["run", config, "--out", sharded, "--shard", "0/2"]));
  ok(await parley(["run", config, "--out", sharded, "--shard", "1/2"]));
  ok(await parley(["run", config, "--out", going, "--resume"]));
  // As if `parley run` were still writing it: a live holder of its lock (this process), no tables yet, no manifest.
  writeFileSync(join(going, ".parley", "lock"), JSON.stringify({pid: process.pid, host: hostname(), started: "2026-01-01T00:00:00.000Z", command: "run"}));
  rmSync(join(going, "game=glee%2Fbargaining"), {recursive: true});
  rmSync(join(going, "manifest.json"));

  const configFile = join(dir, "parley.config.json");
  writeFileSync(configFile, JSON.stringify({datasets: "../datasets"}));
  const env = {PARLEY_CONFIG: configFile};
  const added = ok(await parley(["runs", "add", whole, "--name", "Whole", "--description", "fair and greedy"], env));
  assert.match(added.stderr, /^added \{"path":"runs\/whole","name":"Whole","description":"fair and greedy"\} in .*parley\.config\.json\n$/);
  ok(await parley(["runs", "add", sharded], env));
  ok(await parley(["runs", "add", going], env));
  const missing = await parley(["runs", "add", join(dir, "runs", "nope")], env);
  assert.equal(missing.code, 2);
  assert.equal(missing.stderr, `parley runs add: ${join(dir, "runs", "nope")}: directory not found\n`);
  const saved = JSON.parse(readFileSync(configFile, "utf8"));
  assert.equal(saved.datasets, "../datasets");
  saved.runs.push("runs/gone");
  writeFileSync(configFile, JSON.stringify(saved));

  const listed = JSON.parse(ok(await parley(["runs", "list", "--json"], env)).stdout);
  const byName = Object.fromEntries(listed.runs.map((r: {name: string}) => [r.name, r]));
  assert.deepEqual(Object.keys(byName), ["Whole", "sharded", "going"]);
  // 2 configurations × 4 ordered pairs.
  assert.deepEqual(byName.Whole.games, [{game: "glee/bargaining", games: 8}]);
  assert.deepEqual(byName.Whole.agents, ["fair", "greedy"]);
  assert.equal(byName.Whole.running, false);
  assert.match(byName.Whole.finished, /^\d{4}-\d\d-\d\dT/);
  assert.deepEqual(byName.sharded.games, [{game: "glee/bargaining", games: 8}]);
  assert.deepEqual(byName.going.games, [{game: "glee/bargaining", games: 8}]);
  assert.equal(byName.going.running, true);
  assert.equal(byName.going.finished, null);
  assert.deepEqual(listed.problems, [`${configFile}: runs[3] "runs/gone": directory not found`]);

  const text = ok(await parley(["runs", "list"], env)).stdout;
  assert.match(text, /^Whole {2}\(runs\/whole\)\n {2}fair and greedy\n {2}games: glee\/bargaining 8\n {2}agents: fair, greedy\n {2}finished \d{4}-/);
  assert.match(text, /going {2}\(runs\/going\)\n {2}games: glee\/bargaining 8\n {2}agents: fair, greedy\n {2}still running \(pid \d+ on .+\): 8 finished games in/);
  assert.match(text, /\nproblem: .*parley\.config\.json: runs\[3\] "runs\/gone": directory not found\n$/);
});

test("runs: usage errors are one line", async () => {
  const r = await parley(["runs", "remove", "x"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^usage: parley runs add <dir>/);
  const bad = await parley(["runs", "add"]);
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr.split("\n").length, 2);
});

test("a stray folder whose name is not valid percent-encoding (game=%zz) is one line naming it; moved out, the run reads as before", async () => {
  const dir = tempDir();
  const config = writeSmallGleeConfig(dir, 2);
  const run = join(dir, "runs", "whole");
  ok(await parley(["run", config, "--out", run]));
  const before = ok(await parley(["metrics", run])).stdout;
  mkdirSync(join(run, "game=%zz"));
  const refused = await parley(["metrics", run]);
  assert.equal(refused.code, 2);
  assert.equal(refused.stderr.trim(), `parley metrics: cannot read the tables of ${run}: ${join(run, "game=%zz")}: not a partition folder name (game=<id> with the id %-encoded); move it out of the run directory`);
  renameSync(join(run, "game=%zz"), join(dir, "stray"));
  assert.equal(ok(await parley(["metrics", run])).stdout, before);
  const env = {PARLEY_CONFIG: join(dir, "parley.config.json")};
  writeFileSync(env.PARLEY_CONFIG, "{}");
  ok(await parley(["runs", "add", run], env));
  const listed = JSON.parse(ok(await parley(["runs", "list", "--json"], env)).stdout);
  assert.deepEqual(listed.problems, []);
  assert.equal(listed.runs[0].total, before.trim().split("\n").length, "every game of the run is counted");
});
