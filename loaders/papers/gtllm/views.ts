/**
 * What a seat of a matrix or tree game observes (complete information: the
 * whole game, the talk so far, the moves so far). Actions appear only under
 * neutral labels, choice_1, choice_2, ... in the order of the data file, as
 * Game-theoretic LLM workflows (Hua et al. 2024) shows them to its players
 * (the authors' simultaneous_game_agent.py); the semantic names stay in the
 * data file and the tables.
 */
import type {Seat} from "../../contract/game.js";
import type {TreeNode} from "../../../src/lib/gameTree.js";

/** One message of the pre-play talk; `move` is the 1-based action it came before (tree games talk before every move). */
export interface TalkLine {
  seat: Seat;
  move: number;
  round: number;
  message: string;
}

interface TalkView {
  /** This seat: 0 = Alice, 1 = Bob. */
  me: Seat;
  phase: "talk" | "act";
  negotiation_rounds: number;
  /** Who speaks first in every round of talk. */
  who_first: Seat;
  /** The current round of talk (1-based) while `phase` is "talk". */
  talk_round: number;
  /** Every message so far, both seats'. */
  talk: TalkLine[];
}

export interface MatrixView extends TalkView {
  kind: "matrix";
  /** Neutral labels of each seat's actions: [Alice's, Bob's]. */
  labels: [string[], string[]];
  /** payoffs[i][j] = [u_Alice, u_Bob] for Alice's i-th and Bob's j-th action. */
  payoffs: [number, number][][];
}

export interface TreeView extends TalkView {
  kind: "tree";
  /** The game tree, actions named choice_1, choice_2, ... at every node. */
  tree: TreeNode;
  /** Choice indices played so far, from the root. */
  moves: number[];
  /** Who moves at the current node. */
  mover: Seat;
}

export type DataGameView = MatrixView | TreeView;

const labelLists: string[][] = [];

/** choice_1, choice_2, ... (one shared list per length: do not change it) */
export const neutralLabels = (n: number): string[] => (labelLists[n] ??= Array.from({length: n}, (_, k) => `choice_${k + 1}`));

/** The index of a neutral label, or -1. */
export const labelIndex = (label: string): number => {
  const m = /^choice_(\d+)$/.exec(label);
  return m ? Number(m[1]) - 1 : -1;
};

/** The tree with every node's actions renamed choice_1, choice_2, ... */
export function neutralTree(node: TreeNode): TreeNode {
  if ("payoff" in node) return node;
  return {mover: node.mover, actions: neutralLabels(node.actions.length), children: node.children.map(neutralTree)};
}
