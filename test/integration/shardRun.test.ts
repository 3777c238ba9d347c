/**
 * `parley run --shard i/n` as separate processes into one directory: one
 * shard is killed mid-way and resumed, and the shards together hold exactly
 * the rows of the unsharded run; every command that reads a run answers the
 * same on the shard directory as on the unsharded one. Bad --shard values and
 * mixed layouts are one line each.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {cpSync, existsSync, readdirSync, rmSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch, startParley} from "../support/cli.js";
import {withDuckDB} from "../../loaders/io/duckdb.js";
import {runTableFiles, tableSql} from "../../loaders/io/runTables.js";

const {dir: tempDir} = scratch("parley-shard-");

// 8 bargaining configurations × 49 ordered pairs × 3 + the guessing game: 5 lineups × 2 (ten seats, 20 rounds).
const config = {
  game: ["glee/bargaining", "gamabench/guessing"],
  grid: {"glee/bargaining": {delta_a: [0.8, 0.95], messages: [true, false], complete_information: [true, false]}},
  players: "all",
  games_per_lineup: 3,
  seed: 7,
};
const PLANNED = 8 * 49 * 3 + 5 * 3;

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 12000 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(condition(), `timed out waiting for ${what}`);
}

const checkpoints = (out: string, shard: number) => {
  const dir = join(out, ".parley", `shard=${shard}`, "checkpoints");
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")).length : 0;
};

/** Rows of `table` in `a` and not in `b` (as a multiset, the shard column left out), both ways. */
async function multisetDifference(a: string, b: string, table: string): Promise<{onlyA: number; onlyB: number; rows: number}> {
  const from = (dir: string) => tableSql(runTableFiles(dir, table))!;
  return withDuckDB(async (db) => {
    await db.run(`CREATE VIEW a AS SELECT * EXCLUDE (shard) FROM ${from(a)}`);
    await db.run(`CREATE VIEW b AS SELECT * FROM ${from(b)}`);
    const columns = (await db.query<{column_name: string}>("SELECT column_name FROM (DESCRIBE b) ORDER BY column_name")).map((r) => `"${r.column_name}"`).join(", ");
    const [r] = await db.query<{onlyA: number; onlyB: number; rows: number}>(
      `SELECT (SELECT count(*) FROM (SELECT ${columns} FROM a EXCEPT ALL SELECT ${columns} FROM b))::INTEGER AS onlyA,
              (SELECT count(*) FROM (SELECT ${columns} FROM b EXCEPT ALL SELECT ${columns} FROM a))::INTEGER AS onlyB,
              (SELECT count(*) FROM b)::INTEGER AS rows`,
    );
    return r;
  });
}

