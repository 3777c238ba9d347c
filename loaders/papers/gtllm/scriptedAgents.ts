/**
 * Built-in agents for the matrix and tree games of data/games/ (Game-theoretic
 * LLM workflows (Hua et al. 2024) §4): `equilibrium`, `backward-induction`,
 * `best-response`, `random`, and the paper's two workflows as exact
 * algorithms, `workflow-ne` (§4.4.1) and `workflow-bi` (§4.4.2), so that an
 * LLM running the workflow can be compared with the algorithm itself.
 *
 * Scripted talk: in every round of pre-play talk each agent announces the
 * choice it plans for its own next move ("I will choose choice_k."), and
 * halts when it has no move left to announce. `best-response` reads the
 * other's latest announcement (any message naming choice_k, an LLM's too).
 *
 * The coordination convention (Battle of the Sexes, Wait-Go, Chicken: two
 * undominated equilibria and nothing in the payoffs to pick one): among the
 * pure equilibria that no other equilibrium Pareto-dominates, play the one
 * the first speaker of the talk (`who_first`, Alice by default) likes best,
 * then the first in row-major order. Both seats apply it, so two
 * `equilibrium` agents always meet at an equilibrium, talk or no talk. A game
 * without a pure equilibrium (Rock-Paper-Scissors) is played by sampling a
 * mixed equilibrium (src/lib/equilibria.ts).
 *
 * Pure (the game files are passed in): gtllm.ts registers them for the
 * registry's games, the browser's play engine for the files bundled with it.
 */
import type {Rng} from "../../../src/lib/rng.js";
import type {Action, GameObservation, Seat} from "../../contract/game.js";
import type {GameFile} from "./files.js";
import {nashCells, paretoNashCells, toBimatrix, type Cell, type MatrixGame} from "../../../src/lib/matrixGame.js";
import {findEquilibria} from "../../../src/lib/equilibria.js";
import {isLeaf, nodeAt, spChoice, type TreeNode} from "../../../src/lib/gameTree.js";
import type {DataGameView, MatrixView, TreeView} from "./views.js";
import {labelIndex} from "./views.js";
import type {Agent, AgentDef, AgentReply} from "../../contract/agent.js";

const SOURCE = "Game-theoretic LLM workflows (Hua et al. 2024) §4";

const matrixOf = (v: MatrixView): MatrixGame => ({rows: v.labels[0], cols: v.labels[1], payoffs: v.payoffs});

// ---------------------------------------------------------------- matrix choices

/** The convention of the header: the equilibrium both seats play, or null when there is no pure one. */
export function conventionalEquilibrium(g: MatrixGame, firstSpeaker: Seat): Cell | null {
  const candidates = paretoNashCells(g);
  if (!candidates.length) return null;
  let best = candidates[0];
  for (const c of candidates) if (g.payoffs[c.i][c.j][firstSpeaker] > g.payoffs[best.i][best.j][firstSpeaker]) best = c;
  return best;
}

/** My index in the conventional equilibrium, or a draw from a mixed equilibrium when there is no pure one. */
function equilibriumIndex(v: MatrixView, rng: Rng): number {
  const g = matrixOf(v);
  const cell = conventionalEquilibrium(g, v.who_first);
  if (cell) return v.me === 0 ? cell.i : cell.j;
  const [mixed] = findEquilibria(toBimatrix(g)).mixed;
  const p = v.me === 0 ? mixed.x : mixed.y;
  let u = rng.next();
  for (let k = 0; k < p.length; k++) if ((u -= p[k]) < 0) return k;
  return p.length - 1;
}

/** My payoff for my action k against the other's action l. */
const mine = (v: MatrixView, k: number, l: number): number => (v.me === 0 ? v.payoffs[k][l][0] : v.payoffs[l][k][1]);
const myCount = (v: MatrixView) => v.labels[v.me].length;
const theirCount = (v: MatrixView) => v.labels[1 - v.me].length;

/** The first of my actions with the highest expected payoff against `belief` (a distribution over the other's actions). */
function bestReply(v: MatrixView, belief: number[]): number {
  let best = 0;
  let value = -Infinity;
  for (let k = 0; k < myCount(v); k++) {
    const u = belief.reduce((s, p, l) => s + p * mine(v, k, l), 0);
    if (u > value) (best = k), (value = u);
  }
  return best;
}

/** The choice the other seat last announced (the last choice_k named in its latest message), or -1. */
export function announced(v: DataGameView, move?: number): number {
  for (let t = v.talk.length - 1; t >= 0; t--) {
    const line = v.talk[t];
    if (line.seat === v.me || (move !== undefined && line.move !== move)) continue;
    const names = line.message.match(/choice_\d+/g);
    if (names) return labelIndex(names[names.length - 1]);
  }
  return -1;
}

