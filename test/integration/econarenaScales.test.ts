// Economics Arena (Guo et al. 2024) second-price auctions at the three scales of §4.2 (assets 100, 1,000,
// 10,000): `parley econarena-stats` keeps each scale (and lineup) apart, and its measures equal the
// auction's rules applied by hand to the three sessions' values and bids.
import {test} from "node:test";
import assert from "node:assert/strict";
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {queryRun} from "../../loaders/io/parquet.js";
import {parley, scratch} from "../support/cli.js";

const tmp = scratch("parley-econarena-scales-");

interface Bid {
  game_id: string;
  scale: string;
  assets: number;
  seat: number;
  agent: string;
  value: number;
  bid: number;
}

/** Second price (Appendix A.2): the highest bid wins (the first seat among equals) and pays the second-highest bid. */
function settle(bids: Bid[], bidOf: (b: Bid) => number): Map<number, number> {
  const order = [...bids].sort((x, y) => bidOf(y) - bidOf(x) || x.seat - y.seat);
  const [winner, second] = order;
  return new Map(bids.map((b) => [b.seat, b === winner ? b.assets + b.value - bidOf(second) : b.assets]));
}

test("three sessions, one per scale: one row per scale and agent, each measure as the rules give it", async () => {
  const dir = tmp.dir();
  writeFileSync(join(dir, "three.json"), JSON.stringify({
    game: "econarena/auction",
    grid: {environment: ["senior"], runs: [1], pricing: ["second"], scale: ["L", "M", "H"]},
    players: ["rational", "shade-25", "random"],
    lineups: [["rational", "shade-25", "random", "rational", "shade-25"]],
    // Per game, the draws the worked example below spells out were made with.
    games_per_lineup: 1, seed: 3, chance: "per-game",
  }));
  const out = join(dir, "out");
  const run = await parley(["run", join(dir, "three.json"), "--out", out, "--quiet"]);
  assert.equal(run.code, 0, run.stderr);
  const bids = await queryRun<Bid & Record<string, unknown>>(out, ["games", "players", "turns"], `
    SELECT t.game_id, g.scale, g.assets, t.seat, p.agent, t.value, t.strategy AS bid
    FROM turns t JOIN games g USING (game_id) JOIN players p ON p.game_id = t.game_id AND p.seat = t.seat
    WHERE t.strategy IS NOT NULL ORDER BY g.scale, t.seat`);
  assert.equal(bids.length, 15);

  // By hand, per session: the payoff ρ under the bids made, ρ* had everyone bid its value (the equilibrium), then
  // per (scale, agent) the mean ρ, mean ρ/ρ*, mean ρ / mean ρ*, mean |ρ/ρ* − 1| and the share of wins.
  const expected = new Map<string, {n: number; payoff: number[]; eq: number[]; won: number[]}>();
  for (const scale of ["L", "M", "H"]) {
    const session = bids.filter((b) => b.scale === scale);
    const actual = settle(session, (b) => b.bid);
    const equilibrium = settle(session, (b) => b.value);
    const winner = [...session].sort((x, y) => y.bid - x.bid || x.seat - y.seat)[0].seat;
    for (const b of session) {
      const key = `${scale}|${b.agent}`;
      const e = expected.get(key) ?? {n: 0, payoff: [], eq: [], won: []};
      e.n++;
      e.payoff.push(actual.get(b.seat)!);
      e.eq.push(equilibrium.get(b.seat)!);
      e.won.push(b.seat === winner ? 1 : 0);
      expected.set(key, e);
    }
  }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

  const stats = await parley(["econarena-stats", out]);
  assert.equal(stats.code, 0, stats.stderr);
  const rows = JSON.parse(stats.stdout) as Record<string, unknown>[];
  assert.equal(rows.length, 9, "three scales × three agents: nothing pooled across scales");
  for (const r of rows) {
    assert.equal(r.lineup, "random, rational ×2, shade-25 ×2");
    const e = expected.get(`${r.scale}|${r.agent}`)!;
    const where = `${r.scale} ${r.agent}`;
    assert.equal(r.n, e.n, where);
    const close = (x: unknown, y: number, what: string) => assert.ok(Math.abs(Number(x) - y) < 1e-9, `${where} ${what}: ${x} vs ${y}`);
    close(r.mean_payoff, mean(e.payoff), "mean payoff");
    close(r.payoff_ratio, mean(e.payoff.map((p, k) => p / e.eq[k])), "payoff ratio");
    close(r.rationality_ratio, mean(e.payoff) / mean(e.eq), "rationality ratio");
    close(r.mean_deviation, mean(e.payoff.map((p, k) => Math.abs(p / e.eq[k] - 1))), "deviation");
    close(r.win_rate, mean(e.won), "win rate");
  }
  // Spelt out for the smallest scale: bids 50, 49.5, 75.13…, 50, 49.5 (values 50, 66, 59, 50, 66): random wins and
  // pays 50, 100 + 59 − 50 = 109; bidding values, a 66 would win at 66 and gain nothing, so ρ* = 100 for all.
  const random = rows.find((r) => r.scale === "L" && r.agent === "random")!;
  assert.deepEqual([random.mean_payoff, random.payoff_ratio, random.win_rate], [109, 1.09, 1]);
  // Each scale's mean payoff is on its own assets (100, 1,000, 10,000): pooled, the rational bidders' mean would be
  // (100 + 1,036.5 + 10,000) / 3 ≈ 3,712, a number no auction here is near.
  const rational = ["L", "M", "H"].map((s) => rows.find((r) => r.scale === s && r.agent === "rational")!.mean_payoff);
  assert.deepEqual(rational, [100, 1036.5, 10000]);
});
