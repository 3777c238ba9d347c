// NegotiationArena's three scenarios against the ground truth of NegotiationArena (Bianchi et al. 2024):
// the settlement example, backward induction in the ultimatum (§5.2), rational traders who never trade,
// rational buy/sell deals inside [cost, value], and the analyses (Spearman ρ by hand, the one-sided
// binomial test, split the difference). The SQL analyses run in native DuckDB: test/integration/negotiationarenaSql.test.ts.
import {test} from "node:test";
import assert from "node:assert/strict";
import {deriveRng} from "../../src/lib/rng.js";
import {gameDef} from "../../loaders/registry/games.js";
import {agentDef} from "../../loaders/registry/agents.js";
import {playGame} from "../../loaders/runner/gameLoop.js";
import {ultimatumEquilibrium} from "../../loaders/papers/negotiationarena/ultimatum.js";
import {anchoring, averageRanks, badCounterOffers, binomialUpperTail, spearman, splitTheDifference} from "../../src/lib/negotiationArena.js";
import type {Params} from "../../loaders/contract/game.js";
import type {ArenaView} from "../../loaders/papers/negotiationarena/protocol.js";
import {inSequence} from "../../loaders/runner/chance.js";

const RE = "negotiationarena/resource_exchange";
const UG = "negotiationarena/ultimatum";
const BS = "negotiationarena/buy_sell";

async function play(game: string, [a, b]: [string, string], params: Params = {}, seed = 1) {
  const def = gameDef(game);
  const agents = [a, b].map((id, seat) => agentDef(id).create({game, gameId: `g${seed}`, seat, seatName: def.seats.names![seat], nSeats: 2, params}));
  return playGame(def, params, `g${seed}`, agents, {seed});
}

test("settlement (spec example): RED gives X: 10 for BLUE's Y: 3 → RED 15 X, 8 Y, payoff −7; BLUE 15 X, 22 Y, payoff +7; BLUE wins", () => {
  const state = gameDef(RE).start({}, {gameId: "s", nSeats: 2, chance: inSequence(deriveRng(0, "s"))});
  state.apply([{type: "PROPOSAL", red_X: 10, blue_Y: 3, message: "a deal?"}]);
  assert.deepEqual((state.observe(1).view as ArenaView).standing, {red: {X: 10}, blue: {Y: 3}}, "BLUE sees RED's trade on the table");
  state.apply([{type: "ACCEPT"}]);
  assert.equal(state.next().kind, "terminal");
  const r = state.result();
  assert.deepEqual(JSON.parse(r.game.p1_final_resources as string), {X: 15, Y: 8});
  assert.deepEqual(JSON.parse(r.game.p2_final_resources as string), {X: 15, Y: 22});
  assert.deepEqual(r.returns, [-7, 7]);
  assert.deepEqual([r.ended_by, r.game.winner, r.game.agreement], ["accepted", "p2", true]);
});

test("the protocol's rules: ACCEPT needs a standing proposal, the proposal budget is iterations // 2 − 1, nobody gives what it lacks", () => {
  const state = gameDef(RE).start({}, {gameId: "p", nSeats: 2, chance: inSequence(deriveRng(0, "p"))});
  assert.equal(state.validate(0, {type: "ACCEPT"}), "ACCEPT with nothing on the table: Player BLUE has no proposal standing");
  assert.equal(state.validate(0, {type: "PROPOSAL", red_X: 26}), "proposal over budget: Player RED cannot give X: 26, it holds 25");
  assert.equal(state.validate(0, {type: "PROPOSAL", red_Z: 1}), "Player RED cannot give Z in this game (it holds none to trade)");
  assert.match(state.validate(0, {type: "PROPOSAL", red_X: 1.5}) ?? "", /red_X: expected a whole number/);
  assert.equal(state.validate(1, {type: "NONE"}), "Player RED moves now, not Player BLUE");
  for (let k = 0; k < 3; k++) {
    state.apply([{type: "PROPOSAL", red_X: 1, blue_Y: 1}]);
    state.apply([{type: "PROPOSAL", red_X: 1, blue_Y: 1}]);
  }
  assert.deepEqual(state.legal(0).map((s) => s.type), ["ACCEPT", "NONE"], "after 3 proposals of 8 turns: only ACCEPT or NONE");
  assert.match(state.validate(0, {type: "PROPOSAL", red_X: 1}) ?? "", /^proposal limit reached: Player RED has made 3 of 3 proposals/);
  // The extended variant: BLUE also holds Z and W.
  const extended = gameDef(RE).start({blue_z: 10, blue_w: 7}, {gameId: "e", nSeats: 2, chance: inSequence(deriveRng(0, "e"))});
  assert.deepEqual((extended.observe(1).view as ArenaView).resources, {X: 5, Y: 25, Z: 10, W: 7});
  // The ultimatum's last mover may only accept or reject.
  const ug = gameDef(UG).start({}, {gameId: "u", nSeats: 2, chance: inSequence(deriveRng(0, "u"))});
  for (let t = 1; t < 8; t++) ug.apply([{type: "PROPOSAL", red_Dollars: 50}]);
  assert.deepEqual(ug.legal(1).map((s) => s.type), ["ACCEPT", "REJECT"]);
  ug.apply([{type: "REJECT"}]);
  assert.deepEqual([ug.result().returns, ug.result().ended_by, ug.result().game.winner], [[0, 0], "rejected", "tie"]);
});