/** Numbers equal to 1e-9 (relative), everything else exactly. */
function assertClose(actual: unknown, expected: unknown, path = "$"): void {
  if (typeof expected === "number" && typeof actual === "number") {
    assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${path}: ${actual} vs ${expected}`);
  } else if (expected && typeof expected === "object") {
    assert.equal(typeof actual, "object", path);
    assert.deepEqual(Object.keys(actual as object), Object.keys(expected), path);
    for (const k of Object.keys(expected)) assertClose((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], `${path}.${k}`);
  } else assert.equal(actual, expected, path);
}

test("three shards in three processes, one killed and resumed, hold exactly the unsharded run; every reader answers the same", async () => {
  const dir = tempDir();
  const file = join(dir, "mixed.json");
  writeFileSync(file, JSON.stringify(config));
  const whole = join(dir, "whole");
  const shards = join(dir, "shards");

  const unsharded = await parley(["run", file, "--out", whole, "--quiet"]);
  assert.equal(unsharded.code, 0, unsharded.stderr);
  assert.equal(JSON.parse(unsharded.stdout).games, PLANNED);

  // Shard 1 checkpoints every game (--resume) one at a time, and is killed once it has finished a few.
  const killed = startParley(["run", file, "--out", shards, "--shard", "1/3", "--resume", "--concurrency", "1", "--quiet"]);
  const others = [0, 2].map((i) => parley(["run", file, "--out", shards, "--shard", `${i}/3`, "--quiet"]));
  await until(() => checkpoints(shards, 1) >= 5, "shard 1 to finish five games");
  killed.child.kill("SIGKILL");
  assert.equal((await killed.done).signal, "SIGKILL");
  const done = checkpoints(shards, 1);
  assert.ok(done < Math.ceil(PLANNED / 3), `shard 1 finished all its games (${done}) before it was killed`);
  const planned = [];
  for (const r of await Promise.all(others)) {
    assert.equal(r.code, 0, r.stderr);
    planned.push(JSON.parse(r.stdout).games);
  }

  const resumed = await parley(["run", file, "--out", shards, "--shard", "1/3", "--resume", "--quiet"]);
  assert.equal(resumed.code, 0, resumed.stderr);
  const summary = JSON.parse(resumed.stdout);
  assert.equal(summary.shard, "1/3");
  assert.equal(summary.resumed, done);
  assert.equal(summary.resumed + summary.played, summary.planned);
  // Round robin: the three shards differ by at most one game and add up to the run.
  planned.push(summary.games);
  assert.equal(planned.reduce((a, b) => a + b, 0), PLANNED);
  assert.ok(Math.max(...planned) - Math.min(...planned) <= 1, String(planned));
  assert.ok(readdirSync(join(shards, "game=glee%2Fbargaining")).every((name) => /^shard=[012]$/.test(name)));

  for (const table of ["games", "players", "turns"]) {
    const d = await multisetDifference(shards, whole, table);
    assert.deepEqual([d.onlyA, d.onlyB], [0, 0], `${table}: rows in one run and not the other`);
    assert.ok(d.rows > 0, table);
  }

  // Every command that reads a run: the same answer from the shard directory.
  const commands = [
    ["metrics"],
    ["regress", "--family", "bargaining", "--metric", "alice_self_gain"],
    ["regress", "--family", "bargaining", "--metric", "efficiency", "--pairs"],
    ["gamabench-scores"],
    ["gamabench-scores", "--runs"],
  ];
  for (const [command, ...flags] of commands) {
    const [a, b] = await Promise.all([parley([command, shards, ...flags]), parley([command, whole, ...flags])]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const parse = (text: string) => (command === "metrics" ? text.trim().split("\n").map((l) => JSON.parse(l)) : JSON.parse(text));
    const expected = parse(b.stdout);
    if (command === "gamabench-scores" && flags.includes("--runs")) {
      // One row per game; the order of games with equal keys is not part of the answer.
      const key = (r: Record<string, unknown>) => JSON.stringify(r);
      assertClose(parse(a.stdout).sort((x: Record<string, unknown>, y: Record<string, unknown>) => (key(x) < key(y) ? -1 : 1)), expected.sort((x: Record<string, unknown>, y: Record<string, unknown>) => (key(x) < key(y) ? -1 : 1)), command);
    } else assertClose(parse(a.stdout), expected, `${command} ${flags.join(" ")}`);
  }
});

test("a bad --shard, or shards of another count or run in one directory, is one line and writes nothing", async () => {
  const dir = tempDir();
  const file = join(dir, "small.json");
  writeFileSync(file, JSON.stringify({family: "bargaining", grid: {delta_a: [0.8], delta_b: [0.9], money: [100], horizon: [12], complete_information: [true], messages: [false]}, players: ["fair", "greedy"], seed: 1}));
  const out = join(dir, "out");
  for (const bad of ["3/3", "a/b", "1/200000"]) {
    const r = await parley(["run", file, "--out", out, "--shard", bad, "--quiet"]);
    assert.equal(r.code, 2, bad);
    assert.match(r.stderr, /^parley run: --shard: expected i\/n with 0 ≤ i < n ≤ 100,000 .*, got "[^"]*"\n$/, bad);
  }
  assert.equal(existsSync(out), false);

  const first = await parley(["run", file, "--out", out, "--shard", "0/2", "--quiet"]);
  assert.equal(first.code, 0, first.stderr);
  const other = await parley(["run", file, "--out", out, "--shard", "1/3", "--quiet"]);
  assert.equal(other.code, 2);
  assert.match(other.stderr, /^parley run: --shard 1\/3: .* holds a run split into 2 shards .*; every shard of one directory must use the same count: use --shard i\/2, or another --out\n$/);
  const whole = await parley(["run", file, "--out", out, "--quiet"]);
  assert.equal(whole.code, 2);
  assert.match(whole.stderr, /holds a run split into 2 shards .*; play one with --shard i\/2, or use another --out\n$/);
  // A shard of a run split another way, copied in: readers refuse the mix in one line.
  const partition = join(out, "game=glee%2Fbargaining");
  cpSync(join(partition, "shard=0"), join(partition, "shard=3"), {recursive: true, dereference: true});
  const mixed = await parley(["metrics", out]);
  assert.equal(mixed.code, 2);
  assert.match(mixed.stderr, /^parley metrics: cannot read the tables of .*: .*shard=3: the directory holds a run split into 2 shards \(\.parley\/shards\.json\), so shard=0 … shard=1; shards of runs split differently are mixed here\n$/);
  rmSync(join(partition, "shard=3"), {recursive: true});
  assert.equal((await parley(["metrics", out])).code, 0);
  writeFileSync(file, JSON.stringify({family: "bargaining", grid: {delta_a: [0.9], delta_b: [0.9], money: [100], horizon: [12], complete_information: [true], messages: [false]}, players: ["fair", "greedy"], seed: 1}));
  const changed = await parley(["run", file, "--out", out, "--shard", "1/2", "--quiet"]);
  assert.equal(changed.code, 2);
  assert.match(changed.stderr, /holds shards of a different run definition/);

  const plain = join(dir, "plain");
  assert.equal((await parley(["run", file, "--out", plain, "--quiet"])).code, 0);
  const into = await parley(["run", file, "--out", plain, "--shard", "0/2", "--quiet"]);
  assert.equal(into.code, 2);
  assert.match(into.stderr, /^parley run: --shard 0\/2: .* holds an unsharded run; shards need a directory of their own \(use another --out\)\n$/);
});
