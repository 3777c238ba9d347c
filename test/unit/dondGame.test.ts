// Deal or No Deal as a game (Game-theoretic LLM: Agent Workflow for
// Negotiation Games (Hua et al. 2024) §5): the "Best" row over the 44
// envy-free-feasible points of the 50 hard ones, per-point ground truth,
// Algorithm 1's deterministic belief update on hand-worked offers, the
// valuation-estimation metrics, the game's rules through the one play loop,
// and how an LLM's tagged replies are read (malformed ones are rule breaks).
import {test} from "node:test";
import assert from "node:assert/strict";
import {playGame} from "../../loaders/runner/gameLoop.js";
import {dond, hardPoints, loadPoints} from "../../loaders/papers/gtllm/dond/hardPoints.js";
import {dondAgents} from "../../loaders/papers/gtllm/dond/agents.js";
import type {Agent} from "../../loaders/contract/agent.js";
import type {Action, GameObservation} from "../../loaders/contract/game.js";
import type {DondView} from "../../loaders/papers/gtllm/dond/hardPoints.js";
import {dondNarrator, readOffers} from "../../loaders/papers/gtllm/dond/narrator.js";
import {bestAllocation, bestEnvyFreeSet, envyFree, paretoOptimal} from "../../src/lib/dondAllocation.js";
import {BeliefTracker, firstBelief, indistinguishable, planProposal, updateBelief, valuationEstimate, valuationKey, valuationSpace} from "../../src/lib/dondBelief.js";
import {mkdtempSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 5e-5, `${what}: expected ${b}, got ${a}`);

test("the Best row: EF ∧ PO ∧ max-total over the 44 envy-free-feasible points averages 5.8182 / 6.6591 / 12.4773", () => {
  const points = hardPoints();
  assert.equal(points.length, 50);
  const best = points.map((p) => bestAllocation(p.counts, p.values_a, p.values_b));
  assert.deepEqual(points.filter((_, i) => !best[i]).map((p) => p.id), [5, 6, 8, 12, 26, 47]);
  const feasible = best.filter((b) => b !== null);
  assert.equal(feasible.length, 44);
  const mean = (f: (b: NonNullable<(typeof best)[number]>) => number) => feasible.reduce((s, b) => s + f(b!), 0) / 44;
  close(mean((b) => b.score_a), 5.8182, "Alice");
  close(mean((b) => b.score_b), 6.6591, "Bob");
  close(mean((b) => b.total), 12.4773, "total");
  // Per-point rows of the ground-truth table: best Alice share, U_A/U_B, tied optima, |Ω|.
  const rows: [number, number[], number, number, number, number][] = [
    [0, [0, 1, 1], 5, 7, 2, 26], [1, [2, 1, 0], 6, 8, 2, 9], [2, [3, 0, 1], 6, 6, 1, 14], [14, [1, 0, 2], 5, 7, 2, 14],
    [27, [1, 0, 0], 8, 5, 1, 14], [30, [3, 0, 0], 6, 7, 3, 14], [35, [3, 0, 0], 9, 7, 2, 10], [44, [1, 1, 0], 6, 7, 1, 12],
  ];
  for (const [id, share, ua, ub, tied, omega] of rows) {
    const p = points[id];
    assert.deepEqual(best[id], {alloc_a: share, score_a: ua, score_b: ub, total: ua + ub, tied}, `point ${id}`);
    assert.equal(valuationSpace(p.counts).length, omega, `|Ω| of point ${id}`);
  }
});

test("envy freeness and Pareto optimality follow Def. 7 (≥) and Def. 8 over all allocations; the paper's tie example", () => {
  // Point 0: counts (1,1,3), v_A (1,3,2), v_B (1,0,3). Alice (0,1,1): 5 vs 5 (weakly envy free), Bob 7 vs 3.
  assert.equal(envyFree([1, 1, 3], [1, 3, 2], [1, 0, 3], [0, 1, 1]), true);
  assert.equal(envyFree([1, 1, 3], [1, 3, 2], [1, 0, 3], [0, 1, 0]), false);
  assert.equal(paretoOptimal([1, 1, 3], [1, 3, 2], [1, 0, 3], 5, 7), true);
  // (1,0,0) for Alice: 1 and 9; giving Alice the hat too is 4 and 9, so it is dominated.
  assert.equal(paretoOptimal([1, 1, 3], [1, 3, 2], [1, 0, 3], 1, 9), false);
  // §5.5.2's examples: two optima tie at 12 for v = (1,3,2); v = (0,4,2) has the unique (0,1,1).
  assert.deepEqual(bestEnvyFreeSet([1, 1, 3], [1, 3, 2], [1, 0, 3]), [[0, 1, 1], [1, 1, 1]]);
  assert.deepEqual(bestEnvyFreeSet([1, 1, 3], [0, 4, 2], [1, 0, 3]), [[0, 1, 1]]);
});

