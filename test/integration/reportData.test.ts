// The study data of `parley report` (loaders/report/): two runs of one GLEE
// config in directories with the same name are read as two runs, named
// apart, and pooled into the GLEE tables the pages read with every game
// kept once, its id prefixed with its run's name; the first views are
// written beside them. Counted here from each run's own tables.
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, mkdirSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch} from "../support/cli.js";
import {queryParquet, queryRun} from "../../loaders/io/parquet.js";
import {readStudyRuns} from "../../loaders/site/reportRuns.js";
import {writeStudyDataset} from "../../loaders/site/reportData.js";
import {REPORT_DATASETS} from "../../loaders/datasets/reportDatasets.js";

const {dir: tempDir} = scratch("parley-report-data-");

test("two runs pooled: every game once, ids prefixed by run, rows as in the runs", async () => {
  const work = tempDir();
  const config = join(work, "study.json");
  writeFileSync(config, JSON.stringify({family: ["bargaining", "persuasion"], grid: {bargaining: {delta_a: [0.9], delta_b: [0.9], money: [100], horizon: [4], complete_information: [true], messages: [false]}}, players: ["fair", "greedy", "random", "bayesian", "truthful"], games_per_pair: 1, seed: 5}));
  const dirs = [join(work, "a", "study"), join(work, "b", "study")];
  for (const dir of dirs) {
    mkdirSync(join(dir, ".."), {recursive: true});
    const r = await parley(["run", config, "--out", dir]);
    assert.equal(r.code, 0, r.stderr);
  }
  const runs = await readStudyRuns(dirs);
  assert.deepEqual(runs.map((r) => r.name), ["study", "study-2"]);
  assert.deepEqual(runs[0].games, ["glee/bargaining", "glee/persuasion"]);
  const [{n: perRun}] = await queryRun<{n: number}>(dirs[0], ["games"], "SELECT count(*)::INTEGER AS n FROM games");
  const [{n: turnsPerRun}] = await queryRun<{n: number}>(dirs[0], ["turns"], "SELECT count(*)::INTEGER AS n FROM turns");

  const out = join(work, "glee");
  const status = await writeStudyDataset(REPORT_DATASETS.find((d) => d.id === "glee")!, runs, out, {title: "T"});
  const [games] = await queryParquet<{n: number; ids: number; prefixed: number}>({games: join(out, "games.parquet")}, "SELECT count(*)::INTEGER AS n, count(DISTINCT game_id)::INTEGER AS ids, count(*) FILTER (WHERE game_id LIKE 'study/%' OR game_id LIKE 'study-2/%')::INTEGER AS prefixed FROM games");
  assert.deepEqual(games, {n: 2 * perRun, ids: 2 * perRun, prefixed: 2 * perRun});
  const [turns] = await queryParquet<{n: number; orphans: number}>({games: join(out, "games.parquet"), turns: join(out, "turns.parquet")}, "SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE game_id NOT IN (SELECT game_id FROM games))::INTEGER AS orphans FROM turns");
  assert.deepEqual(turns, {n: 2 * turnsPerRun, orphans: 0});
  assert.equal(status.title, "T: study, study-2");
  assert.equal(status.summary.games_rows, 2 * perRun);
  assert.deepEqual(JSON.parse(readFileSync(join(out, "status.json"), "utf8")), status);
  for (const page of ["glee-bargaining", "glee-regression", "glee-pairs"]) assert.ok(existsSync(join(out, `first-${page}.json`)), page);
});