test("ultimatum by backward induction: (99, 1) with 8 turns, (1, 99) with an odd number, (9, 1) classical, (1, 9) in 3 turns", async () => {
  const cases: [Params, [number, number]][] = [
    [{}, [99, 1]],
    [{iterations: 6}, [99, 1]],
    [{iterations: 7}, [1, 99]],
    [{iterations: 5}, [1, 99]],
    [{iterations: 2, stake: 10}, [9, 1]],
    [{iterations: 3, stake: 10}, [1, 9]],
    [{stake: 1e10}, [1e10 - 1, 1]],
  ];
  for (const [params, expected] of cases) {
    const {result} = await play(UG, ["rational", "rational"], params);
    assert.deepEqual(result.returns, expected, JSON.stringify(params));
    assert.deepEqual(ultimatumEquilibrium((params.iterations as number) ?? 8, (params.stake as number) ?? 100), expected);
    assert.equal(result.ended_by, "accepted");
  }
});

test("the acceptance test's injected offer (§5.2) is the proposer's turn in the transcript: seats alternate, the offer on that row", async () => {
  // 3 turns over 10 (the acceptance run's): RED moves on turn 1, the game proposes for BLUE on turn 2 that RED, the
  // decider, gets 4 (RED gives BLUE 6), and RED decides on turn 3. Without the game's row RED would seem to move twice.
  const {result, turns} = await play(UG, ["rational", "rational"], {iterations: 3, stake: 10, injected_offer: 4});
  assert.deepEqual(turns.map((t) => [t.turn, t.round, t.seat, t.action]), [[0, 1, 0, "PROPOSAL"], [1, 2, 1, "PROPOSAL"], [2, 3, 0, "ACCEPT"]]);
  const injected = turns[1];
  assert.deepEqual([injected.made_by_game, injected.offer, injected.trade, injected.rule_break], [true, 6, JSON.stringify({RED: {Dollars: 6}, BLUE: {}}), false]);
  assert.ok(turns.filter((t) => t !== injected).every((t) => t.made_by_game === undefined));
  assert.deepEqual(result.returns, [4, 6]);
  // Played without an injected offer, no row says the game made it.
  const played = await play(UG, ["rational", "rational"], {iterations: 3, stake: 10});
  assert.ok(played.turns.every((t) => t.made_by_game === undefined));
});

test("two rational resource traders never trade: every game a tie (0, 0), which the win rate leaves out", async () => {
  for (const params of [{}, {blue_z: 10, blue_w: 7}] as Params[]) {
    for (let seed = 1; seed <= 5; seed++) {
      const {result} = await play(RE, ["rational", "rational"], params, seed);
      assert.deepEqual([result.game.agreement, result.returns, result.game.winner, result.ended_by], [false, [0, 0], "tie", "turns"]);
    }
  }
  // A rational trader never accepts a losing trade: against random play it never loses.
  for (let seed = 1; seed <= 30; seed++) {
    const {result} = await play(RE, ["random", "rational"], {}, seed);
    assert.ok(result.returns[1] >= 0, `seed ${seed}: ${result.returns}`);
  }
});