test("Algorithm 1, deterministic: the belief after a first offer and a counter-offer, worked by hand", () => {
  const c = [1, 1, 3];
  const omega = valuationSpace(c);
  assert.equal(omega.length, 26);
  // Bob proposes to take the book and the balls: he does not envy that, so w0 + 3·w2 ≥ w1.
  const s = firstBelief(c, omega, [1, 0, 3]);
  const out = ["0,7,1", "0,10,0", "1,6,1", "1,9,0", "2,8,0", "3,7,0", "4,6,0"];
  assert.deepEqual(s.map(valuationKey), omega.map(valuationKey).filter((k) => !out.includes(k)));
  assert.equal(s.length, 19);
  // Alice had asked for (0,1,3), leaving Bob the book. R1: that made him envious (w0 < w1 + 3·w2);
  // R2: it did not, but his counter gives him more (3·w2 > 0).
  const {belief, r1, r2} = updateBelief(c, omega, s, [0, 1, 3], [1, 0, 3]);
  assert.deepEqual(r1.map(valuationKey), ["0,1,3", "0,4,2", "1,0,3", "1,3,2", "2,2,2", "2,5,1", "3,1,2", "3,4,1", "4,0,2", "4,3,1"]);
  assert.deepEqual(r2.map(valuationKey), ["5,2,1", "6,1,1", "7,0,1"]);
  assert.equal(belief.length, 13);
  // Her next proposal: (0,1,3) is rejected; (1,1,2) (worth 8) is envied under every belief; (0,1,2) (worth 7)
  // is not envied when w0 ≥ w1 + w2: 3,1,2 · 4,0,2 · 4,3,1 · 5,2,1 · 6,1,1 · 7,0,1 = 6 of 13.
  const plan = planProposal(c, [1, 3, 2], belief, new Set(["0,1,3"]));
  assert.deepEqual(plan, {share: [0, 1, 2], p_ef: 6 / 13});
  // The tracker does the same from the offers in order, and remembers the rejected share.
  const t = new BeliefTracker(c);
  t.mine([0, 1, 3]);
  t.theirs([1, 0, 3]);
  assert.deepEqual(t.keys(), belief.map(valuationKey));
  assert.deepEqual([...t.rejected], ["0,1,3"]);
  assert.deepEqual(t.plan([1, 3, 2]), plan);
  // An answer that gives me exactly what I asked keeps the belief (agreement).
  assert.equal(updateBelief(c, omega, belief, [0, 1, 2], [1, 0, 1]).belief.length, 13);
  // Nothing in S = {(0,1,3)} explains Bob taking everything after being offered hat and balls (he valued
  // them at 10, so he neither envied nor gains), so R1 ∪ R2 come from Ω: every w with w0 > 0 (22 of 26).
  const fallback = updateBelief(c, omega, [[0, 1, 3]], [1, 0, 0], [1, 1, 3]).belief;
  assert.deepEqual(fallback.map(valuationKey), omega.filter((w) => w[0] > 0).map(valuationKey));
  assert.equal(fallback.length, 22);
  // Bob taking nothing is no rational rejection under any valuation: S is kept.
  assert.deepEqual(updateBelief(c, omega, [[0, 1, 3]], [1, 1, 2], [0, 0, 0]).belief, [[0, 1, 3]]);
});

