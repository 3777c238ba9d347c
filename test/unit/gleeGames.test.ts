// GLEE game engine: closed forms (GLEE (Shapira et al. 2024) §2, Appendix C), grid sizes, legality, determinism.
import {test} from "node:test";
import assert from "node:assert/strict";
import {bargaining} from "../../loaders/papers/glee/bargaining.js";
import {negotiation} from "../../loaders/papers/glee/negotiation.js";
import {persuasion} from "../../loaders/papers/glee/persuasion.js";
import {agentDef} from "../../loaders/registry/agents.js";
import {backwardInductionShares, stationaryShare} from "../../loaders/papers/glee/rubinstein.js";
import {commitmentPurchaseRate, commitmentQ} from "../../loaders/papers/glee/persuasionAgents.js";
import {parseRunConfig, ConfigError} from "../../loaders/runner/runConfig.js";
import {expandGrid, countGames} from "../../loaders/runner/grid.js";
import {playGame} from "../../loaders/runner/gameLoop.js";
import {gleeRules, gleeUpdate} from "../../loaders/papers/glee/narrator.js";
import {gameDef} from "../../loaders/registry/games.js";
import {runTournament} from "../../loaders/runner/tournament.js";
import type {BargainingParams, BargainingView, Family, GleeView, NegotiationParams, NegotiationView, PersuasionParams, PersuasionView, Player} from "../../loaders/papers/glee/types.js";
import {PLAYERS} from "../../loaders/papers/glee/types.js";
import type {Agent} from "../../loaders/contract/agent.js";
import type {Action, GameDef, GameObservation, Params} from "../../loaders/contract/game.js";
import type {Rng} from "../../src/lib/rng.js";
import type {GleeState} from "../../loaders/papers/glee/gleeState.js";
import {inSequence} from "../../loaders/runner/chance.js";

const seat = (id: string, family: Family, player: Player, gameId = "g"): Agent =>
  agentDef(id).create({game: `glee/${family}`, gameId, seat: PLAYERS.indexOf(player), seatName: player, nSeats: 2, params: {}});
const pair = (a: string, b: string, family: Family) => ({alice: seat(a, family, "alice"), bob: seat(b, family, "bob")});

/** A GLEE game driven move by move: actions and observations are those of the player to move unless a player is named. */
function open<P extends Params, V extends GleeView>(def: GameDef<P>, params: P, gameId: string, rng: Rng) {
  const state = def.start(params, {gameId, nSeats: 2, chance: inSequence(rng)}) as GleeState;
  const mover = () => (state.currentPlayer() === "bob" ? 1 : 0);
  return {
    apply: (action: object) => state.apply([action as Action]),
    validate: (action: unknown) => state.validate(mover(), action),
    observe: (player?: Player) => state.observe(player ? PLAYERS.indexOf(player) : mover()) as GameObservation<V>,
    isTerminal: () => state.isTerminal(),
    outcome: () => state.outcome(),
  };
}
const gridOf = (def: GameDef, name: string) => def.params.find((p) => p.name === name)!.grid as number[];

/** Plays one GLEE game through the generic runner; returns the family-style outcome and the turns. */
async function playGlee(family: Family, params: Params, gameId: string, agents: {alice: Agent; bob: Agent}, options: {seed: number; maxAttempts?: number}) {
  const {result, turns} = await playGame(gameDef(`glee/${family}`), params, gameId, [agents.alice, agents.bob], options);
  return {outcome: {...result.game, rounds: result.rounds, ended_by: result.ended_by} as Record<string, unknown> & {rounds: number; ended_by: string; agreement?: boolean; alice_share?: number; alice_utility?: number; price?: number}, turns};
}

const bargain = (over: Partial<BargainingParams>): BargainingParams => ({
  delta_a: 0.9, delta_b: 0.8, money: 10000, horizon: "inf", complete_information: true, messages: false, ...over,
});

test("grid sizes follow Table 1: 384 / 576 / 360", () => {
  const config = parseRunConfig({family: "all", grid: "full", players: ["random"], pairs: "self"});
  assert.deepEqual(config.games.map((g) => [g.def.id, expandGrid(g.grid).length]), [["glee/bargaining", 384], ["glee/negotiation", 576], ["glee/persuasion", 360]]);
  assert.equal(countGames(config), 1320);
});

