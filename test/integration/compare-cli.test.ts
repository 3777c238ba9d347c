// Two runs of one plan (the same grid and lineup positions, one agent
// swapped) -> Parquet -> `parley compare`, checked against a SQL join of the
// two players tables and the paired t statistic computed here.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {mkdtempSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {projectRoot} from "../../loaders/projectConfig.js";
import {withDuckDB} from "../../loaders/io/duckdb.js";
import {runTableFiles, tableSql} from "../../loaders/io/runTables.js";

function parley(...args: string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8"});
  return {code: r.status, stdout: r.stdout, stderr: r.stderr};
}

test("parley compare: run B − run A per seat (fair swapped for rubinstein), equal to a SQL join and the t statistic by hand", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-compare-"));
  const config = (players: string[]) => ({run_id: "cmp", family: "bargaining", grid: {delta_a: [0.8, 0.95], money: [100]}, players, pairs: "all", games_per_pair: 1, seed: 3});
  for (const [name, players] of [["a", ["fair", "greedy"]], ["b", ["rubinstein", "greedy"]]] as const) {
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(config([...players])));
    const r = parley("run", join(dir, `${name}.json`), "--out", join(dir, name));
    assert.equal(r.code, 0, r.stderr);
  }
  const r = parley("compare", join(dir, "a"), join(dir, "b"));
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "", "the manifests differ only in the compared players: no warning");
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.unmatched, {a: 0, b: 0, a_games: [], b_games: []});
  const players = (run: string) => tableSql(runTableFiles(join(dir, run), "players"))!;
  // A second method: game ids name the lineup (bargaining-<config>-<alice>-vs-<bob>-<rep>), so after
  // writing fair as rubinstein the ids of run A are those of run B.
  const diffs = await withDuckDB((db) =>
    db.query<{seat: number; d: number}>(`SELECT a.seat, b."return" - a."return" AS d FROM ${players("a")} a JOIN ${players("b")} b ON replace(a.game_id, 'fair', 'rubinstein') = b.game_id AND a.seat = b.seat ORDER BY a.game_id, a.seat`),
  );
  assert.ok(diffs.length >= 16, "every configuration × 4 lineups × 2 seats");
  for (const seatNo of [0, 1]) {
    const d = diffs.filter((x) => Number(x.seat) === seatNo).map((x) => Number(x.d));
    const mean = d.reduce((t, v) => t + v, 0) / d.length;
    const sd = Math.sqrt(d.reduce((t, v) => t + (v - mean) ** 2, 0) / (d.length - 1));
    const row = out.rows.find((x: {metric: string}) => x.metric === `return, seat ${seatNo}`);
    assert.equal(row.family, "glee/bargaining");
    assert.equal(row.n, d.length);
    assert.ok(Math.abs(row.mean_diff - mean) < 1e-9 * (1 + Math.abs(mean)));
    if (sd > 0) assert.ok(Math.abs(row.t - mean / (sd / Math.sqrt(d.length))) < 1e-6);
    assert.ok(row.p_t_holm >= row.p_t && row.p_perm_holm >= row.p_perm, "Holm never lowers a p-value");
  }
  // The same runs, agents mode across both directories: rubinstein − fair in the same seat against the same opponent.
  const agents = JSON.parse(parley("compare", join(dir, "a"), join(dir, "b"), "--agents", "fair", "--agents", "rubinstein").stdout);
  assert.equal(agents.mode, "agents");
  assert.ok(agents.rows.length >= 1);
});

test("parley compare warns on stderr, one line per field, when the runs differ in more than the compared players", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-compare-warn-"));
  const config = (players: string[], seed: number, money: number) => ({family: "bargaining", grid: {delta_a: [0.8], money: [money]}, players, pairs: "all", games_per_pair: 1, seed});
  for (const [name, players, seed, money] of [["a", ["fair", "greedy"], 3, 100], ["b", ["rubinstein", "greedy"], 4, 100], ["c", ["rubinstein", "greedy"], 3, 200]] as const) {
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(config([...players], seed, money)));
    const r = parley("run", join(dir, `${name}.json`), "--out", join(dir, name));
    assert.equal(r.code, 0, r.stderr);
  }
  const seed = parley("compare", join(dir, "a"), join(dir, "b"));
  assert.equal(seed.code, 0, seed.stderr);
  assert.deepEqual(seed.stderr.trim().split("\n"), ["warning: the runs differ in seed (A 3, B 4), not only in the compared players (fair → rubinstein)"]);
  assert.ok(JSON.parse(seed.stdout).rows.length > 0, "the results follow on stdout");
  const money = parley("compare", join(dir, "a"), join(dir, "c"));
  assert.equal(money.stderr.trim().split("\n").length, 1, money.stderr);
  assert.match(money.stderr, /^warning: the runs differ in config\.grid\.money \(A \[100\], B \[200\]\)/);
});

test("parley compare: mistakes are one line", () => {
  const one = parley("compare", projectRoot);
  assert.equal(one.code, 2);
  assert.match(one.stderr.trim(), /^usage: |^parley compare/);
  const same = parley("compare", projectRoot, "--agents", "x", "--agents", "x");
  assert.equal(same.code, 2);
  assert.match(same.stderr.trim(), /^parley compare: --agents: expected two different agents/);
});