test("valuation estimation (Tables 14–16): hit, size-normalised hit, reduction and the indistinguishable-set versions", () => {
  const c = [1, 1, 3];
  const t = new BeliefTracker(c);
  t.mine([0, 1, 3]);
  t.theirs([1, 0, 3]);
  const est = valuationEstimate(c, [1, 3, 2], [1, 0, 3], t.keys());
  // v_true = (1,0,3) is among the 13 kept of 26.
  assert.deepEqual({hit: est.hit, size: est.size, prior: est.prior}, {hit: 1, size: 13, prior: 26});
  close(est.hit_normalised, 1 / 13, "hit / |V_est|");
  close(est.reduction, 0.5, "reduction");
  // L*(1,0,3) = {(0,1,1), (1,1,1)}; for w = (0,1,3) it is {(1,1,1)} (Alice 6, Bob 6), a subset, so w ∈ I.
  const same = indistinguishable(c, [1, 3, 2], [1, 0, 3]);
  assert.ok(same.has("1,0,3") && same.has("0,1,3"));
  const inBelief = t.keys().filter((k) => same.has(k)).length;
  assert.equal(est.hit_i, 1);
  close(est.hit_i_normalised, inBelief / 13, "|V_est ∩ I| / |V_est|");
  // A belief that lost the truth: no hit, and an empty belief scores 0 on the normalised metrics.
  const wrong = valuationEstimate(c, [1, 3, 2], [1, 0, 3], ["10,0,0"]);
  assert.deepEqual([wrong.hit, wrong.hit_normalised], [0, 0]);
  assert.deepEqual([valuationEstimate(c, [1, 3, 2], [1, 0, 3], []).hit_normalised, valuationEstimate(c, [1, 3, 2], [1, 0, 3], []).reduction], [0, 1]);
});

/** An agent that plays a list of actions in order. */
const script = (actions: Action[]): Agent => ({act: () => ({action: actions.shift() ?? {type: "no_deal"}})});

test("the game: a halt then compatible deals score each side's own share; incompatible ones 0; the round cap; rule breaks", async () => {
  // Point 0: counts (1,1,3), Alice (1,3,2), Bob (1,0,3).
  const alice = script([{type: "message", message: "I take the hat and a ball.", book: 0, hat: 1, ball: 1}, {type: "deal", book: 0, hat: 1, ball: 1}]);
  const bob = script([{type: "halt"}, {type: "deal", book: 1, hat: 0, ball: 2}]);
  const {result, turns} = await playGame(dond, {point: 0, max_rounds: 20}, "g1", [alice, bob], {seed: 1});
  assert.deepEqual(result.returns, [5, 7]);
  assert.equal(result.ended_by, "halt");
  assert.equal(result.rounds, 1);
  assert.deepEqual({...result.game, values_a: undefined, values_b: undefined, counts: undefined}, {
    family: "dond", counts: undefined, values_a: undefined, values_b: undefined, ef_feasible: true, outcome: "agreement", agreement: true,
    alloc_a: [0, 1, 1], alloc_b: [1, 0, 2], deal_a: [0, 1, 1], deal_b: [1, 0, 2], messages: 2, selection_by: "bob",
  });
  assert.deepEqual(turns.map((t) => [t.round, t.seat, t.action]), [[1, 0, "message"], [1, 1, "halt"], [2, 0, "deal"], [2, 1, "deal"]]);
  // Both claim the book: incompatible, 0 each.
  const greedyDeals = await playGame(dond, {point: 0, max_rounds: 20}, "g2", [script([{type: "halt"}, {type: "deal", book: 1, hat: 1, ball: 1}]), script([{type: "deal", book: 1, hat: 0, ball: 2}])], {seed: 1});
  assert.deepEqual([greedyDeals.result.returns, greedyDeals.result.game.outcome, greedyDeals.result.game.alloc_a], [[0, 0], "disagree", null]);
  // Three rounds of talk then the cap; the deals are still written.
  const talk = (): Agent => ({act: (o) => ({action: (o.view as DondView).phase === "talk" ? {type: "message", message: "hm"} : {type: "no_deal"}})});
  const capped = await playGame(dond, {point: 3, max_rounds: 3}, "g3", [talk(), talk()], {seed: 1});
  assert.deepEqual([capped.result.ended_by, capped.result.rounds, capped.result.game.messages, capped.result.returns], ["cap", 3, 6, [0, 0]]);
  // A half proposal, a share beyond the count, and then nothing readable: rule breaks, then the game ends without a deal.
  const bad = script([{type: "message", message: "books", book: 1} as Action, {type: "message", message: "x", book: 2, hat: 0, ball: 0}, {type: "deal", book: 0, hat: 0, ball: 0}]);
  const broken = await playGame(dond, {point: 0, max_rounds: 20}, "g4", [bad, talk()], {seed: 1, maxAttempts: 3});
  assert.deepEqual(broken.turns.map((t) => t.rule_break_reason), [
    "a proposal names all of book, hat, ball (got only book)",
    "book: 2 is above the maximum 1",
    'action type "deal" is not allowed now; expected "message" or "halt"',
  ]);
  assert.deepEqual([broken.result.ended_by, broken.result.game.outcome, broken.result.returns], ["rule_break", "rule_break", [0, 0]]);
});