test("rubinstein vs rubinstein, T = ∞: agreement in round 1 on (1−δ_B)/(1−δ_Aδ_B), to 1e-9", async () => {
  const deltas = gridOf(bargaining as GameDef, "delta_a");
  for (const da of deltas)
    for (const db of deltas)
      for (const complete_information of [true]) {
        const params = bargain({delta_a: da, delta_b: db, complete_information});
        const {outcome} = await playGlee("bargaining", params, "r", pair("rubinstein", "rubinstein", "bargaining"), {seed: 1});
        const expected = da === 1 && db === 1 ? 0.5 : (1 - db) / (1 - da * db);
        assert.equal(outcome.rounds, 1, `δ_A=${da} δ_B=${db}`);
        assert.equal(outcome.agreement, true);
        assert.ok(Math.abs(outcome.alice_share! - expected) < 1e-9, `δ_A=${da} δ_B=${db}: ${outcome.alice_share} vs ${expected}`);
      }
  assert.ok(Math.abs(stationaryShare(0.9, 0.8) - 0.2 / 0.28) < 1e-12);
});

test("rubinstein, finite T = 1, 2, 3: backward induction worked by hand", async () => {
  // δ_A = 0.9, δ_B = 0.8.
  // T = 1: Alice proposes last and keeps everything; Bob accepts 0 (rejecting gives 0).
  // T = 2: Bob would keep all in round 2, worth δ_B·1 = 0.8 to him now, so Alice offers him 0.8 and keeps 0.2.
  // T = 3: Alice keeps 1 in round 3; in round 2 Bob must offer her δ_A·1 = 0.9 and keeps 0.1;
  //        in round 1 Alice offers Bob δ_B·0.1 = 0.08 and keeps 0.92.
  const hand: Record<number, number> = {1: 1, 2: 0.2, 3: 0.92};
  for (const T of [1, 2, 3]) {
    assert.ok(Math.abs(backwardInductionShares(T, 0.9, 0.8)[1] - hand[T]) < 1e-12, `shares T=${T}`);
    const {outcome} = await playGlee("bargaining", bargain({horizon: T}), `t${T}`, pair("rubinstein", "rubinstein", "bargaining"), {seed: 1});
    assert.equal(outcome.rounds, 1);
    assert.ok(Math.abs(outcome.alice_share! - hand[T]) < 1e-9, `T=${T}: ${outcome.alice_share}`);
    assert.ok(Math.abs(outcome.alice_utility! - 10000 * hand[T]) < 1e-6);
  }
  // Round 2 of T = 3 seen from Bob as proposer: keeps 1 − δ_A = 0.1.
  assert.ok(Math.abs(backwardInductionShares(3, 0.9, 0.8)[2] - 0.1) < 1e-12);
});

test("bargaining utilities are discounted by δ^(t−1) and no deal gives (0, 0)", async () => {
  const g = open<BargainingParams, BargainingView>(bargaining, bargain({horizon: 2}), "u", {next: () => 0, int: () => 0, bernoulli: () => false, pick: (x) => x[0]});
  g.apply({type: "offer", alice_gain: 9000, bob_gain: 1000});
  g.apply({type: "decision", decision: "reject"});
  g.apply({type: "offer", alice_gain: 4000, bob_gain: 6000});
  g.apply({type: "decision", decision: "accept"});
  const o = g.outcome();
  assert.deepEqual([o.rounds, o.alice_share, o.ended_by], [2, 0.4, "agreement"]);
  assert.ok(Math.abs(o.alice_utility! - 4000 * 0.9) < 1e-9 && Math.abs(o.bob_utility! - 6000 * 0.8) < 1e-9);
  const h = open<BargainingParams, BargainingView>(bargaining, bargain({horizon: 1}), "v", {next: () => 0, int: () => 0, bernoulli: () => false, pick: (x) => x[0]});
  h.apply({type: "offer", alice_gain: 9000, bob_gain: 1000});
  h.apply({type: "decision", decision: "reject"});
  assert.equal(h.isTerminal(), true);
  assert.deepEqual([h.outcome().agreement, h.outcome().alice_utility, h.outcome().ended_by], [false, 0, "horizon"]);
});

