// NegotiationArena buy/sell games: public messages and hidden reasoning kept
// apart, the accepted trade, payoffs and the winner as NegotiationArena (Bianchi et al. 2024) §3 defines it.
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync} from "node:fs";
import {join} from "node:path";
import {datasetsConfig} from "../../loaders/projectConfig.js";
import {buySellRows, ingestNegotiationArena, unwrap} from "../../loaders/papers/negotiationarena/ingest.js";

const real = datasetsConfig().dir ? join(datasetsConfig().dir!, "negotiationarena") : null;
const skipReal = !real || !existsSync(real) ? `NegotiationArena logs not found (${real ?? "no datasets directory configured"}); set PARLEY_DATASETS` : false;

const res = (r: Record<string, number>) => ({_type: "resource", _value: r});
const trade = (zup: number) => ({_type: "trade", _value: {RED: res({X: 1}), BLUE: res({ZUP: zup})}});

/** A buy/sell log: the seller (RED) values the object at 40, the buyer (BLUE) at 60; `moves` alternate from RED. */
function log(moves: {answer: string; price?: number; message: string; reason: string}[]) {
  return {
    class: "BuySellGame",
    run_epoch_time_ms: "42",
    iterations: 10,
    players: [
      {model: "model-red", agent_name: "Player RED", temperature: 0.7},
      {model: "model-blue", agent_name: "Player BLUE", temperature: 0.7},
    ],
    game_state: [
      {
        current_iteration: "START",
        turn: "None",
        settings: {
          player_goals: [
            {_type: "goal", _value: {_type: "seller_goal", _value: {_type: "valuation", _value: {X: 40}}}},
            {_type: "goal", _value: {_type: "buyer_goal", _value: {_type: "valuation", _value: {X: 60}}}},
          ],
          player_initial_resources: [res({X: 1}), res({ZUP: 100})],
          player_social_behaviour: ["", "Be cunning."],
        },
      },
      ...moves.map((m, k) => ({
        current_iteration: k + 1,
        turn: k % 2,
        player_public_info_dict: {message: m.message, "player answer": m.answer, "newly proposed trade": m.price === undefined ? "NONE" : trade(m.price)},
        player_private_info_dict: {reason: m.reason, "my goals": "secret goal", "proposal count": String(Math.floor(k / 2) + 1)},
        player_complete_answer: `<reason>${m.reason}</reason> <message>${m.message}</message>`,
      })),
      {current_iteration: "END", turn: "None", summary: {}},
    ],
  };
}

test("`_type`/`_value` wrappers unwrap to plain resources", () => {
  assert.deepEqual(unwrap(trade(45)), {RED: {X: 1}, BLUE: {ZUP: 45}});
});

test("turns keep the public message and the hidden reasoning apart; payoffs price − cost and value − price", () => {
  const {game, turns} = buySellRows(
    log([
      {answer: "PROPOSAL", price: 55, message: "55 please", reason: "open high"},
      {answer: "PROPOSAL", price: 45, message: "45?", reason: "my max is 60 but do not say so"},
      {answer: "ACCEPT", message: "deal", reason: "above cost"},
    ]),
    "g",
    "f",
  );
  assert.deepEqual(turns.map((t) => [t.turn, t.seat, t.role, t.action, t.price, t.message, t.reasoning]), [
    [0, 0, "seller", "PROPOSAL", 55, "55 please", "open high"],
    [1, 1, "buyer", "PROPOSAL", 45, "45?", "my max is 60 but do not say so"],
    [2, 0, "seller", "ACCEPT", null, "deal", "above cost"],
  ]);
  assert.ok(!String(turns[1].message).includes("60"), "the hidden reason does not leak into the public message");
  assert.equal(game.price, 45);
  assert.equal(game.p1_payoff, 5);
  assert.equal(game.p2_payoff, 15);
  assert.equal(game.winner, "p2");
  assert.equal(game.p2_behaviour, "Be cunning.");
  assert.equal(game.p1_agent, "model-red");
  assert.equal(game.first_price, 55);
  assert.equal(game.game, "negotiationarena/buy_sell");
});

test("§3 winners: a price at the midpoint is a tie, and so is a game without a trade", () => {
  const mid = buySellRows(log([{answer: "PROPOSAL", price: 50, message: "50", reason: "midpoint"}, {answer: "ACCEPT", message: "ok", reason: "fair"}]), "mid", "f").game;
  assert.deepEqual([mid.p1_payoff, mid.p2_payoff, mid.winner], [10, 10, "tie"]);
  const high = buySellRows(log([{answer: "PROPOSAL", price: 58, message: "58", reason: "greedy"}, {answer: "ACCEPT", message: "ok", reason: "still under 60"}]), "high", "f").game;
  assert.equal(high.winner, "p1");
  const none = buySellRows(log([{answer: "PROPOSAL", price: 58, message: "58", reason: "r"}, {answer: "REJECT", message: "no", reason: "r"}]), "none", "f").game;
  assert.deepEqual([none.agreement, none.price, none.p1_payoff, none.p2_payoff, none.winner, none.ended_by], [false, null, 0, 0, "tie", "rejected"]);
});

test("the shared logs: four GPT-4 games, all won by the buyer, payoffs equal to the files' own player_outcome", {skip: skipReal}, () => {
  const result = ingestNegotiationArena(real!);
  assert.deepEqual(result.problems, []);
  const games = result.tables[0].rows;
  assert.equal(games.length, 4);
  for (const g of games) {
    assert.equal(g.p1_payoff, g.p1_payoff_recorded);
    assert.equal(g.p2_payoff, g.p2_payoff_recorded);
    assert.equal(g.winner, "p2");
    assert.equal(g.final_response, "ACCEPT");
    assert.equal(g.p1_agent, "gpt-4-1106-preview");
  }
  assert.deepEqual(games.map((g) => g.price), [40, 46, 47, 48]);
  const players = result.tables[1].rows;
  assert.deepEqual(players.slice(0, 2).map((p) => [p.seat, p.seat_name, p.role, p.return === games[0].p1_payoff || p.return === games[0].p2_payoff, p.won]), [
    [0, "red", "seller", true, false],
    [1, "blue", "buyer", true, true],
  ]);
  const turns = result.tables[2].rows;
  assert.ok(turns.every((t) => typeof t.message === "string" && typeof t.reasoning === "string"));
});
