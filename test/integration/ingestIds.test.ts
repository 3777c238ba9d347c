// Game ids are unique: real logs under two folders with the same base name (or
// the same time stamp) ingest as distinct games, a semantic duplicate is a
// problem naming both files, and a run config that lists a player twice is
// refused before any game is played. Real files, the real CLI, real Parquet.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {datasetsConfig, projectRoot} from "../../loaders/projectConfig.js";
import {queryParquet} from "../../loaders/io/parquet.js";

const datasets = datasetsConfig().dir;
const skip = !datasets || !existsSync(join(datasets, "glee-human")) ? "real datasets not found; set PARLEY_DATASETS" : false;

function parley(...args: string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8"});
  return {code: r.status, stdout: r.stdout, stderr: r.stderr};
}

async function ids(out: string, table: string, key: string) {
  const rows = await queryParquet({t: join(out, `${table}.parquet`)}, `SELECT count(*) AS n, count(DISTINCT (${key})) AS distinct_keys FROM t`);
  return rows[0] as {n: number; distinct_keys: number};
}

test("GLEE: two game folders with the same base name under different parents are two games", {skip}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-ids-glee-"));
  try {
    const family = join(datasets!, "glee-human", "bargaining");
    const [first, second] = readdirSync(family).sort();
    // Two different real games, each saved as bargaining/G under its own batch folder.
    cpSync(join(family, first), join(dir, "in", "batch-1", "bargaining", "G"), {recursive: true});
    cpSync(join(family, second), join(dir, "in", "batch-2", "bargaining", "G"), {recursive: true});
    const out = join(dir, "out");
    const r = parley("ingest", "glee", join(dir, "in"), "--out", out, "--strict");
    assert.equal(r.code, 0, r.stderr);
    const games = await queryParquet({games: join(out, "games.parquet")}, "SELECT game_id FROM games ORDER BY game_id");
    assert.deepEqual(games.map((g) => g.game_id), ["glee-human/batch-1/bargaining/G", "glee-human/batch-2/bargaining/G"]);
    const turns = await ids(out, "turns", "game_id, turn");
    assert.equal(turns.distinct_keys, turns.n);
    const perGame = await queryParquet({turns: join(out, "turns.parquet")}, "SELECT count(DISTINCT game_id) AS n FROM turns");
    assert.equal(perGame[0].n, 2);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});

test("GLEE: the real layout keeps its ids (glee-human/<family>/<id>)", {skip}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-ids-glee-real-"));
  try {
    const r = parley("ingest", "glee", join(datasets!, "glee-human"), "--out", dir);
    assert.equal(r.code, 0, r.stderr);
    const games = await queryParquet({games: join(dir, "games.parquet")}, "SELECT count(*) AS n, count(DISTINCT game_id) AS d, min(game_id) AS first FROM games");
    assert.equal(games[0].n, games[0].d);
    assert.match(String(games[0].first), /^glee-human\/(bargaining|negotiation|persuasion)\/[0-9A-F]+$/);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});

test("NegotiationArena: two logs with the same time stamp in different folders are two games", {skip}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-ids-na-"));
  try {
    const root = join(datasets!, "negotiationarena");
    const [first, second] = readdirSync(root).filter((d) => existsSync(join(root, d, "game_state.json"))).sort();
    const a = JSON.parse(readFileSync(join(root, first, "game_state.json"), "utf8"));
    const b = JSON.parse(readFileSync(join(root, second, "game_state.json"), "utf8"));
    b.run_epoch_time_ms = a.run_epoch_time_ms; // two machines started a run in the same millisecond
    mkdirSync(join(dir, "in", "laptop"), {recursive: true});
    mkdirSync(join(dir, "in", "server"), {recursive: true});
    writeFileSync(join(dir, "in", "laptop", "game_state.json"), JSON.stringify(a));
    writeFileSync(join(dir, "in", "server", "game_state.json"), JSON.stringify(b));
    const out = join(dir, "out");
    const r = parley("ingest", "negotiationarena", join(dir, "in"), "--out", out);
    assert.equal(r.code, 0, r.stderr);
    const games = await queryParquet({games: join(out, "games.parquet")}, "SELECT game_id FROM games ORDER BY game_id");
    assert.deepEqual(games.map((g) => g.game_id), ["negotiationarena/laptop", "negotiationarena/server"]);
    const turns = await ids(out, "turns", "game_id, turn");
    assert.equal(turns.distinct_keys, turns.n);
    assert.equal(turns.n, a.game_state.length - 1 - 1 + (b.game_state.length - 1 - 1)); // every iteration but the initial state and END
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});

test("gamma-Bench: the same game, model and run in two folders is written once and reported naming both files", {skip}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-ids-gb-"));
  try {
    const source = join(datasets!, "gamabench", "guessing_game");
    const file = readdirSync(source).filter((f) => f.endsWith(".json")).sort()[0];
    for (const copy of ["a", "b"]) cpSync(join(source, file), join(dir, "in", copy, "guessing_game", file));
    const out = join(dir, "out");
    const r = parley("ingest", "gamabench", join(dir, "in"), "--out", out);
    assert.equal(r.code, 0, r.stderr);
    const line = r.stderr.split("\n").find((l) => l.includes("duplicate"));
    assert.ok(line, r.stderr);
    assert.ok(line.includes(join(dir, "in", "a", "guessing_game", file)) && line.includes(join(dir, "in", "b", "guessing_game", file)), line);
    const games = await ids(out, "games", "game_id");
    assert.deepEqual([games.n, games.distinct_keys], [1, 1]);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});

test("parley run: a player listed twice, or a pair listed twice, is a config error naming the key (exit 2, nothing written)", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-ids-run-"));
  try {
    const base = {family: "bargaining", grid: {delta_a: [0.9], delta_b: [0.9], money: [100], horizon: [1], complete_information: [true], messages: [false]}};
    const cases: [unknown, string][] = [
      [{...base, players: ["fair", "greedy", "anchor", "random", "random"]}, 'players[4]: "random" is listed twice (also players[3])'],
      [{...base, players: ["fair", "greedy"], pairs: [["fair", "greedy"], ["greedy", "fair"], ["fair", "greedy"]]}, 'pairs[2]: ["fair","greedy"] is listed twice (also pairs[0])'],
    ];
    for (const [config, message] of cases) {
      const file = join(dir, "config.json");
      writeFileSync(file, JSON.stringify(config));
      const out = join(dir, "out");
      const r = parley("run", file, "--out", out);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr.trim(), `parley run: ${file}: ${message}`);
      assert.equal(existsSync(join(out, "games.parquet")), false);
    }
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});