test("an offer that misses M within the rounding allowed is stored with gains that agree with the utilities (Bob's gain is what Alice's leaves); exact offers are stored as made", () => {
  const rng = {next: () => 0, int: () => 0, bernoulli: () => false, pick: <T>(x: readonly T[]) => x[0]};
  const M = 10000;
  // Over M by 0.009 (within 1e-6·M): legal, as before.
  const over = open<BargainingParams, BargainingView>(bargaining, bargain({}), "over", rng);
  assert.equal(over.validate({type: "offer", alice_gain: 6000.005, bob_gain: 4000.004}), null);
  over.apply({type: "offer", alice_gain: 6000.005, bob_gain: 4000.004});
  over.apply({type: "decision", decision: "accept"});
  const o = over.outcome();
  assert.equal(o.alice_gain, 6000.005);
  assert.ok(Math.abs(o.bob_gain! - (M - 6000.005)) < 1e-9, `bob_gain ${o.bob_gain}`);
  assert.ok(Math.abs(o.alice_gain! + o.bob_gain! - M) < 1e-9, "the stored gains divide M");
  assert.ok(Math.abs(o.bob_utility! - o.bob_gain!) < 1e-9 && Math.abs(o.alice_utility! - o.alice_gain!) < 1e-9, "each utility is its stored gain (round 1)");
  // Under M by 0.001 in round 2: Bob's discounted utility is his stored gain, discounted.
  const under = open<BargainingParams, BargainingView>(bargaining, bargain({}), "under", rng);
  under.apply({type: "offer", alice_gain: 9000, bob_gain: 1000});
  under.apply({type: "decision", decision: "reject"});
  under.apply({type: "offer", alice_gain: 3333.333, bob_gain: 6666.666});
  under.apply({type: "decision", decision: "accept"});
  const u = under.outcome();
  assert.ok(Math.abs(u.bob_utility! - u.bob_gain! * 0.8) < 1e-9, `${u.bob_utility} vs ${u.bob_gain} · 0.8`);
  // An offer whose sum is M up to floating-point rounding (as the built-in agents make them: M − x and x) is stored exactly as made.
  const x = 1234.5678;
  const exact = open<BargainingParams, BargainingView>(bargaining, bargain({}), "exact", rng);
  exact.apply({type: "offer", alice_gain: M - x, bob_gain: x});
  exact.apply({type: "decision", decision: "accept"});
  assert.deepEqual([exact.outcome().alice_gain, exact.outcome().bob_gain], [M - x, x]);
});

test("validate names the field of an illegal action; the runner records rule breaks and re-asks", async () => {
  const g = open<BargainingParams, BargainingView>(bargaining, bargain({}), "x", {next: () => 0, int: () => 0, bernoulli: () => false, pick: (x) => x[0]});
  assert.match(g.validate({type: "offer", alice_gain: 6000, bob_gain: 5000})!, /alice_gain \+ bob_gain must equal 10000/);
  assert.match(g.validate({type: "offer", alice_gain: -1, bob_gain: 10001})!, /alice_gain: -1 is below the minimum 0/);
  assert.match(g.validate({type: "offer", alice_gain: 5000, bob_gain: 5000, message: "hi"})!, /message: no text may be sent/);
  assert.match(g.validate({type: "decision", decision: "accept"})!, /action type "decision" is not allowed now/);
  assert.equal(g.validate({type: "offer", alice_gain: 5000, bob_gain: 5000}), null);
  let calls = 0;
  const clumsy: Agent = {
    act: async () => (++calls === 1 ? {action: {type: "offer", alice_gain: 1, bob_gain: 1}, raw: "{bad}"} : {action: {type: "offer", alice_gain: 5000, bob_gain: 5000}}),
  };
  const {turns, outcome} = await playGlee("bargaining", bargain({}), "y", {alice: clumsy, bob: seat("fair", "bargaining", "bob")}, {seed: 1});
  assert.equal(turns[0].rule_break, true);
  assert.match(String(turns[0].rule_break_reason), /must equal 10000/);
  assert.deepEqual([turns[0].attempt, turns[1].attempt, turns[1].rule_break, turns[0].raw], [1, 2, false, "{bad}"]);
  assert.equal(outcome.alice_share, 0.5);
  const stubborn: Agent = {act: () => ({action: "nonsense"})};
  const aborted = await playGlee("bargaining", bargain({}), "z", {alice: stubborn, bob: seat("fair", "bargaining", "bob")}, {seed: 1, maxAttempts: 2});
  assert.deepEqual([aborted.outcome.ended_by, aborted.outcome.agreement, aborted.turns.length], ["rule_break", false, 2]);
});