function bestResponseMatrix(v: MatrixView): number {
  const said = announced(v);
  const n = theirCount(v);
  const belief = said >= 0 && said < n ? Array.from({length: n}, (_, l) => (l === said ? 1 : 0)) : Array(n).fill(1 / n);
  return bestReply(v, belief);
}

// ---------------------------------------------------------------- tree choices

/** My expected payoff from `node` if I maximise and the other plays `theirs` (a choice, or -1 for uniform) at their next node, uniformly after. */
function expectimax(node: TreeNode, me: Seat, theirs: number): number {
  if (isLeaf(node)) return node.payoff[me];
  if (node.mover === me) return Math.max(...node.children.map((c) => expectimax(c, me, theirs)));
  if (theirs >= 0 && theirs < node.children.length) return expectimax(node.children[theirs], me, -1);
  return node.children.reduce((s, c) => s + expectimax(c, me, -1), 0) / node.children.length;
}

function bestResponseTree(v: TreeView): number {
  const node = nodeAt(v.tree, v.moves) as Extract<TreeNode, {mover: 0 | 1}>;
  const theirs = announced(v);
  const values = node.children.map((c) => expectimax(c, v.me, theirs));
  return values.indexOf(Math.max(...values));
}

// ---------------------------------------------------------------- scripted talk

/** My next own decision node along the path my plan and the canonical SPE predict, from the current node. */
function nextOwnNode(v: TreeView): number[] | null {
  const path = [...v.moves];
  for (let node = nodeAt(v.tree, path); !isLeaf(node); node = nodeAt(v.tree, path)) {
    if (node.mover === v.me) return path;
    path.push(spChoice(v.tree, path).choice);
  }
  return null;
}

/**
 * One scripted agent: `plan(view, rng)` gives the index it would choose at
 * its next own move (in a tree: the node `nextOwnNode` finds, given as the
 * view's moves); the talk announces it, the action plays it.
 */
function scripted(plan: (v: DataGameView, rng: Rng) => number, reasoning?: (v: DataGameView) => string): Agent {
  let explained = false;
  return {
    act(obs: GameObservation, rng: Rng): AgentReply {
      const v = obs.view as DataGameView;
      const why = !explained && reasoning ? reasoning(v) : undefined;
      explained = true;
      if (v.phase === "talk") {
        let at: DataGameView | null = v;
        if (v.kind === "tree") {
          const own = nextOwnNode(v);
          at = own ? {...v, moves: own, mover: v.me} : null;
        }
        const action: Action = at ? {type: "message", message: `I will choose choice_${plan(at, rng) + 1}.`} : {type: "halt"};
        return {action, ...(why && {reasoning: why})};
      }
      return {action: {type: "choose", choice: `choice_${plan(v, rng) + 1}`}, ...(why && {reasoning: why})};
    },
  };
}

const treeOnly = (f: (v: TreeView, rng: Rng) => number) => (v: DataGameView, rng: Rng) => {
  if (v.kind !== "tree") throw new Error("plays tree games only");
  return f(v, rng);
};
const matrixOnly = (f: (v: MatrixView, rng: Rng) => number) => (v: DataGameView, rng: Rng) => {
  if (v.kind !== "matrix") throw new Error("plays matrix games only");
  return f(v, rng);
};

const spe = (v: TreeView) => spChoice(v.tree, v.moves).choice;

// ---------------------------------------------------------------- the workflows, written out

/**
 * §4.4.1 (Fig. 2) for the seat: what the other does if I play each action
 * (their best replies), my best reply to each of theirs, and the mutual best
 * responses: the pure equilibria. The text is the workflow's "thinking
 * chain", stored as the agent's reasoning.
 */
export function matrixWorkflowText(v: MatrixView): string {
  const g = matrixOf(v);
  const other = (k: number, l: number) => (v.me === 0 ? v.payoffs[k][l][1] : v.payoffs[l][k][0]);
  const lines: string[] = [];
  for (let k = 0; k < myCount(v); k++) {
    const values = Array.from({length: theirCount(v)}, (_, l) => other(k, l));
    const top = Math.max(...values);
    const replies = values.flatMap((u, l) => (u === top ? [`choice_${l + 1}`] : []));
    lines.push(`If I choose choice_${k + 1}, the other player will choose ${replies.join(" or ")} (reward ${top}).`);
  }
  for (let l = 0; l < theirCount(v); l++) {
    const values = Array.from({length: myCount(v)}, (_, k) => mine(v, k, l));
    const top = Math.max(...values);
    lines.push(`If the other player chooses choice_${l + 1}, I will choose ${values.flatMap((u, k) => (u === top ? [`choice_${k + 1}`] : [])).join(" or ")} (reward ${top}).`);
  }
  const ne = nashCells(g).map((c) => `(choice_${c.i + 1}, choice_${c.j + 1})`);
  const cell = conventionalEquilibrium(g, v.who_first);
  lines.push(ne.length ? `Mutual best responses (Alice's, Bob's): ${ne.join(", ")}.` : "No pair of actions is a mutual best response.");
  lines.push(cell ? `Strategy: always choose choice_${(v.me === 0 ? cell.i : cell.j) + 1}.` : "Strategy: randomise as the mixed equilibrium does.");
  return lines.join("\n");
}