test("rational buy/sell deals land in [cost, value] ([40, 60] by default) with payoffs summing to value − cost (20)", async () => {
  let deals = 0;
  for (let seed = 1; seed <= 40; seed++) {
    for (const params of [{}, {valuation_spread: 20}, {denomination: 10}] as Params[]) {
      const {result} = await play(BS, ["rational", "rational"], params, seed);
      const g = result.game as Record<string, number>;
      assert.equal(result.game.agreement, true);
      deals++;
      assert.ok(g.price >= g.seller_cost && g.price <= g.buyer_value, `price ${g.price} outside [${g.seller_cost}, ${g.buyer_value}]`);
      assert.equal(result.returns[0] + result.returns[1], g.buyer_value - g.seller_cost);
      if (!Object.keys(params).length) {
        assert.ok(g.price >= 40 && g.price <= 60);
        assert.equal(result.returns[0] + result.returns[1], 20);
      }
      if ("valuation_spread" in params) assert.ok(g.seller_cost >= 20 && g.seller_cost <= 40 && g.buyer_value >= 60 && g.buyer_value <= 80);
    }
  }
  assert.equal(deals, 120);
  // Contrasting objectives (cost 60, value 40): no price is rational for both, so rational players never deal.
  const {result} = await play(BS, ["rational", "rational"], {seller_cost: 60, buyer_value: 40});
  assert.deepEqual([result.game.agreement, result.returns], [false, [0, 0]]);
});

test("anchoring: Spearman ρ with average ranks for ties, computed by hand (scipy.stats.spearmanr gives 0.7631578947368421)", () => {
  const x = [1, 2, 2, 3, 5];
  const y = [2, 1, 4, 4, 6];
  assert.deepEqual(averageRanks(x), [1, 2.5, 2.5, 4, 5]);
  assert.deepEqual(averageRanks(y), [2, 1, 3.5, 3.5, 5]);
  // Ranks centred on their mean 3: dx = (−2, −0.5, −0.5, 1, 2), dy = (−1, −2, 0.5, 0.5, 2);
  // Σdx·dy = 2 + 1 − 0.25 + 0.5 + 4 = 7.25, Σdx² = Σdy² = 9.5, so ρ = 7.25 / 9.5.
  const rho = 7.25 / 9.5;
  const result = anchoring(x.map((p1, i) => ({p1, final_price: y[i]})));
  assert.ok(Math.abs(result.r! - rho) < 1e-15);
  assert.ok(Math.abs(result.r! - 0.7631578947368421) < 1e-15);
  // 95% interval: tanh(atanh ρ ± 1.959963984540054 · √(1.06 / (n − 3))).
  const se = Math.sqrt(1.06 / 2);
  assert.ok(Math.abs(result.low! - Math.tanh(Math.atanh(rho) - 1.959963984540054 * se)) < 1e-12);
  assert.ok(Math.abs(result.high! - Math.tanh(Math.atanh(rho) + 1.959963984540054 * se)) < 1e-12);
  // Games without a deal are left out; a perfectly monotone relation is ρ = 1.
  assert.equal(anchoring([{p1: 1, final_price: null}, ...[1, 2, 3, 4].map((p) => ({p1: p, final_price: p * p}))]).r, 1);
  assert.equal(spearman([1, 2, 3], [3, 2, 1]).r, -1);
});

test("bad counter-offers: the one-sided binomial test (exact tails by hand; scipy's binomtest for 41/100 against 0.11)", () => {
  assert.ok(Math.abs(binomialUpperTail(2, 3, 0.5) - 0.5) < 1e-15); // P(X ≥ 2) = (3 + 1) / 8
  assert.ok(Math.abs(binomialUpperTail(3, 3, 0.5) - 0.125) < 1e-15);
  assert.ok(Math.abs(binomialUpperTail(1, 4, 0.1) - (1 - 0.9 ** 4)) < 1e-15);
  const games = [...Array(41).fill({p1: 50, p2: 70}), ...Array(59).fill({p1: 50, p2: 30}), {p1: 50, p2: null}];
  const r = badCounterOffers(games, 0.11);
  assert.deepEqual([r.n, r.bad, r.rate], [100, 41, 0.41]);
  assert.ok(Math.abs(r.p_value! - 1.2495157706022893e-14) / 1.2495157706022893e-14 < 1e-6, String(r.p_value));
});

test("split the difference: two split-the-difference players propose the midpoints, rounded to whole ZUP", async () => {
  const {turns} = await play(BS, ["split-difference", "split-difference"]);
  const prices = turns.filter((t) => t.action === "PROPOSAL").map((t) => t.price as number);
  assert.deepEqual(prices, [80, 30, 55, 43, 49, 46, 48]);
  const r = splitTheDifference([prices]);
  assert.deepEqual(r.points.map((p) => [p.midpoint, p.next]), [[55, 55], [42.5, 43], [49, 49], [46, 46], [47.5, 48]]);
  assert.ok(r.r! > 0.99);
});
