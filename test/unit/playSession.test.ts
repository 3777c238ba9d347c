// A person's seat through the ordinary runner (loaders/play/): the rows are
// those `parley run` writes for the same moves (played here by a scripted
// agent through playGame directly), an illegal entry changes nothing and is
// no turn, and a saved session (seed, game id, moves) replays to the same game.
import {test} from "node:test";
import assert from "node:assert/strict";
import {nodeEngine} from "../../loaders/study/engine.js";
import {PlayError, restore, startSession, type PlaySession} from "../../loaders/study/session.js";
import {playGame} from "../../loaders/runner/gameLoop.js";
import {gameDef} from "../../loaders/registry/games.js";
import {agentDef} from "../../loaders/registry/agents.js";
import type {Action} from "../../loaders/contract/game.js";
import type {Agent} from "../../loaders/contract/agent.js";

/** Plays the person's seat with `choose` until the game ends. */
async function playThrough(session: PlaySession, choose: (legal: Action[] | any) => Action): Promise<void> {
  for (let p = session.pending(); p; p = session.pending()) {
    const done = await session.submit(choose(p.legal));
    assert.ok("ok" in done, JSON.stringify(done));
  }
}

test("a person's bargaining game has the rows a scripted agent's game with the same moves has", async () => {
  const spec = {game: "glee/bargaining", params: {money: 100, horizon: 4}, seats: ["human", "greedy"], seed: 11, game_id: "bargaining.play.t1"};
  // The person asks for 70 every time and never accepts.
  const choose = (legal: {type: string}[]): Action => (legal[0].type === "offer" ? {type: "offer", alice_gain: 70, bob_gain: 30} : {type: "decision", decision: "reject"});
  const session = await startSession(spec, nodeEngine);
  assert.equal(session.seat, 0);
  await playThrough(session, choose);
  const mine = session.finished()!;
  assert.ok(mine);
  // The same moves by an agent, through playGame as `parley run` does.
  const def = gameDef("glee/bargaining");
  const scripted: Agent = {act: (obs) => ({action: choose(obs.legal)})};
  const other = agentDef("greedy").create({game: def.id, gameId: spec.game_id, seat: 1, seatName: "bob", nSeats: 2, params: session.spec.params});
  const run = await playGame(def, session.spec.params, spec.game_id, [scripted, other], {seed: spec.seed});
  assert.deepEqual(mine.turns, run.turns);
  assert.equal(mine.row.ended_by, run.result.ended_by);
  assert.equal(mine.row.alice_agent, "human");
  assert.equal(mine.row.bob_agent, "greedy");
  assert.equal(mine.row.source, "human");
  assert.deepEqual(mine.players.map((p) => p.agent), ["human", "greedy"]);
  assert.deepEqual(mine.players.map((p) => p.return), run.result.returns);
  assert.ok(mine.turns.length >= 4);
  assert.ok(mine.turns.every((t) => t.rule_break === false));
});

test("an illegal entry is refused with its reason and changes nothing", async () => {
  const session = await startSession({game: "glee/bargaining", params: {money: 100}, seats: ["human", "rubinstein"], seed: 3}, nodeEngine);
  const before = JSON.stringify(session.pending());
  assert.deepEqual(await session.submit({type: "offer", alice_gain: -10, bob_gain: 110}), {error: "alice_gain: -10 is below the minimum 0"});
  assert.deepEqual(await session.submit({type: "offer", alice_gain: 150, bob_gain: -50}), {error: "alice_gain: 150 is above the maximum 100"});
  assert.deepEqual(await session.submit({type: "offer", alice_gain: "ten", bob_gain: 90}), {error: 'alice_gain: expected a number, got "ten"'});
  assert.deepEqual(await session.submit({type: "decision", decision: "accept"}), {error: 'action type "decision" is not allowed now; expected "offer"'});
  assert.equal(JSON.stringify(session.pending()), before);
  assert.deepEqual(session.moves, []);
  assert.equal(session.finished(), null);
});

test("a saved session replays to the same game, and a move that does not fit is named", async () => {
  const spec = {game: "glee/negotiation", params: {money: 100, horizon: 5}, seats: ["human", "split-difference"], seed: 5, game_id: "negotiation.play.t2"};
  let n = 0;
  const choose = (legal: {type: string}[]): Action => (legal[0].type === "offer" ? {type: "offer", price: 160 - 10 * n++} : {type: "decision", decision: "reject"});
  const first = await startSession(spec, nodeEngine);
  await first.submit(choose(first.pending()!.legal));
  await first.submit(choose(first.pending()!.legal));
  const mark = n;
  // Saved mid-game: the replay stands where the first one stood.
  const again = await restore(first.spec, first.moves, nodeEngine);
  assert.deepEqual(again.pending(), first.pending());
  await playThrough(first, choose);
  n = mark;
  await playThrough(again, choose);
  assert.deepEqual(again.finished(), first.finished());
  assert.deepEqual(again.record(), first.record());
  await assert.rejects(restore(first.spec, [{type: "offer", price: -1}], nodeEngine), (e: Error) => e instanceof PlayError && e.message === 'move 1 ({"type":"offer","price":-1}): price: -1 is below the minimum 0');
});

test("a gamma-Bench game seats the person with four agents; its simultaneous rounds wait for the person", async () => {
  const session = await startSession({game: "gamabench/guessing", params: {rounds: 3}, seats: ["level-1", "human", "level-1", "level-2", "random"], seed: 9}, nodeEngine);
  assert.equal(session.seat, 1);
  const p = session.pending()!;
  assert.ok(p.messages.some((m) => m.role === "system" && m.content.length > 50));
  assert.deepEqual(await session.submit({type: "choose", amount: 101}), {error: "amount: 101 is above the maximum 100"});
  await playThrough(session, () => ({type: "choose", amount: 20}));
  const rows = session.finished()!;
  assert.equal(rows.row.rounds, 3);
  assert.deepEqual(rows.players.map((r) => r.agent), ["level-1", "human", "level-1", "level-2", "random"]);
  assert.deepEqual(rows.turns.filter((t) => t.seat === 1).map((t) => t.amount), [20, 20, 20]);
});

test("a spec that cannot be played is one line", async () => {
  await assert.rejects(startSession({game: "glee/bargaining", seats: ["greedy", "rubinstein"]}, nodeEngine), {message: 'exactly one seat is "human", got 0'});
  await assert.rejects(startSession({game: "glee/persuasion", seats: ["human", "greedy"]}, nodeEngine), {message: 'agent "greedy" cannot take seat bob of glee/persuasion'});
  await assert.rejects(startSession({game: "glee/bargaining", params: {money: -1}, seats: ["human", "greedy"]}, nodeEngine), {message: "glee/bargaining parameter money: expected a number in [0.01, 1e12], got -1"});
});
