// `parley ingest dond` -> Parquet -> DuckDB, through the real command line.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {existsSync, mkdtempSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {fileURLToPath} from "node:url";
import {queryParquet, queryRun} from "../../loaders/io/parquet.js";
import {paretoOptimal, value} from "../../src/lib/dondAllocation.js";
import {datasetsConfig, projectRoot} from "../../loaders/projectConfig.js";

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

test("played games (parley run of dond/negotiation) are scored by dond-stats like human dialogues; the SQL agrees with the TypeScript definitions", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-cli-"));
  const config = join(dir, "dond.json");
  writeFileSync(config, JSON.stringify({game: "dond/negotiation", grid: {point: [0, 2, 5, 30, 47]}, players: ["workflow-bayes", "fair", "greedy"], seed: 4}));
  const out = join(dir, "out");
  const run = parley("run", config, "--out", out, "--quiet");
  assert.equal(run.code, 0, run.stderr);
  const stats = parley("dond-stats", out);
  assert.equal(stats.code, 0, stats.stderr);
  const rows = JSON.parse(stats.stdout) as {difficulty: number; n: number; agreement: number; envy_free: number; pareto_optimal: number; both: number}[];
  // Independently: each game's EF and PO from src/lib/dondAllocation.ts, grouped by −‖v_A − v_B‖₁.
  const games = await queryRun(out, ["games"], "SELECT counts, values_a, values_b, agreement, alloc_a, alloc_b FROM games");
  assert.equal(games.length, 5 * 9);
  const byDifficulty = new Map<number, {n: number; agreed: number; ef: number; po: number; both: number}>();
  for (const g of games as {counts: number[]; values_a: number[]; values_b: number[]; agreement: boolean; alloc_a: number[] | null; alloc_b: number[] | null}[]) {
    const d = -g.values_a.reduce((s, v, k) => s + Math.abs(v - g.values_b[k]), 0);
    const ua = g.agreement ? value(g.values_a, g.alloc_a!) : 0;
    const ub = g.agreement ? value(g.values_b, g.alloc_b!) : 0;
    const ef = g.agreement && value(g.values_a, g.alloc_a!) >= value(g.values_a, g.alloc_b!) && value(g.values_b, g.alloc_b!) >= value(g.values_b, g.alloc_a!);
    const po = g.agreement && paretoOptimal(g.counts, g.values_a, g.values_b, ua, ub);
    const r = byDifficulty.get(d) ?? {n: 0, agreed: 0, ef: 0, po: 0, both: 0};
    byDifficulty.set(d, {n: r.n + 1, agreed: r.agreed + +g.agreement, ef: r.ef + +ef, po: r.po + +po, both: r.both + +(ef && po)});
  }
  const expected = [...byDifficulty.entries()].sort((a, b) => b[0] - a[0]).map(([difficulty, r]) => ({difficulty, n: r.n, agreement: r.agreed / r.n, envy_free: r.ef / r.n, pareto_optimal: r.po / r.n, both: r.both / r.n}));
  assert.deepEqual(rows, expected);
  assert.ok(rows.some((r) => r.agreement > 0) && rows.some((r) => r.agreement < 1), "some games agreed and some did not");
});

test("an LLM player asking for a workflow in a game without one is a config error", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-cli-"));
  const config = join(dir, "wf.json");
  writeFileSync(config, JSON.stringify({game: "gamabench/guessing", players: [{id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:9/v1", workflow: true}], lineups: "self"}));
  const r = parley("run", config, "--out", join(dir, "out"));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /players: m asks for "workflow": true, but gamabench\/guessing has no workflow \(games with one: dond\/negotiation, every matrix and tree game\)/);
});
