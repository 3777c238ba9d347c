/**
 * gamma-Bench's eight games played by `parley run` (built-in agents, ten
 * seats) and scored by `parley gamabench-scores` with the same SQL that
 * scores the paper's raw files: all-equilibrium play scores 100 wherever
 * gamma-Bench (Huang et al. 2024) §3 and its Appendix E say it should, and
 * the first-price auction's BNE bid (N−1)/N·v scores about 0.1·mean(v)/max(v).
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {projectRoot} from "../../loaders/projectConfig.js";
import {queryRun} from "../../loaders/io/parquet.js";

function parley(...args: string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8"});
  return {code: r.status, stdout: r.stdout, stderr: r.stderr};
}

test("a Parley run of all eight gamma-Bench games lands in the common tables and scores like the paper's files", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-gb-run-"));
  try {
    const config = join(dir, "gb.json");
    writeFileSync(config, JSON.stringify({game: "gamabench/*", players: ["equilibrium", "random"], lineups: "self", games_per_lineup: 2, seed: 5}));
    const out = join(dir, "out");
    const run = parley("run", config, "--out", out, "--quiet");
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).games, 8 * 2 * 2);

    const scores = parley("gamabench-scores", out);
    assert.equal(scores.code, 0, scores.stderr);
    const eq = JSON.parse(scores.stdout).equilibrium;
    for (const game of ["guessing_game", "bar_game_implicit", "divide_dollar", "public_goods", "diner_dilemma", "battle_royale", "pirate_game"]) {
      assert.deepEqual([game, eq[game].mean, eq[game].runs], [game, 100, 2]);
    }
    // Valuations are distinct multiples of 10 in [0, 200]: 0.1·mean(v)/max(v)·100 is about 5.
    assert.ok(eq.sealed_bid_auction_first_price.mean > 3 && eq.sealed_bid_auction_first_price.mean < 7, String(eq.sealed_bid_auction_first_price.mean));

    // Every game wrote one row per seat; partitions carry the game id.
    const rows = await queryRun(out, ["games", "players"], `SELECT g.game, count(DISTINCT g.game_id)::INTEGER AS games, count(*)::INTEGER AS seats FROM games g JOIN players p USING (game_id) GROUP BY ALL ORDER BY game`);
    assert.equal(rows.length, 8);
    assert.ok(rows.every((r) => r.games === 4 && r.seats === 40), JSON.stringify(rows));
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});
