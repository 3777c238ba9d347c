// The README's "Adding a game" example, as written there, plays through the one runner.
import {test} from "node:test";
import assert from "node:assert/strict";
import type {GameDef, GameState} from "../../loaders/games/contract.js";
import {checkAction} from "../../loaders/games/legal.js";
import {playGame} from "../../loaders/run/play.js";

const PAYOFF: Record<string, [number, number]> = {"C,C": [3, 3], "C,D": [0, 5], "D,C": [5, 0], "D,D": [1, 1]};
const MOVE = [{type: "move", choices: {choice: ["C", "D"]}}];

class PrisonersState implements GameState {
  readonly nSeats = 2;
  private choices: string[] | null = null;
  next() { return this.choices ? {kind: "terminal"} as const : {kind: "seats", seats: [0, 1]} as const; }
  legal(seat: number) { return this.choices ? [] : MOVE; }
  validate(seat: number, action: unknown) { return checkAction(this.legal(seat), action); }
  apply(actions: {type: string; [k: string]: unknown}[]) { this.choices = actions.map((a) => a.choice as string); }
  observe(seat: number) { return {game: "textbook/prisoners", game_id: "", seat, seat_name: null, n_seats: 2, round: 1, view: {payoffs: PAYOFF}, legal: this.legal(seat)}; }
  turnInfo() { return {}; }
  abort() { this.choices = ["D", "D"]; }
  result() {
    const pay = PAYOFF[this.choices!.join(",")];
    return {rounds: 1, ended_by: "completed", game: {outcome: this.choices!.join(",")}, seats: [{}, {}], returns: pay};
  }
}

const prisoners: GameDef = {
  id: "textbook/prisoners", title: "Prisoner's Dilemma", description: "Cooperate or defect, once.",
  citation: {short: "textbook", title: "Prisoner's Dilemma", authors: "Tucker", year: 1950, section: ""},
  seats: {min: 2, max: 2, default: 2}, moves: "simultaneous",
  params: [],
  columns: {games: [{name: "outcome", type: "VARCHAR"}], players: [], turns: [{name: "choice", type: "VARCHAR"}]},
  start: () => new PrisonersState(),
};

test("the README's Prisoner's Dilemma plays through the runner: payoffs, turns and a rule break", async () => {
  const defect = {act: () => ({action: {type: "move", choice: "D"}})};
  let calls = 0;
  const clumsy = {act: () => ({action: {type: "move", choice: ++calls === 1 ? "maybe" : "C"}})};
  const {result, turns} = await playGame(prisoners, {}, "pd-1", [clumsy, defect], {seed: 1});
  assert.deepEqual([result.game.outcome, result.returns], ["C,D", [0, 5]]);
  assert.deepEqual(turns.map((t) => [t.turn, t.seat, t.attempt, t.rule_break, t.choice ?? null]), [
    [0, 0, 1, true, "maybe"],
    [1, 0, 2, false, "C"],
    [2, 1, 1, false, "D"],
  ]);
  assert.match(String(turns[0].rule_break_reason), /choice: expected one of "C", "D", got "maybe"/);
});
