// `parley run` -> Parquet -> `parley metrics` / `parley regress` --conventions, through the real
// command line and native DuckDB. Every game's four metrics are recomputed here in
// TypeScript from its raw outcome (the per-round qualities and purchases in persuasion),
// with the paper's formulas (GLEE (Shapira et al. 2024) §2) and with GLEE's published
// analysis code's, and the command's output must match both, game by game.
import {before, test} from "node:test";
import assert from "node:assert/strict";
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {queryRun} from "../../loaders/io/parquet.js";
import {readGleeRows} from "../../loaders/cli/commands/regress.js";
import {fitGlee} from "../../src/lib/gleeDesign.js";
import type {GleeConventions, GleeMetricsRow} from "../../src/lib/gleeMetrics.js";
import type {Outcome} from "../../loaders/papers/glee/types.js";
import {parley, scratch} from "../support/cli.js";

const scratchDirs = scratch("parley-conventions-");
let out: string;
let games: Game[];

/** A games row: the outcome columns and the parameters the metrics read. */
interface Game extends Pick<Outcome, "rounds" | "agreement" | "alice_share" | "price" | "high_quality" | "purchased"> {
  game_id: string;
  family: string;
  money: number;
  delta_a: number | null;
  delta_b: number | null;
  value_a: number | null;
  value_b: number | null;
  value_high: number | null;
}

type Metrics = [number | null, number | null, number | null, number | null];

/** efficiency, fairness, alice_self_gain, bob_self_gain of one game, written from the two sources' formulas. */
function expected(g: Game, conventions: GleeConventions): Metrics {
  const code = conventions === "glee-code";
  const deal = g.agreement === true;
  if (g.family === "bargaining") {
    // Paper §2.1: no deal scores (0, 1, 0, 0). GLEE's code: gains recorded as 0 (configs.py:90), then the deal formulas.
    if (!deal && !code) return [0, 1, 0, 0];
    const p = deal ? g.alice_share! : 0;
    const alice = p * g.delta_a! ** (g.rounds - 1);
    const bob = (1 - p) * g.delta_b! ** (g.rounds - 1);
    return [alice + bob, 1 - 4 * (p - 0.5) ** 2, alice, bob];
  }
  if (g.family === "negotiation") {
    const [va, vb, p, m] = [g.value_a!, g.value_b!, g.price!, g.money];
    const efficient = deal ? va <= vb && (code || (va <= p && p <= vb)) : va >= vb;
    const fairness = deal ? Math.max(0, Math.min(1, 1 - 4 * ((p - (va + vb) / 2) / m) ** 2)) : 1;
    return [efficient ? 1 : 0, fairness, deal ? (p - va) / m : 0, deal ? (vb - p) / m : 0];
  }
  const rounds = g.high_quality!.map((high, i) => ({high, bought: g.purchased![i]}));
  const count = (f: (r: {high: boolean; bought: boolean}) => boolean) => rounds.filter(f).length;
  const t = rounds.length;
  const n = count((r) => r.high);
  const k = count((r) => r.high && r.bought);
  const lowBought = count((r) => !r.high && r.bought);
  const lowNotBought = count((r) => !r.high && !r.bought);
  const sold = count((r) => r.bought);
  // Paper §2.3: Bob gets v − 1 per high-quality purchase and −1 per low-quality one (in units of M);
  // GLEE's code (metrics.py:352-353, c = 0) subtracts the low-quality rounds not bought instead.
  const bob = (k * (g.value_high! - 1) - (code ? lowNotBought : lowBought)) / t;
  return [n ? k / n : null, t - n ? lowNotBought / (t - n) : null, sold / t, bob];
}

async function metricsOf(...flags: string[]): Promise<Map<string, Metrics>> {
  const r = await parley(["metrics", out, ...flags]);
  assert.equal(r.code, 0, r.stderr);
  const rows = r.stdout.trim().split("\n").map((line) => JSON.parse(line) as GleeMetricsRow);
  return new Map(rows.map((m) => [m.game_id, [m.efficiency, m.fairness, m.alice_self_gain, m.bob_self_gain]]));
}

const sameMetrics = (a: Metrics, b: Metrics) => a.every((x, i) => (x === null ? b[i] === null : b[i] !== null && Math.abs(x - b[i]!) < 1e-12));

