// What an LLM reads in the matrix and tree games: the wording of Game-theoretic LLM workflows (Hua et al. 2024)'s
// repository prompts, filled from a seat's view, checked line by line against the templates written out by hand
// (test/unit/gtllmAuthorsPrompts.test.ts checks whole requests against the authors' code's own).
import {test} from "node:test";
import assert from "node:assert/strict";
import {gameDef} from "../../loaders/registry/games.js";
import type {DataGameView, TreeView} from "../../loaders/papers/gtllm/views.js";
import {actionPrompt, gameSetting, negotiatePrompt, systemPrompt, tagged, treeNodePrompt} from "../../loaders/papers/gtllm/narrator.js";
import {inSequence} from "../../loaders/runner/chance.js";

function viewOf(game: string, seat: number, params: Record<string, unknown> = {}, moves: {type: string; [k: string]: unknown}[][] = []): DataGameView {
  const state = gameDef(game).start({negotiation_rounds: 0, who_first: "alice", ...params} as never, {gameId: "g", nSeats: 2, chance: inSequence({} as never)});
  for (const m of moves) state.apply(m as never);
  return state.observe(seat).view as DataGameView;
}

test("the Prisoner's Dilemma as Bob reads it: rules from his side, neutral labels only, the §6.5 suffix last after talk", () => {
  const v = viewOf("gtllm/prisoners_dilemma", 1);
  assert.equal(gameSetting(v), `
### Game Introduction

You are playing a one-round game with another player to maximize the reward you can obtain. This game involves two players, Alice and Bob.
You are playing as Bob. You have 2 choices: choice_1, choice_2.
The other player, Alice, also has 2 choices: choice_1, choice_2.

### Game Rules

- If both you and Alice choose choice_1, you will receive a reward of 3 and Alice will receive a reward of 3.
- If you choose choice_1 while Alice chooses choice_2, you will receive a reward of 0 and Alice will receive a reward of 5.


- If you choose choice_2 while Alice chooses choice_1, you will receive a reward of 5 and Alice will receive a reward of 0.
- If both you and Alice choose choice_2, you will receive a reward of 1 and Alice will receive a reward of 1.


`);
  const prompt = actionPrompt(v, "", 4);
  assert.match(prompt, /\n\n\n\n### Your Action\n\nAnalyse the problem and the negotiation message if there is any\.\nPlease choose one of the following actions to maximize your reward\.\n/);
  assert.match(prompt, /Action choices: choice_1, choice_2\n$/, "no talk, no suffix (the repository appends it after talk only)");
  const talked = viewOf("gtllm/prisoners_dilemma", 1, {negotiation_rounds: 1}, [[{type: "message", message: "Cooperate?"}], [{type: "message", message: "Yes."}]]);
  assert.match(actionPrompt(talked, "", 4), /\nAlice said in round 1: Cooperate\?\nBob replied in round 1: Yes\.\n\n### Your Action\n[\s\S]*Action choices: choice_1, choice_2\n\n\nYou can choose your own choice regardless what Alice says\.\n$/);
  assert.match(actionPrompt(talked, "", 4, "paper"), /Action choices: choice_1, choice_2\n\n\nYou can choose your own choice regardless what the other player says\.\n$/);
  assert.match(actionPrompt(talked, "", null), /Action choices: choice_1, choice_2\n\n\n$/);
  assert.doesNotMatch(prompt, /cooperate|defect/);
  assert.equal(systemPrompt(null), "You are a rational assistant that carefully answer the question.");
});

test("tree games: every outcome by number of moves, the talk log before each action, the previous actions, the workflow's node question", () => {
  const v = viewOf("gtllm/escalation", 1, {negotiation_rounds: 1}, [[{type: "message", message: "Let us stop."}], [{type: "message", message: "Fine."}], [{type: "choose", choice: "choice_2"}]]);
  assert.match(gameSetting(v), /### Game Rules\n\nIf Alice chooses choice_1, Alice will receive a reward of 0 and Bob will receive a reward of 0\.\nIf Alice chooses choice_2, then Bob chooses choice_1, Alice will receive a reward of 1 and Bob will receive a reward of -2\.\nIf Alice chooses choice_2, then Bob chooses choice_2, then Alice chooses choice_1, Alice will receive a reward of -2 and Bob will receive a reward of 1\./);
  const talk = negotiatePrompt(v, "");
  assert.match(talk, /### Previous Actions Done in the Game\n\nThe previous actions done in the game are presented below:\nAlice chooses choice_2\n/);
  assert.match(talk, /\n\n## The previous rounds of negotiation are presented below:\n\nAlice said in round 1 before the first action:\nLet us stop\.\nBob replied in round 1 before the first action:\nFine\.$/);
  assert.match(actionPrompt(v, "", null), /Action choices: _choice_1, _choice_2\n\n\n$/, "the repository lists a tree's actions as _choice_k");
  const decided = new Map([["1,1", {mover: 0 as const, choice: 1, answer: "choice_2", reason: "I lose less: -1 beats -2"}]]);
  const q = treeNodePrompt(v as TreeView, [1], decided);
  // The repository's quirks, kept: the doubled full stop, "two" actions, the leaf's notice run into the next, "I " made "you " in the whole prompt.
  assert.match(q, /### Your Potential Action Given Previous Actions\n\nSuppose the previous actions are: First, Alice chooses choice_2\.\.\nThere are two possible actions that you can take: choice_1, choice_2\n\nNotice that if you choose choice_1, the game will finish with rewards obtained defined by the game rules\.Notice that if you choose choice_2, Alice will choose choice_2 because you lose less: -1 beats -2\.\n\n\nWhat action/);
  assert.match(q, /For example, '<r>you choose choice_1 because \.\.\.<\/r>'/);
  assert.equal(tagged("I think <r>because</r> so <s> choice_2 </s> and <s>x</s>", "s"), "choice_2");
  assert.equal(tagged("no tags", "s"), null);
});