test("scripted negotiators: workflow-bayes self-play agrees on an envy-free split and records its belief every talk turn", async () => {
  const make = (id: string) => dondAgents.find((a) => a.id === id)!.create({game: dond.id, gameId: "x", seat: 0, seatName: "alice", nSeats: 2, params: {}});
  const {result, turns} = await playGame(dond, {point: 0, max_rounds: 20}, "wf", [make("workflow-bayes"), make("workflow-bayes")], {seed: 1});
  assert.equal(result.game.agreement, true);
  const p = hardPoints()[0];
  assert.ok(envyFree(p.counts, p.values_a, p.values_b, result.game.alloc_a as number[]));
  const talk = turns.filter((t) => t.action === "message" || t.action === "halt");
  assert.ok(talk.every((t) => Array.isArray(t.belief)));
  // Alice's first belief is the prior; Bob's after Alice's first offer is already narrower.
  assert.deepEqual([talk[0].belief as string[]].map((b) => b.length), [26]);
  assert.ok((talk[1].belief as string[]).length < 26);
  // greedy never concedes: two greedy players hit the cap with no deal.
  const g = await playGame(dond, {point: 0, max_rounds: 20}, "gg", [make("greedy"), make("greedy")], {seed: 1});
  assert.deepEqual([g.result.ended_by, g.result.rounds, g.result.returns], ["cap", 20, [0, 0]]);
});

test("the LLM's tagged replies: <s> message, <s>halt negotiation</s>, <deal>…</deal>; anything else is a rule break naming the format", () => {
  const obs = (phase: "talk" | "deal"): GameObservation<DondView> => ({
    game: dond.id, game_id: "x", seat: 0, seat_name: "alice", n_seats: 2, round: 1, legal: [],
    view: {point: 0, counts: [1, 1, 3], values: [1, 3, 2], max_rounds: 20, phase, log: [], halted_by: "bob"},
  });
  const read = (raw: string, phase: "talk" | "deal") => dondNarrator.read(raw, obs(phase));
  assert.deepEqual(read("Sure. <s>I'd like the hat.</s>", "talk").action, {type: "message", message: "I'd like the hat."});
  assert.deepEqual(read("<reasoning>be firm</reasoning><s>Halt negotiation</s>", "talk"), {reasoning: "be firm", action: {type: "halt"}});
  assert.equal(read("I'd like the hat.", "talk").error, "expected your message inside <s>…</s>");
  assert.deepEqual(read("<deal>book=0 hat=1 ball=2</deal>", "deal").action, {type: "deal", book: 0, hat: 1, ball: 2});
  assert.deepEqual(read("<deal>no deal</deal>", "deal").action, {type: "no_deal"});
  assert.equal(read("<deal>the hat</deal>", "deal").error, "expected <deal>book=x hat=y ball=z</deal> or <deal>no deal</deal>");
  // The prompt: the paper's system line, own values only, the request with the tag (the authors' code's words,
  // whole requests in test/unit/gtllmAuthorsPrompts.test.ts).
  const [system, user] = dondNarrator.messages(obs("talk"), [], "");
  assert.equal(system.content, "You are a rational assistant that carefully answer the question.");
  assert.match(user.content, /There are 1 books whose values to you are 1\. There are 1 hats whose values to you are 3\. There are 3 balls whose values to you are 2\./);
  assert.match(user.content, /Especially, if you have come to an agreement, say '<s>halt negotiation<\/s>' to end the negotiation\.\n\nRemember, do not reveal your values of the items to the other player through out the game\.\n$/);
  assert.deepEqual(readOffers("<my_offer>none</my_offer><their_offer>books=1 hats=0 balls=3</their_offer>"), {mine: null, theirs: [1, 0, 3]});
  assert.ok("error" in readOffers("<my_offer>half</my_offer>"));
});

test("a broken points file is refused naming the file, the point and the key", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-dond-points-"));
  const path = join(dir, "points.json");
  writeFileSync(path, JSON.stringify({points: [{id: 0, counts: [1, 1, 3], values_a: [1, 3, 2], values_b: [1, 0, 4], human_alloc_a: null}]}));
  assert.throws(() => loadPoints(path), {message: `${path}: points[0].values_b: counts · values must be 10, got 13`});
});
