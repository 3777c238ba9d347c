// Common random numbers end to end, through the real command line. One run config
// seats two agents in turn, against the same opponents, in a buy/sell
// (NegotiationArena), an auction (Economics Arena), a persuasion game (GLEE) and
// Deal or No Deal; it is played with the default "chance": "common" and with
// "per-game" -> Parquet -> DuckDB. Under the common scheme the two agents' matched
// games drew the same costs and values, private values, qualities and item pools
// (per game they did not); `parley compare --agents` says the chance was shared
// and pairs the games, and its paired interval is narrower than the paired
// interval of the same configurations seeded per game (the pairing `parley
// compare` made for every run before the scheme). Deal or No Deal draws nothing
// (its pools and values are the configuration's point), so there the two are
// equal. On the per-game run `parley compare` says the chance was not shared and
// averages the repetitions of each configuration. Last, the per-game run, played
// again from a config that names no scheme, resumes per game; and, in process, a
// directory keeps the scheme its run was played with (runner/keptChance.ts).
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {projectRoot} from "../../loaders/projectConfig.js";
import {withDuckDB} from "../../loaders/io/duckdb.js";
import {runTableFiles, tableSql} from "../../loaders/io/runTables.js";
import {meanInterval} from "../../src/lib/studentT.js";
import {parseRunConfig} from "../../loaders/runner/runConfig.js";
import {runResumable} from "../../loaders/runner/resume.js";
import {keptChance} from "../../loaders/runner/keptChance.js";
import {scratch} from "../support/cli.js";

const tmp = scratch("parley-crn-");

function parley(...args: string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8"});
  return {code: r.status, stdout: r.stdout, stderr: r.stderr};
}

const BUY_SELL = "negotiationarena/buy_sell";
const AUCTION = "econarena/auction";
const PERSUASION = "glee/persuasion";
const DOND = "dond/negotiation";
const REPETITIONS = 12;

/**
 * Per game: the two compared agents (seat 0), their opponents, the grid, and
 * the SQL of what a game drew, per configuration, repetition and seat-0 agent
 * (`games g`, `players p` and `turns t` are replaced by the game's tables).
 */
const GAMES = {
  [BUY_SELL]: {a: "rational", b: "split-difference", others: ["random"], grid: {valuation_spread: [20]}, configs: 1, draw: "concat_ws('/', g.seller_cost, g.buyer_value)"},
  [AUCTION]: {a: "rational", b: "shade-25", others: ["random", "random", "random", "random"], grid: {runs: [6]}, configs: 1, draw: "(SELECT string_agg(DISTINCT t.seat || ':' || t.value, ',' ORDER BY t.seat || ':' || t.value) FROM turns t WHERE t.game_id = g.game_id)"},
  [PERSUASION]: {a: "truthful", b: "pushy", others: ["bayesian"], grid: {prior: [0.5], value_high: [2]}, configs: 1, draw: "CAST(g.high_quality AS VARCHAR)"},
  [DOND]: {a: "greedy", b: "workflow-bayes", others: ["fair"], grid: {point: [0, 1]}, configs: 2, draw: "concat_ws('/', CAST(g.counts AS VARCHAR), CAST(g.values_a AS VARCHAR), CAST(g.values_b AS VARCHAR))"},
};
type Game = keyof typeof GAMES;
const NAMES = Object.keys(GAMES) as Game[];

/** The run config: every game with its two lineups; `chance` left out when null (the default). */
function config(chance: "per-game" | null): Record<string, unknown> {
  const lineups = Object.fromEntries(NAMES.map((g) => [g, [GAMES[g].a, GAMES[g].b].map((x) => [x, ...GAMES[g].others])]));
  const players = [...new Set(NAMES.flatMap((g) => [GAMES[g].a, GAMES[g].b, ...GAMES[g].others]))];
  return {game: NAMES, grid: Object.fromEntries(NAMES.map((g) => [g, GAMES[g].grid])), players, lineups, games_per_lineup: REPETITIONS, seed: 7, ...(chance && {chance})};
}