/** §4.4.2 (Fig. 3): every decision node deepest-first, its mover's best action given the later ones. */
export function treeWorkflowText(v: TreeView): string {
  const lines: string[] = [];
  const visit = (path: number[]) => {
    const node = nodeAt(v.tree, path);
    if (isLeaf(node)) return;
    node.children.forEach((_, k) => visit([...path, k]));
    const who = node.mover === v.me ? "I" : "the other player";
    const before = path.length ? `after ${path.map((k) => `choice_${k + 1}`).join(", ")}` : "at the start";
    const {choice, value} = spChoice(v.tree, path);
    lines.push(`${before[0].toUpperCase()}${before.slice(1)}, ${who} will choose choice_${choice + 1}, leading to rewards (${value.join(", ")}).`);
  };
  visit([]);
  return lines.join("\n");
}

// ---------------------------------------------------------------- registry entries

/** The game-theory agents count as one "model" with and without the workflow, for the adoption meta-game (src/lib/gtllm.ts). */
const SCRIPTED_MODEL = "scripted game theory";
const traits = (workflow: boolean, model: string | null = SCRIPTED_MODEL) => ({workflow, model});

/** The agents of these game files (gtllm.ts: the registry's; the browser's play engine: the files bundled at build time). */
export function gtllmAgentDefs(files: readonly Pick<GameFile, "id" | "kind">[]): AgentDef[] {
  const matrixIds = files.filter((g) => g.kind === "matrix").map((g) => g.id);
  const treeIds = files.filter((g) => g.kind === "tree").map((g) => g.id);
  const allIds = files.map((g) => g.id);
  return [
    {
      id: "equilibrium",
      games: allIds,
      description: "Matrix games: a pure Nash equilibrium, preferring one no other equilibrium Pareto-dominates, and among those the first speaker's favourite (the coordination convention); a mixed equilibrium when there is no pure one. Tree games: the subgame-perfect strategy.",
      source: `${SOURCE}.2 (Nash equilibrium as the benchmark)`,
      create: () => ({...scripted((v, rng) => (v.kind === "matrix" ? equilibriumIndex(v, rng) : spe(v))), traits: traits(false)}),
    },
    {
      id: "backward-induction",
      games: treeIds,
      description: "Tree games: backward induction (the subgame-perfect strategy; ties go to the first action).",
      source: `${SOURCE}.4.2 (backward induction)`,
      create: () => ({...scripted(treeOnly(spe)), traits: traits(false)}),
    },
    {
      id: "best-response",
      games: allIds,
      description: "Best reply to the other's latest announced choice (any message naming choice_k); without one, to a uniformly random opponent. Trees: the other's announced choice at its next move, uniform after, and my own best moves.",
      source: `${SOURCE}.4.1 (best responses); a textbook baseline`,
      create: () => ({...scripted((v) => (v.kind === "matrix" ? bestResponseMatrix(v) : bestResponseTree(v))), traits: traits(false, null)}),
    },
    {
      id: "random",
      games: allIds,
      description: "Uniformly random choices (and announcements).",
      source: "baseline",
      create: () => ({
        ...scripted((v, rng) => rng.int(v.kind === "matrix" ? myCount(v) : (nodeAt(v.tree, v.moves) as {children: unknown[]}).children.length)),
        traits: traits(false, null),
      }),
    },
    {
      id: "workflow-ne",
      games: matrixIds,
      description: "The simultaneous-game workflow (§4.4.1) as an exact algorithm: the other's best reply to each of my actions, my best reply to each of theirs, the mutual best responses, then the equilibrium of the coordination convention; its thinking chain is stored as reasoning.",
      source: `${SOURCE}.4.1, Fig. 2`,
      create: () => ({...scripted(matrixOnly((v, rng) => equilibriumIndex(v, rng)), (v) => matrixWorkflowText(v as MatrixView)), traits: traits(true)}),
    },
    {
      id: "workflow-bi",
      games: treeIds,
      description: "The sequential-game workflow (§4.4.2) as an exact algorithm: every decision node deepest-first, its mover's best action given the later ones; its thinking chain is stored as reasoning.",
      source: `${SOURCE}.4.2, Fig. 3`,
      create: () => ({...scripted(treeOnly(spe), (v) => treeWorkflowText(v as TreeView)), traits: traits(true)}),
    },
  ];
}
