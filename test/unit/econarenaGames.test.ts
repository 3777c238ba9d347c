// The Economics Arena games (Economics Arena (Guo et al. 2024) §3.1,
// Appendix A.1–A.2) against the worked examples of the paper and of hand
// calculation: the beauty contest's ties and the L58 example, the auction's
// asset example (100, 60, 50 → 1.1), ties to the lowest id, bids over assets
// as rule breaks, truthful bidding at exactly the equilibrium asset, and the
// first-price BNE against its closed form for two bidders.
import {test} from "node:test";
import assert from "node:assert/strict";
import type {Params} from "../../loaders/contract/game.js";
import type {Agent} from "../../loaders/contract/agent.js";
import {agentDef} from "../../loaders/registry/agents.js";
import {auction, beautyContest} from "../../loaders/papers/econarena/games.js";
import {auctionAssets, clockOutcome, clockStep, sealedOutcome} from "../../loaders/papers/econarena/auction.js";
import {beautyRun} from "../../loaders/papers/econarena/beautyContest.js";
import type {AuctionView, BeautyView} from "../../loaders/papers/econarena/views.js";
import {playGame, type TurnRow} from "../../loaders/runner/gameLoop.js";
import {parseRunConfig} from "../../loaders/runner/runConfig.js";
import {lineups} from "../../loaders/runner/grid.js";
import {firstPriceBid, normalCdf} from "../../src/lib/auctionEquilibria.js";
import {deriveRng} from "../../src/lib/rng.js";
import {inSequence} from "../../loaders/runner/chance.js";

const close = (actual: number, expected: number, what: string, eps = 1e-9) => assert.ok(Math.abs(actual - expected) <= eps, `${what}: expected ${expected}, got ${actual}`);

/** Agents from the registry, one per seat, as the runner seats them. */
function seat(ids: string[], game: string, params: Params = {}): Agent[] {
  return ids.map((id, s) => agentDef(id).create({game, gameId: "g", seat: s, seatName: null, nSeats: ids.length, params}));
}

/** An agent that always answers `action` (a model that keeps breaking a rule). */
const fixed = (action: unknown): Agent => ({act: () => ({action})});

/** The settled row (one per seat and run) of each seat in run `run`. */
const settled = (turns: TurnRow[], run = 1) => turns.filter((t) => t.run === run && t.payoff !== undefined).sort((a, b) => a.seat - b.seat);

test("beauty contest: five rational players tie at 0 and get 0.2 each", async () => {
  assert.deepEqual(beautyRun([0, 0, 0, 0, 0], 1, 0), {target: 0, winners: [0, 1, 2, 3, 4], payoffs: [0.2, 0.2, 0.2, 0.2, 0.2]});
  const {turns, result} = await playGame(beautyContest, {}, "bc-rational", seat(Array(5).fill("rational"), beautyContest.id), {seed: 1});
  assert.deepEqual(settled(turns).map((t) => [t.strategy, t.payoff, t.eq_payoff, t.won]), Array(5).fill([0, 0.2, 0.2, true]));
  assert.deepEqual(result.returns, [0.2, 0.2, 0.2, 0.2, 0.2]);
});

test("beauty contest: a seat choosing a > 0 among four rational players gets 0, each of them 0.25 (target 2a/15)", async () => {
  for (const a of [1e-6, 0.5, 7, 33.3, 100]) {
    const run = beautyRun([a, 0, 0, 0, 0], 1, 0);
    close(run.target!, (2 * a) / 15, `target for a = ${a}`);
    assert.deepEqual(run.payoffs, [0, 0.25, 0.25, 0.25, 0.25], `a = ${a}`);
  }
  // Through the runner: level-2 plays 100/2 · (2/3)² = 22.2 against four rational agents.
  const {turns} = await playGame(beautyContest, {environment: "rational"}, "bc-level2", seat(["level-2", "rational", "rational", "rational", "rational"], beautyContest.id), {seed: 1});
  const rows = settled(turns);
  close(rows[0].strategy as number, 50 * (4 / 9), "level-2's choice");
  assert.deepEqual(rows.map((t) => t.payoff), [0, 0.25, 0.25, 0.25, 0.25]);
});

test("beauty contest: in [0, 10], four players choosing 10 beat the rational 0 (§3.2's example): 0.25 each", () => {
  const run = beautyRun([10, 10, 10, 10, 0], 1, 0);
  close(run.target!, 16 / 3, "two thirds of the mean 8");
  assert.deepEqual(run.winners, [0, 1, 2, 3]);
  assert.deepEqual(run.payoffs, [0.25, 0.25, 0.25, 0.25, 0]);
});

