// Tree games of Game-theoretic LLM workflows (Hua et al. 2024, §4.1): the outcomes of every pure Nash
// equilibrium, subgame perfect or not, against equilibria enumerated by hand, and a brute force over
// every pure strategy profile; and how the two rates read the same self-play.
import {test} from "node:test";
import assert from "node:assert/strict";
import {dataGame, gameDef} from "../../loaders/registry/games.js";
import {agentDef} from "../../loaders/registry/agents.js";
import {playGame} from "../../loaders/runner/gameLoop.js";
import {isLeaf, nashOutcomes, securityValue, spOutcomes, type TreeNode} from "../../src/lib/gameTree.js";

const tree = (id: string): TreeNode => {
  const g = dataGame(id);
  assert.ok(g && g.kind === "tree", id);
  return g.tree;
};

/** Action names along a path (A1, B2, ...). */
function names(root: TreeNode, path: readonly number[]): string {
  const actions: string[] = [];
  let node = root;
  for (const k of path) {
    if (isLeaf(node)) break;
    actions.push(node.actions[k]);
    node = node.children[k];
  }
  return actions.join(", ");
}

test("hand-enumerated pure Nash outcomes of Monopoly, Draco and TriGame, beside the subgame-perfect ones", () => {
  // Monopoly: stay out (0, 2) | enter → accommodate (2, 1) | fight (−1, −1).
  // enter, accommodate: Alice 2 ≥ 0 from staying out; Bob 1 ≥ −1: an equilibrium, the subgame-perfect one.
  // stay out: entering secures Alice only min(2, −1) = −1 ≤ 0 (Bob threatens to fight): an equilibrium, not subgame perfect.
  const monopoly = tree("gtllm/monopoly");
  assert.deepEqual(nashOutcomes(monopoly).map((o) => names(monopoly, o.path)), ["stay out", "enter, accommodate"]);
  assert.deepEqual(spOutcomes(monopoly).map((o) => names(monopoly, o.path)), ["enter, accommodate"]);

  // Draco: A1 → {B1 (5,5); B2 → {A1 (2,2); A2 (3,4)}}, A2 → {B1 (4,5); B2 → {A1 (5,3); A2 (2,2)}}.
  // What Alice secures after A1: Bob picks min(5, max(2,3)) = 3; after A2: min(4, max(5,2)) = 4.
  // What Bob secures after A1,B2: Alice picks min(2,4) = 2; after A2,B2: min(3,2) = 2.
  // A1,B1 (5,5): 5 ≥ 4 and Bob 5 ≥ 2: equilibrium. A2,B1 (4,5): 4 ≥ 3, Bob 5 ≥ 2: equilibrium (not subgame perfect:
  // after A1 Bob would not play B2 only to punish). A1,B2,* : Alice gets ≤ 3 < 4 by A2. A2,B2,A1 (5,3): Bob 3 < 5 by B1.
  // A2,B2,A2 (2,2): Bob 2 < 5.
  const draco = tree("gtllm/draco");
  assert.deepEqual(nashOutcomes(draco).map((o) => names(draco, o.path)), ["A1, B1", "A2, B1"]);
  assert.deepEqual(spOutcomes(draco).map((o) => names(draco, o.path)), ["A1, B1"]);
  assert.ok(!isLeaf(draco));
  assert.equal(securityValue(draco.children[0], 0), 3);
  assert.equal(securityValue(draco.children[1], 0), 4);

  // TriGame: A1 → {B1 → {A1 (20,3); A2 (0,4)}; B2 → {A1 (2,5); A2 (3,4)}}, A2 → {B1 → {A1 (1,5); A2 (4,10)}; B2 → {A1 (2,1); A2 (3,2)}}.
  // Alice secures 3 after A1 (Bob: min(max(20,0), max(2,3))) and 3 after A2 (min(max(1,4), max(2,3))).
  // Bob secures after A1,B1 min(3,4) = 3; A1,B2 min(5,4) = 4; A2,B1 min(5,10) = 5; A2,B2 min(1,2) = 1.
  // A1,B2,A2 (3,4): Alice 3 ≥ 3 at the root, 3 ≥ 2 at the last move; Bob 4 ≥ 3: equilibrium, not subgame perfect.
  // A2,B1,A2 (4,10): 4 ≥ 3, Bob 10 ≥ 1, Alice 4 ≥ 1: the subgame-perfect one. Every other leaf fails: (20,3) Bob 3 < 4;
  // (0,4) Alice 0 < 20; (2,5) Alice 2 < 3; (1,5) Alice 1 < 4; (2,1) Alice 2 < 3; (3,2) Bob 2 < 5.
  const trigame = tree("gtllm/trigame");
  assert.deepEqual(nashOutcomes(trigame).map((o) => names(trigame, o.path)), ["A1, B2, A2", "A2, B1, A2"]);
  assert.deepEqual(spOutcomes(trigame).map((o) => names(trigame, o.path)), ["A2, B1, A2"]);
});