test("observations hide what the information structure hides, and GLEE's narrator writes the D.2 framing from them", () => {
  const g = open<BargainingParams, BargainingView>(bargaining, bargain({complete_information: false, messages: true}), "o", {next: () => 0, int: () => 0, bernoulli: () => false, pick: (x) => x[0]});
  const a = g.observe();
  assert.equal(a.view.delta_other, null);
  assert.equal((a.view as {horizon: number | null}).horizon, null);
  assert.ok(!("rules" in JSON.parse(JSON.stringify(a))), "games hold no prompt text");
  assert.match(gleeRules(a), /You are playing as Alice\.\nYou and Bob need to divide 10,000\$/);
  assert.match(gleeRules(a), /You don't know how the inflation effect on Bob\./);
  assert.doesNotMatch(gleeRules(a), /For Bob/);
  assert.doesNotMatch(gleeRules(a), /rounds to divide/);
  g.apply({type: "offer", alice_gain: 7000, bob_gain: 3000, message: "deal?"});
  const b = g.observe();
  assert.match(gleeUpdate(b, null), /Alice's message: deal\?/);
  assert.match(gleeUpdate(b, null), /\n# Bob gain: 3000 \n# Alice gain: 7000 \nDo you accept this offer\?$/);
  assert.deepEqual(JSON.parse(JSON.stringify(b)).view.history.length, 1);

  const n = open<NegotiationParams, NegotiationView>(negotiation, {factor_a: 1, factor_b: 1.2, money: 100, horizon: 10, complete_information: false, messages: false}, "n", {next: () => 0, int: () => 0, bernoulli: () => false, pick: (x) => x[0]});
  assert.deepEqual([n.observe().view.value_self, n.observe().view.value_other, n.observe().view.role], [100, null, "seller"]);

  const pp: PersuasionParams = {prior: 0.5, value_high: 2, money: 100, horizon: 20, complete_information: false, message_type: "binary", buyer_type: "myopic"};
  const p = open<PersuasionParams, PersuasionView>(persuasion, pp, "p", {next: () => 0.1, int: () => 0, bernoulli: (q) => 0.1 < q, pick: (x) => x[0]});
  assert.deepEqual([p.observe().view.quality, p.observe().view.value_high], ["high", null]);
  p.apply({type: "message", claim: "high"});
  const bob = p.observe();
  assert.deepEqual([bob.view.quality, bob.view.value_high, bob.view.signal?.claim], [null, 2, "high"]);
  p.apply({type: "decision", decision: "accept"});
  p.apply({type: "message", claim: "low"});
  const myopic = p.observe();
  assert.deepEqual([myopic.view.history.length, myopic.view.past.length, myopic.view.stats.rounds, myopic.view.stats.bought_share], [0, 0, 1, 1]);
  // GLEE's code (persuasion.py generate_buyer_text): a myopic buyer is told the past sales, not the rounds themselves.
  assert.equal(gleeUpdate(myopic, bob), "Statistics: Based on Alice's recommendations, 1 of the buyers purchased the products offered for them. So far, 1 high-quality product have been sold. You can be the 2nd buyer!\n~\nAlice does not recommend you to buy the product.\n\nWould you like to buy the current product?");
});

test("negotiation: rational vs rational trades efficiently with complete information", async () => {
  const base: NegotiationParams = {factor_a: 1, factor_b: 1.5, money: 100, horizon: 1, complete_information: true, messages: false};
  // T = 1: Alice proposes last, so she asks V_B = 150 and Bob accepts.
  let r = await playGlee("negotiation", base, "n1", pair("rational", "rational", "negotiation"), {seed: 1});
  assert.deepEqual([r.outcome.agreement, r.outcome.price, r.outcome.rounds], [true, 150, 1]);
  // T = 10: Bob proposes last, so the price is V_A = 100, agreed in round 1.
  r = await playGlee("negotiation", {...base, horizon: 10}, "n2", pair("rational", "rational", "negotiation"), {seed: 1});
  assert.deepEqual([r.outcome.agreement, r.outcome.price], [true, 100]);
  // V_A > V_B: no trade.
  r = await playGlee("negotiation", {...base, factor_a: 1.5, factor_b: 1, horizon: "inf"}, "n3", pair("rational", "rational", "negotiation"), {seed: 1});
  assert.deepEqual([r.outcome.agreement, r.outcome.ended_by, r.outcome.rounds], [false, "horizon", 30]);
});

test("commitment policy: q = min(p(v−1)/(1−p), 1) and an obedient buyer buys at rate p + (1−p)q", async () => {
  assert.ok(Math.abs(commitmentQ(1 / 3, 1.2) - 0.1) < 1e-12);
  assert.equal(commitmentQ(0.5, 3), 1);
  assert.ok(Math.abs(commitmentQ(0.5, 1.25) - 0.25) < 1e-12);
  const p = 0.5, v = 1.25; // rate = 0.5 + 0.5·0.25 = 0.625
  const config = parseRunConfig({
    family: "persuasion",
    grid: {prior: [p], value_high: [v], money: [100], complete_information: [true], message_type: ["binary"], buyer_type: ["long_living"]},
    pairs: [["commitment", "credulous"]], games_per_pair: 200, seed: 7,
  });
  let sales = 0, rounds = 0, lowHigh = 0, lows = 0;
  await runTournament(config, {onGame: ({row: g}) => {
    sales += g.sales as number;
    rounds += g.rounds as number;
    const high = g.high_quality as boolean[], bought = g.purchased as boolean[];
    high.forEach((h, i) => { if (!h) { lows++; if (bought[i]) lowHigh++; } });
  }});
  const rate = sales / rounds, expected = commitmentPurchaseRate(p, v);
  assert.equal(expected, 0.625);
  const se = Math.sqrt((expected * (1 - expected)) / rounds);
  assert.ok(Math.abs(rate - expected) < 4 * se, `purchase rate ${rate} vs ${expected} ± ${4 * se}`);
  assert.ok(Math.abs(lowHigh / lows - 0.25) < 0.05, `lies on low quality ${lowHigh / lows}`);
});

test("config errors name the bad key", () => {
  const bad = (raw: unknown, pattern: RegExp) => assert.throws(() => parseRunConfig(raw), (e: Error) => e instanceof ConfigError && pattern.test(e.message));
  bad({family: "bargaining", grid: {delta_a: [0.9, 2]}}, /^grid\.delta_a\[1\]: expected a number in \(0, 1\]/);
  bad({family: "bargaining", grid: {delta: [0.9]}}, /^grid\.delta: unknown glee\/bargaining parameter/);
  bad({family: "chess"}, /^family: expected one of/);
  bad({family: "negotiation", players: ["rubinstein", "nobody"]}, /^players\[1\]: unknown agent "nobody"/);
  bad({family: "persuasion", grid: {horizon: ["inf"]}}, /^grid\.horizon\[0\]: expected a positive integer/);
  bad({family: "bargaining", games_per_pair: 0}, /^games_per_pair: expected an integer ≥ 1/);
  bad({family: "bargaining", colour: "red"}, /^colour: unknown key/);
  bad({family: "bargaining", pairs: [["rubinstein"]]}, /^pairs\[0\]: expected \[alice_agent, bob_agent\]/);
});

test("runs are deterministic for a seed", async () => {
  const config = parseRunConfig({family: "all", grid: "full", players: ["random", "babbling", "bayesian"], seed: 3});
  const collect = async () => {
    const rows: string[] = [];
    await runTournament({...config, games: config.games.map((g) => ({...g, grid: {...g.grid, money: [100]}}))}, {onGame: (record) => void rows.push(JSON.stringify(record))});
    return rows;
  };
  const [a, b] = [await collect(), await collect()];
  assert.equal(a.length, 128 + 192 + 120 * 4); // random plays all; persuasion seats {random, babbling} × {random, bayesian}
  assert.deepEqual(a, b);
});
