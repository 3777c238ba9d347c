// `parley ingest dond` -> Parquet -> DuckDB, through the real command line.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {existsSync, mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {fileURLToPath} from "node:url";
import {queryParquet} from "../../loaders/io/parquet.js";
import {datasetsConfig, projectRoot} from "../../loaders/config.js";

const fixture = fileURLToPath(new URL("../fixtures/dond/hand.txt", import.meta.url));

function parley(...args: string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8"});
  return {code: r.status, stdout: r.stdout, stderr: r.stderr};
}

test("ingest reports the malformed line, writes the rest, and fails only with --strict", async () => {
  const out = mkdtempSync(join(tmpdir(), "parley-cli-"));
  const lenient = parley("ingest", "dond", fixture, "--out", out);
  assert.equal(lenient.code, 0, lenient.stderr);
  assert.match(lenient.stderr, /hand\.txt, line 7: <input>: expected 6 non-negative integers/);
  assert.match(lenient.stderr, /lines read: 7, dialogues written: 3, lines skipped: 1/);
  const games = await queryParquet({games: join(out, "games.parquet")}, "SELECT count(*) AS n, sum(agreement::INT) AS agreed FROM games");
  assert.deepEqual(games, [{n: 3, agreed: 2}]);
  const turns = await queryParquet({turns: join(out, "turns.parquet")}, "SELECT text FROM turns WHERE game_id = 'dond-3' AND turn = 0");
  assert.equal(turns[0].text, "<img src=x onerror=alert(1)> can i have the hats ?");

  const strict = parley("ingest", "dond", fixture, "--out", mkdtempSync(join(tmpdir(), "parley-cli-")), "--strict");
  assert.equal(strict.code, 1);

  const stats = parley("dond-stats", out);
  assert.equal(stats.code, 0, stats.stderr);
  assert.deepEqual(JSON.parse(stats.stdout).map((r: {difficulty: number; n: number}) => [r.difficulty, r.n]), [
    [-3, 2],
    [-5, 1],
  ]);
});

test("usage errors name the problem", () => {
  const r = parley("ingest", "nope", fixture, "--out", "/tmp/x");
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown adapter "nope"/);
  const missing = parley("dond-stats", "/nonexistent");
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /games\.parquet not found/);
});

const real = datasetsConfig().dir && join(datasetsConfig().dir!, "dealornodeal/val.txt");
test("the shared validation split: 1,087 lines, every dialogue counted once", {skip: real && existsSync(real) ? false : "datasets directory not configured"}, async () => {
  const out = mkdtempSync(join(tmpdir(), "parley-cli-"));
  const r = parley("ingest", "dond", real!, "--out", out, "--strict");
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /lines read: 1087, dialogues written: 562, lines skipped: 0/);
  const [check] = await queryParquet(
    {games: join(out, "games.parquet")},
    `SELECT count(*) AS dialogues, count(line_a) + count(line_b) AS lines,
            count(*) FILTER (WHERE line_a IS NOT NULL AND line_b IS NOT NULL) AS both_sides FROM games`,
  );
  // 525 dialogues appear from both sides and 37 from one side only: 2·525 + 37 = 1087 lines.
  assert.deepEqual(check, {dialogues: 562, lines: 1087, both_sides: 525});
  const stats = JSON.parse(parley("dond-stats", out).stdout) as {n: number}[];
  assert.equal(stats.reduce((s, r) => s + r.n, 0), 562);
});