/** One game's tables of `dir` in `sql`. */
function withTables(dir: string, game: Game, sql: string): string {
  const table = (name: string) => tableSql(runTableFiles(dir, name, (g) => g === game))!;
  return sql.replace("FROM turns t", `FROM ${table("turns")} t`).replace("FROM games g", `FROM ${table("games")} g`).replace("JOIN players p", `JOIN ${table("players")} p`);
}

/** Per configuration and repetition, how many of the two agents' games drew the same, and how many pairs there are. */
async function sharedDraws(dir: string, game: Game): Promise<{same: number; pairs: number}> {
  const {a, b, draw} = GAMES[game];
  const sql = withTables(dir, game, `WITH d AS (SELECT g.config_id, g.repetition, p.agent, ${draw} AS draw FROM games g JOIN players p USING (game_id) WHERE p.seat = 0)
    SELECT count(*) AS pairs, count(*) FILTER (WHERE x.draw = y.draw) AS same FROM d x JOIN d y USING (config_id, repetition) WHERE x.agent = '${a}' AND y.agent = '${b}'`);
  const [row] = await withDuckDB((db) => db.query<{pairs: bigint; same: bigint}>(sql));
  return {same: Number(row.same), pairs: Number(row.pairs)};
}

/** The paired 95 % t interval of seat 0's return, B − A, with games paired by configuration and repetition, computed here from the players table. */
async function pairedByRepetition(dir: string, game: Game): Promise<{n: number; width: number}> {
  const {a, b} = GAMES[game];
  const sql = withTables(dir, game, `WITH r AS (SELECT g.config_id, g.repetition, p.agent, p."return" AS r FROM games g JOIN players p USING (game_id) WHERE p.seat = 0)
    SELECT y.r - x.r AS d FROM r x JOIN r y USING (config_id, repetition) WHERE x.agent = '${a}' AND y.agent = '${b}'`);
  const d = (await withDuckDB((db) => db.query<{d: number}>(sql))).map((x) => Number(x.d));
  const mean = d.reduce((t, v) => t + v, 0) / d.length;
  const sd = Math.sqrt(d.reduce((t, v) => t + (v - mean) ** 2, 0) / (d.length - 1));
  const {lo, hi} = meanInterval({n: d.length, mean, sd});
  return {n: d.length, width: hi! - lo!};
}

type Row = {family: string; metric: string; n: number; mean_diff: number; ci_lo: number | null; ci_hi: number | null};

/** `parley compare <dir> --agents a --agents b` for `game`'s two agents: the output and its seat-0 row of that game. */
function compareAgents(dir: string, game: Game): {out: {chance: {shared: boolean; why: string}; design: string}; row: Row} {
  const r = parley("compare", dir, "--agents", GAMES[game].a, "--agents", GAMES[game].b);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  return {out, row: out.rows.find((x: Row) => x.family === game && x.metric === "return, seat 0")};
}

