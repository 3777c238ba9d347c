// A simultaneous round in which one seat's LLM call fails for good (a call --max-cost refuses, an endpoint down): the
// game stops unrecorded, but only once the other seats' calls have ended, so none is left in flight to settle its cost
// after the run has closed its spend record (runner/budget.ts counts such a call at its reservation, not its bill).
import {test} from "node:test";
import assert from "node:assert/strict";
import {gameDef} from "../../loaders/registry/games.js";
import {LlmCallError} from "../../loaders/llm/types.js";
import {playGame} from "../../loaders/runner/gameLoop.js";

test("a simultaneous round that fails for one seat ends only after the other seats' calls have ended", async () => {
  const def = gameDef("gamabench/el_farol");
  const ended: number[] = [];
  const refused = {act: async () => { throw new LlmCallError("a call --max-cost cannot afford", "client", null, 0); }};
  const slow = (seat: number) => ({
    act: () => new Promise<never>((_, reject) => setTimeout(() => { ended.push(seat); reject(new LlmCallError("aborted", "client", null, 0)); }, 30 * seat)),
  });
  const agents = [refused, slow(1), slow(2), slow(3), slow(4)];
  await assert.rejects(playGame(def, {}, "el-farol-1", agents, {seed: 1}), (error: Error) => {
    assert.equal(error.message, "a call --max-cost cannot afford", "the first failure is the game's");
    assert.deepEqual(ended.sort(), [1, 2, 3, 4], "the game ended with other seats' calls still in flight");
    return true;
  });
});
