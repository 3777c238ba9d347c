// A small run -> Parquet -> `parley export`: one JSON line per game with its
// turns as chat messages in order, checked against the tables through DuckDB.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {mkdtempSync, readdirSync, readFileSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {projectRoot} from "../../loaders/projectConfig.js";
import {queryRun} from "../../loaders/io/parquet.js";

function parley(...args: string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8"});
  return {code: r.status, stdout: r.stdout, stderr: r.stderr};
}

test("parley export: every game once, its turns as messages in order, and a dataset card", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-export-"));
  writeFileSync(join(dir, "run.json"), JSON.stringify({run_id: "exp", family: "negotiation", grid: {factor_a: [0.8], factor_b: [1.2], money: [100]}, players: ["fair", "greedy"], pairs: "all", games_per_pair: 1, seed: 5}));
  assert.equal(parley("run", join(dir, "run.json"), "--out", join(dir, "run")).code, 0);
  const r = parley("export", join(dir, "run"), "--out", join(dir, "out"));
  assert.equal(r.code, 0, r.stderr);
  const records = readFileSync(join(dir, "out/games.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
  const counts = await queryRun<{game_id: string; n: number}>(join(dir, "run"), ["turns"], "SELECT game_id, count(*)::INTEGER AS n FROM turns GROUP BY game_id ORDER BY game_id");
  assert.deepEqual(records.map((x) => x.game_id), counts.map((c) => c.game_id));
  for (const [i, rec] of records.entries()) {
    assert.equal(rec.messages.length, counts[i].n, rec.game_id);
    assert.deepEqual(rec.messages.map((m: {turn: number}) => m.turn), [...Array(counts[i].n).keys()], "turns in order");
    assert.equal(rec.game, "glee/negotiation");
    assert.equal(rec.players.length, 2);
    for (const m of rec.messages) assert.match(m.name, /^[01] \((fair|greedy)\)$/);
  }
  const card = readFileSync(join(dir, "out/README.md"), "utf8");
  assert.match(card, new RegExp(`${records.length} games`));
  assert.match(card, /## License/);
  assert.deepEqual(readdirSync(join(dir, "out")).sort(), ["README.md", "games.jsonl"], "no temporary file left");
  const bad = parley("export", join(dir, "run"), "--out", join(dir, "x"), "--format", "csv");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr.trim(), /^parley export: --format: expected jsonl, got "csv"$/);
});