/** Every pure strategy of `seat`: one action at each of its nodes (by node position in a depth-first order). */
function strategies(root: TreeNode, seat: 0 | 1): number[][] {
  const own: number[] = [];
  const walk = (n: TreeNode) => {
    if (isLeaf(n)) return;
    if (n.mover === seat) own.push(n.children.length);
    n.children.forEach(walk);
  };
  walk(root);
  let all: number[][] = [[]];
  for (const k of own) all = all.flatMap((s) => Array.from({length: k}, (_, a) => [...s, a]));
  return all;
}

/** The leaf reached by a profile, and its path. */
function play(root: TreeNode, profile: [number[], number[]]): {path: number[]; payoff: [number, number]} {
  const index = new Map<TreeNode, number>();
  const counters = [0, 0];
  const walk = (n: TreeNode) => {
    if (isLeaf(n)) return;
    index.set(n, counters[n.mover]++);
    n.children.forEach(walk);
  };
  walk(root);
  const path: number[] = [];
  let node = root;
  while (!isLeaf(node)) {
    const k = profile[node.mover][index.get(node)!];
    path.push(k);
    node = node.children[k];
  }
  return {path, payoff: node.payoff};
}

test("a brute force over every pure strategy profile finds the same outcomes in all five trees", () => {
  for (const id of ["gtllm/escalation", "gtllm/monopoly", "gtllm/hot_cold", "gtllm/draco", "gtllm/trigame"]) {
    const root = tree(id);
    const [sa, sb] = [strategies(root, 0), strategies(root, 1)];
    const found = new Set<string>();
    for (const a of sa) {
      for (const b of sb) {
        const here = play(root, [a, b]).payoff;
        const stable = sa.every((a2) => play(root, [a2, b]).payoff[0] <= here[0]) && sb.every((b2) => play(root, [a, b2]).payoff[1] <= here[1]);
        if (stable) found.add(play(root, [a, b]).path.join(" "));
      }
    }
    assert.deepEqual(nashOutcomes(root).map((o) => o.path.join(" ")).sort(), [...found].sort(), id);
  }
});

test("best-response self-play without talk: subgame-perfect rate 0 in Draco and TriGame, any-Nash rate 1", async () => {
  for (const game of ["gtllm/draco", "gtllm/trigame"]) {
    const def = gameDef(game);
    const seats = [0, 1].map((seat) => agentDef("best-response").create({game, gameId: "g", seat, seatName: ["alice", "bob"][seat], nSeats: 2, params: {}}));
    const {result} = await playGame(def, {negotiation_rounds: 0, who_first: "alice"}, `${game}-0`, seats, {seed: 0});
    assert.deepEqual([result.game.is_ne, result.game.is_any_ne], [false, true], `${game}: ${result.game.path_names}`);
  }
});