test("common random numbers: two agents' matched games share every draw, parley compare pairs them, and the paired interval is narrower than per game", async () => {
  const dir = tmp.dir();
  const runs = {common: join(dir, "common"), perGame: join(dir, "per-game")};
  // The common run leaves the key out: it is the default of a new config. The per-game run checkpoints (resumed at the end).
  writeFileSync(join(dir, "common.json"), JSON.stringify(config(null)));
  writeFileSync(join(dir, "per-game.json"), JSON.stringify(config("per-game")));
  for (const [name, out, extra] of [["common", runs.common, []], ["per-game", runs.perGame, ["--resume"]]] as const) {
    const r = parley("run", join(dir, `${name}.json`), "--out", out, "--quiet", ...extra);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")).chance, name, `${name}: the manifest records the scheme`);
  }

  const figures: string[] = [];
  for (const game of NAMES) {
    // 1. The draws, read back from the Parquet the runs wrote.
    const pairs = REPETITIONS * GAMES[game].configs;
    const common = await sharedDraws(runs.common, game);
    const perGame = await sharedDraws(runs.perGame, game);
    assert.deepEqual(common, {same: pairs, pairs}, `${game}: under the common scheme every matched pair drew the same`);
    if (game === DOND) assert.deepEqual(perGame, {same: pairs, pairs}, "Deal or No Deal draws nothing: its item pools and values are the configuration's point");
    else assert.ok(perGame.pairs === pairs && perGame.same <= 1, `${game}: per game, ${perGame.same} of ${pairs} pairs happen to share their draws`);

    // 2. The comparison: matched on chance under the common scheme, narrower than the same pairing per game.
    const matched = compareAgents(runs.common, game);
    assert.equal(matched.out.chance.shared, true, matched.out.chance.why);
    assert.equal(matched.out.design, "matched");
    const width = matched.row.ci_hi! - matched.row.ci_lo!;
    const today = await pairedByRepetition(runs.perGame, game);
    assert.equal(matched.row.n, today.n, `${game}: the same number of pairs`);
    figures.push(
      `${game}: pairs sharing their draws: common ${common.same}/${pairs}, per-game ${perGame.same}/${pairs}; seat 0 return ${GAMES[game].b} − ${GAMES[game].a}, 95% interval width over ${today.n} pairs: common ${width.toPrecision(4)}, per-game ${today.width.toPrecision(4)} (ratio ${(width / today.width).toFixed(3)})`,
    );
    if (game === DOND) assert.ok(width > 0 && Math.abs(width - today.width) < 1e-9, "Deal or No Deal: nothing drawn, nothing to share, the same interval");
    else assert.ok(width < today.width, `${game}: matched width ${width} narrower than per-game ${today.width}`);
  }

  // 3. The per-game run's comparison says the chance was not shared, and pairs configurations (repetitions averaged).
  const cells = compareAgents(runs.perGame, BUY_SELL);
  assert.equal(cells.out.chance.shared, false);
  assert.match(cells.out.chance.why, /drew chance per game/);
  assert.equal(cells.out.design, "configurations");
  assert.equal(cells.row.n, 1, "one configuration: one cell");
  assert.equal(cells.row.ci_lo, null, "one cell gives a difference, no interval");
  figures.push(`${BUY_SELL}, per-game run, configurations design: n ${cells.row.n}, mean ${cells.row.mean_diff.toPrecision(4)}, no interval`);
  console.log(figures.join("\n"));

  // 4. The per-game run, begun before its config named a scheme: played again without the key, it resumes per game.
  writeFileSync(join(dir, "per-game.json"), JSON.stringify(config(null)));
  const again = parley("run", join(dir, "per-game.json"), "--out", runs.perGame, "--quiet", "--resume");
  assert.equal(again.code, 0, again.stderr);
  const summary = JSON.parse(again.stdout);
  assert.equal(summary.played, 0);
  assert.equal(summary.resumed, summary.planned, "every game resumed, none replayed under another scheme");
  assert.equal(JSON.parse(readFileSync(join(runs.perGame, "manifest.json"), "utf8")).chance, "per-game");
});

test("a directory keeps the scheme its run was played with; a new one, or another run's, keeps none", async () => {
  const raw = {game: "negotiationarena/buy_sell", grid: {valuation_spread: [20]}, players: ["rational", "split-difference"], lineups: [["rational", "split-difference"]], games_per_lineup: 2, seed: 4};
  const perGame = parseRunConfig({...raw, chance: "per-game"}, "kept");
  const unnamed = parseRunConfig(raw, "kept");
  const dir = tmp.dir();
  assert.equal(keptChance(dir, null, unnamed), null, "nothing played there yet");
  await runResumable(perGame, dir, {progress: null});
  assert.equal(unnamed.chance, "common");
  assert.equal(keptChance(dir, null, unnamed), "per-game", "the same run, played per game (as before the key existed): resumed per game");
  assert.equal(keptChance(dir, null, parseRunConfig({...raw, seed: 5}, "kept")), null, "another run definition keeps nothing");
  const common = tmp.dir();
  await runResumable(unnamed, common, {progress: null});
  assert.equal(keptChance(common, null, unnamed), "common");
});
