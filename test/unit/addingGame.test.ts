// The Guide's "Adding a game" examples (src/guide/adding-a-game.md), as written there, play through the one runner.
import {test} from "node:test";
import assert from "node:assert/strict";
import type {GameDef, GameState} from "../../loaders/contract/game.js";
import {checkAction} from "../../loaders/contract/legal.js";
import {playGame} from "../../loaders/runner/gameLoop.js";
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {loadGameFiles} from "../../loaders/papers/gtllm/files.js";
import {dataGameDef} from "../../loaders/papers/gtllm/dataGame.js";
import {gtllmAgentDefs} from "../../loaders/papers/gtllm/scriptedAgents.js";

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

test("a coded Prisoner's Dilemma plays through the runner: payoffs, turns and a rule break", async () => {
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

test("the Guide's matrix and tree game files, as written there, load with no code and play through the runner", async () => {
  const page = readFileSync(new URL("../../src/guide/adding-a-game.md", import.meta.url), "utf8");
  const files = [...page.matchAll(/```json file=data\/games\/\S+\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.equal(files.length, 2);
  const dir = mkdtempSync(join(tmpdir(), "parley-readme-games-"));
  try {
    files.forEach((text, k) => writeFileSync(join(dir, `game${k}.json`), text));
    const {games, problems} = loadGameFiles(dir);
    assert.deepEqual(problems, []);
    assert.deepEqual(games.map((g) => [g.id, g.kind]), [["mine/chicken", "matrix"], ["mine/entry", "tree"]]);
    // A game added at run time is not in the registry's lists; the matrix and tree games' own agent plays any of them.
    const eq = (def: GameDef, seat: number) => gtllmAgentDefs(games).find((a) => a.id === "equilibrium")!.create({game: def.id, gameId: "x", seat, seatName: null, nSeats: 2, params: {}});
    // Chicken: two undominated equilibria; the convention picks Alice's favourite (she dares, Bob swerves).
    const chicken = dataGameDef(games[0]);
    const c = await playGame(chicken, {negotiation_rounds: 1}, "c", [eq(chicken, 0), eq(chicken, 1)], {seed: 1});
    assert.deepEqual([c.result.game.path_names, c.result.returns, c.result.game.is_ne], ["dare / swerve", [1, -1], true]);
    const entry = dataGameDef(games[1]);
    const e = await playGame(entry, {}, "e", [eq(entry, 0), eq(entry, 1)], {seed: 1});
    assert.deepEqual([e.result.game.path_names, e.result.returns, e.result.game.is_ne], ["enter / accommodate", [2, 1], true]);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});