test("beauty contest: an answer outside [0, c̄] is a rule break; the seat is left out, pays the fee, the others play on", async () => {
  const agents = [fixed({type: "choose", amount: 150}), ...seat(["rational", "rational", "rational", "rational"], beautyContest.id)];
  const {turns, result} = await playGame(beautyContest, {entrance_fee: 0.1}, "bc-break", agents, {seed: 1, maxAttempts: 2});
  const broken = turns.filter((t) => t.seat === 0);
  assert.deepEqual(broken.map((t) => [t.rule_break, t.attempt]), [[true, 1], [true, 2]]);
  assert.match(String(broken[0].rule_break_reason), /amount: 150 is above the maximum 100/);
  assert.equal(result.ended_by, "completed");
  // Four rational players tie at 0 among themselves; the forfeit pays the fee, recorded on its last attempt.
  assert.deepEqual(settled(turns).map((t) => [t.payoff, t.forfeited ?? false]), [[-0.1, true], [0.25, false], [0.25, false], [0.25, false], [0.25, false]]);
});

test("beauty contest: c̄ drawn from the L, M and H groups as whole numbers in [10, 100), [100, 1000), [1000, 10000)", () => {
  for (const [group, lo, hi] of [["L", 10, 100], ["M", 100, 1000], ["H", 1000, 10000]] as const) {
    for (let i = 0; i < 200; i++) {
      const state = beautyContest.start({bound_group: group}, {gameId: `g${i}`, nSeats: 5, chance: inSequence(deriveRng(i, group))});
      const c = (state.observe(0).view as BeautyView).upper_bound;
      assert.ok(Number.isInteger(c) && c >= lo && c < hi, `${group}: ${c}`);
    }
  }
});

test("auction: the paper's asset example (assets 100, value 60, price 50) gives asset 110, assets ratio 1.1", () => {
  const {winner, price} = sealedOutcome([60, 50, 20], "second");
  assert.deepEqual([winner, price], [0, 50]);
  const assets = auctionAssets([60, 55, 30], 100, winner, price, [false, false, false], 0.1);
  assert.deepEqual(assets, [110, 100, 100]);
  close(assets[0] / 100, 1.1, "asset after / initial asset");
  // A.2's payoff example: NE asset 100, actual 110 → 1.1.
  close(110 / 100, 1.1, "payoff");
});

test("auction: ties go to the lowest id (sealed bids and the English clock)", () => {
  assert.deepEqual(sealedOutcome([50, 70, 70, 10], "second"), {winner: 1, price: 70});
  assert.deepEqual(sealedOutcome([70, 70, 70], "first"), {winner: 0, price: 70});
  assert.deepEqual(sealedOutcome([null, 70, 70], "second"), {winner: 1, price: 70});
  // The last three all drop at 60: the lowest of them wins at the previous price.
  assert.deepEqual(clockStep([1, 3, 4], [], 60, 1), {winner: 1, price: 59});
  assert.deepEqual(clockOutcome([40, 59.5, 80, 59.5], 1).winner, 2);
  assert.deepEqual(clockOutcome([59, 59, 30], 1), {winner: 0, price: 59, stayed: [59, 59, 30]});
});

test("auction: a bid over assets is a rule break naming the assets", async () => {
  const state = auction.start({}, {gameId: "a", nSeats: 5, chance: inSequence(deriveRng(1, "a"))});
  assert.match(state.validate(0, {type: "bid", amount: 100.5})!, /bid 100.5 is higher than the assets 100/);
  assert.equal(state.validate(0, {type: "bid", amount: 100}), null);
  assert.match(state.validate(0, {type: "bid", amount: -1})!, /below the minimum 0/);
  const agents = [fixed({type: "bid", amount: 1000}), ...seat(["rational", "rational", "rational", "rational"], auction.id)];
  const {turns} = await playGame(auction, {}, "a-break", agents, {seed: 1, maxAttempts: 1});
  const row = turns.find((t) => t.seat === 0)!;
  assert.equal(row.rule_break, true);
  assert.match(String(row.rule_break_reason), /higher than the assets 100/);
  assert.equal(row.forfeited, true);
  assert.equal(row.payoff, 90, "the entrance fee, 10% of the assets");
});

