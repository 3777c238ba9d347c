// A configured run's archive (loaders/ownRuns/runArchives.ts) holds the GLEE pages'
// and the GLEE study page's (/study-discount) first views, answered at build time in native DuckDB, and they equal what
// the pages compute in DuckDB-WASM from the archive's own row-level tables;
// the generated module names them for the pages (so a page with the run
// selected fetches no rows for its first view).
import {test} from "node:test";
import assert from "node:assert/strict";
import {execFileSync} from "node:child_process";
import {existsSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {writeSmallGleeConfig} from "../support/smallGleeRun.js";
import {parley, scratch} from "../support/cli.js";
import {RUN_FIRST_VIEWS, runArchive, runsModule} from "../../loaders/ownRuns/runArchives.js";
import type {Snapshot} from "../../src/lib/snapshot.js";
import {assertFirstViewParity, rounded} from "../support/firstViewParity.js";
import {withParquetViews} from "../../loaders/io/parquet.js";
import {expandValues, familyMetricsSQL, metricValuesSQL} from "../../src/lib/pages/gleeFamily.js";
import {GLEE_METRICS} from "../../src/lib/gleeMetrics.js";

const {dir: tempDir} = scratch("parley-run-first-views-");

test("a sharded run's archive: each GLEE page's first view, equal to DuckDB-WASM's answers on the run's rows", async () => {
  const dir = tempDir();
  const config = writeSmallGleeConfig(dir, 4);
  const run = join(dir, "runs", "study");
  for (const shard of ["0/2", "1/2"]) {
    const played = await parley(["run", config, "--out", run, "--shard", shard]);
    assert.equal(played.code, 0, played.stderr);
  }
  const configFile = join(dir, "parley.config.json");
  writeFileSync(configFile, JSON.stringify({datasets: "../datasets", runs: [{path: "runs/study", name: "Study"}]}));
  const env = {PARLEY_CONFIG: configFile};

  const module = await runsModule(env);
  const pages = RUN_FIRST_VIEWS.glee.map((v) => v.page);
  assert.deepEqual(pages.sort(), ["glee-bargaining", "glee-negotiation", "glee-pairs", "glee-persuasion", "glee-regression", "study-discount"]);
  for (const page of pages) assert.ok(module.includes(`FileAttachment("../data/runs/study/glee/first-${page}.json")`), `the module names ${page}'s first view`);

  const out = join(dir, "archive");
  writeFileSync(`${out}.tar`, await runArchive("study", env));
  execFileSync("tar", ["-xf", `${out}.tar`, "--one-top-level=archive"], {cwd: dir});
  for (const view of RUN_FIRST_VIEWS.glee) {
    const file = join(out, `glee/first-${view.page}.json`);
    assert.ok(existsSync(file), `${view.page}: in the archive`);
    const native = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
    await assertFirstViewParity(view, native, join(out, "glee"));
  }
  // The family pages' distributions, grouped by value, give back every game's value.
  await withParquetViews({games: join(out, "glee/games.parquet")}, async (db) => {
    for (const metric of GLEE_METRICS) for (const seat of ["alice", "bob"] as const) {
      const perGame = await db.query(`SELECT ${seat}_agent AS agent, ${metric} AS value FROM (${familyMetricsSQL("bargaining")}) WHERE ${metric} IS NOT NULL ORDER BY agent, value`);
      const grouped = expandValues((await db.query(metricValuesSQL("bargaining", metric, seat))) as {agent: string; value: number; games: number}[]);
      assert.equal(grouped.length, perGame.length, `${metric} by ${seat}: one value per game`);
      assert.deepEqual(rounded(grouped), rounded(perGame.map((r) => ({agent: r.agent, value: r.value}))), `${metric} by ${seat}`);
    }
  });
  // The run's 8 bargaining games are what the regression page's first view counts.
  const regression = JSON.parse(readFileSync(join(out, "glee/first-glee-regression.json"), "utf8")) as Snapshot;
  const agents = Object.entries(regression).find(([k]) => k.includes("glee-regression/agents\u0000"))?.[1] as {agents: string[]; games: number};
  assert.deepEqual(agents, {agents: ["fair", "greedy"], games: 8});
});