before(async () => {
  // Each family at its paper defaults, every ordered pair of built-in agents: short horizons so that
  // bargaining games end without a deal and negotiations trade outside [V_A, V_B].
  const dir = scratchDirs.dir();
  const config = join(dir, "small.json");
  writeFileSync(config, JSON.stringify({
    game: ["glee/bargaining", "glee/negotiation", "glee/persuasion"],
    grid: {"glee/bargaining": {horizon: [2]}, "glee/negotiation": {horizon: [3]}},
    players: "all", seed: 3,
  }));
  out = join(dir, "out");
  const run = await parley(["run", config, "--out", out, "--quiet"]);
  assert.equal(run.code, 0, run.stderr);
  games = await queryRun<Game & Record<string, unknown>>(out, ["games"], `SELECT game_id, family, rounds, agreement, alice_share, delta_a, delta_b, money, price,
    value_a, value_b, value_high, high_quality, purchased FROM games ORDER BY game_id`);
});

test("parley metrics --conventions: every game as each source's formulas give it; only the three differences move", async () => {
  const byDefault = await metricsOf();
  const paper = await metricsOf("--conventions", "paper");
  const code = await metricsOf("--conventions", "glee-code");
  assert.equal(paper.size, games.length);
  assert.deepEqual([...byDefault], [...paper], "paper is the default");
  const moved: Record<string, number> = {bargaining: 0, negotiation: 0, persuasion: 0};
  for (const g of games) {
    assert.ok(sameMetrics(paper.get(g.game_id)!, expected(g, "paper")), `${g.game_id}, paper: ${paper.get(g.game_id)} vs ${expected(g, "paper")}`);
    assert.ok(sameMetrics(code.get(g.game_id)!, expected(g, "glee-code")), `${g.game_id}, GLEE's code: ${code.get(g.game_id)} vs ${expected(g, "glee-code")}`);
    if (!sameMetrics(paper.get(g.game_id)!, code.get(g.game_id)!)) moved[g.family]++;
  }
  // The games that move are exactly those the three differences name, and this run has each kind.
  const noDeal = games.filter((g) => g.family === "bargaining" && !g.agreement).length;
  const tradeOutside = games.filter((g) => g.family === "negotiation" && g.agreement && g.value_a! <= g.value_b! && !(g.value_a! <= g.price! && g.price! <= g.value_b!)).length;
  const lowMismatch = games.filter((g) => g.family === "persuasion" && expected(g, "paper")[3] !== expected(g, "glee-code")[3]).length;
  assert.ok(noDeal > 0 && tradeOutside > 0 && lowMismatch > 0, `each difference occurs: ${noDeal}, ${tradeOutside}, ${lowMismatch}`);
  assert.deepEqual(moved, {bargaining: noDeal, negotiation: tradeOutside, persuasion: lowMismatch});
});

test("parley regress --conventions fits the chosen metrics; a bad value is one line", async () => {
  const regress = async (conventions: GleeConventions) => {
    const r = await parley(["regress", out, "--family", "persuasion", "--metric", "bob_self_gain", "--splits", "0", "--conventions", conventions]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const [paper, code] = [await regress("paper"), await regress("glee-code")];
  assert.deepEqual([paper.summary.conventions, code.summary.conventions], ["paper", "glee-code"]);
  const intercept = (report: {rows: {feature: string; coef: number}[]}) => report.rows.find((x) => x.feature === "(intercept)")!.coef;
  for (const [conventions, report] of [["paper", paper], ["glee-code", code]] as const) {
    const fit = fitGlee(await readGleeRows(out, "persuasion", undefined, conventions), {family: "persuasion", metric: "bob_self_gain", holdout: false});
    assert.equal(report.summary.n, 25);
    assert.ok(Math.abs(intercept(report) - fit.rows.find((x) => x.feature === "(intercept)")!.coef) < 1e-12, conventions);
  }
  assert.notEqual(intercept(paper), intercept(code));

  for (const command of [["metrics", out], ["regress", out, "--family", "bargaining", "--metric", "fairness"]]) {
    const bad = await parley([...command, "--conventions", "pape"]);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, `parley ${command[0]}: --conventions must be one of paper, glee-code, got "pape"\n`);
    assert.equal(bad.stdout, "");
  }
});