test("auction: truthful bidding among rational bidders gives exactly the equilibrium asset (payoff ratio 1, deviation 0) in every format and scale", async () => {
  for (const pricing of ["second", "first", "english"]) {
    for (const scale of ["L", "M", "H"]) {
      for (let g = 0; g < 5; g++) {
        const params = {pricing, scale, runs: 2};
        const {turns, result} = await playGame(auction, params, `t-${pricing}-${scale}-${g}`, seat(Array(5).fill("rational"), auction.id, params), {seed: g});
        for (const run of [1, 2]) {
          const rows = settled(turns, run);
          assert.equal(rows.length, 5);
          for (const t of rows) assert.equal(t.payoff, t.eq_payoff, `${pricing} ${scale} seat ${t.seat}`);
          assert.equal(rows.filter((t) => t.won).length, 1);
        }
        assert.deepEqual(result.returns, [1, 1, 1, 1, 1]);
      }
    }
  }
});

test("auction: private values by scale, the same in every run of a session; the second-price winner gains s(1) − s(2)", async () => {
  const params = {scale: "M", runs: 3};
  const {turns} = await playGame(auction, params, "values", seat(Array(5).fill("rational"), auction.id, params), {seed: 4});
  const values = settled(turns, 1).map((t) => t.value as number);
  for (const run of [2, 3]) assert.deepEqual(settled(turns, run).map((t) => t.value), values);
  const sorted = [...values].sort((a, b) => b - a);
  const winner = settled(turns, 1).find((t) => t.won)!;
  assert.equal(winner.payoff, 1000 + sorted[0] - sorted[1]);
  for (const v of values) assert.ok(Number.isInteger(v) && v > 100 && v < 900, `value ${v} of N(500, 100)`);
});

test("first-price BNE: with two bidders it is E[X | X < v] = μ − σ·φ(z)/Φ(z); more bidders bid closer to v", () => {
  const phi = (z: number) => Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI);
  for (const v of [35, 50, 62.5, 80]) {
    const z = (v - 50) / 10;
    close(firstPriceBid(v, 2, 50, 10), 50 - (10 * phi(z)) / normalCdf(z), `v = ${v}`, 1e-4);
    assert.ok(firstPriceBid(v, 5, 50, 10) > firstPriceBid(v, 2, 50, 10) && firstPriceBid(v, 5, 50, 10) < v);
  }
  close(normalCdf(1.959963985), 0.975, "Φ(1.96)", 2e-7);
});

test("history: from run 2 on a seat sees the last ≤ 3 runs, oldest first, with everyone's values in auctions", async () => {
  const params = {runs: 6, history_window: 3};
  const seen: AuctionView[] = [];
  const spy: Agent = {act: (o) => (seen.push(o.view as AuctionView), {action: {type: "bid", amount: 10 * (o.view as AuctionView).run}})};
  await playGame(auction, params, "hist", [spy, ...seat(["rational", "rational", "rational", "rational"], auction.id, params)], {seed: 2});
  assert.deepEqual(seen.map((v) => v.history.map((r) => r.run)), [[], [1], [1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5]]);
  assert.deepEqual(seen[5].history.map((r) => r.bids[0]), [30, 40, 50]);
  assert.equal(seen[5].history[0].values.length, 5);
});

test("run config: lineups keyed by game give each game its own players, and errors name the game's key", () => {
  const base = {game: ["econarena/beauty_contest", "econarena/auction"], players: ["rational", "level-2", "shade-25"]};
  const config = parseRunConfig({...base, lineups: {"econarena/beauty_contest": [["level-2", "rational", "rational", "rational", "rational"]], "econarena/auction": [["shade-25", "rational", "rational", "rational", "rational"]]}});
  assert.deepEqual(config.games.map((spec) => lineups(config, spec)), [[["level-2", "rational", "rational", "rational", "rational"]], [["shade-25", "rational", "rational", "rational", "rational"]]]);
  assert.throws(() => parseRunConfig({...base, lineups: {"econarena/beauty_contest": [["shade-25", "rational", "rational", "rational", "rational"]]}}), /^Error: lineups\.econarena\/beauty_contest\[0\]\[0\]: agent "shade-25" cannot take seat 0 of econarena\/beauty_contest$/);
  assert.throws(() => parseRunConfig({...base, lineups: {"econarena/pd": "self"}}), /lineups\.econarena\/pd: not a game of this config/);
  // A game left out takes the default ("self": every listed player that plays it, in every seat).
  const partial = parseRunConfig({...base, lineups: {"econarena/auction": [["shade-25", "rational", "rational", "rational", "rational"]]}});
  assert.deepEqual(lineups(partial, partial.games[0]).map((l) => l[0]), ["rational", "level-2"]);
});
