/**
 * GLEE on the game contract gives the numbers it gave before: the default
 * tournament (data/runs/default.json: Table 1's full grid × every ordered pair
 * of built-in agents, 56,040 games), played by the one runner for every game,
 * gives metrics identical to the JSON Lines that `parley metrics` printed for
 * the same config before the contract existed (test/fixtures/glee-parity/,
 * captured with the GLEE-only engine), for every (family, agents, parameters)
 * combination, to the last bit.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {gunzipSync} from "node:zlib";
import {projectRoot} from "../../loaders/projectConfig.js";
import {generateRun} from "../../loaders/runner/generate.js";
import {queryParquet} from "../../loaders/io/parquet.js";
import {gleeMetricsSQL} from "../../src/lib/gleeMetrics.js";

test("the default GLEE tournament's metrics are identical to those captured before the game contract", async () => {
  const fixture = gunzipSync(readFileSync(join(projectRoot, "test/fixtures/glee-parity/default-metrics.jsonl.gz"))).toString("utf8").trim().split("\n");
  const dir = mkdtempSync(join(tmpdir(), "parley-glee-parity-"));
  try {
    await generateRun("default", dir);
    const rows = await queryParquet({games: join(dir, "games.parquet")}, `${gleeMetricsSQL("games")} ORDER BY game_id`);
    // The fixture is `parley metrics` output (one JSON object per game, in that key order), sorted as text.
    const lines = rows.map((r) => JSON.stringify(r)).sort();
    assert.equal(lines.length, fixture.length, "games");
    const first = lines.findIndex((line, i) => line !== fixture[i]);
    assert.equal(first, -1, first < 0 ? "" : `first difference:\n  now    ${lines[first]}\n  before ${fixture[first]}`);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});
