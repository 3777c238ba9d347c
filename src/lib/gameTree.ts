/**
 * Finite two-player games of perfect information in which the players
 * alternate (Alice moves at the root), as Game-theoretic LLM workflows (Hua
 * et al. 2024) §4.1 draws them: every leaf carries (u_Alice, u_Bob).
 *
 * Solution concepts: backward induction (§4.4.2, Fig. 3) with every
 * subgame-perfect outcome when payoffs tie, the canonical SPE strategy (the
 * first maximiser at every node) that scripted agents play, Pareto-optimal
 * leaves, and the verdict on a played path (is it a subgame-perfect path; is
 * it a Pareto-optimal one among them).
 *
 * Pure: shared by the pages, the games (loaders/games/gtllm/) and the CLI.
 */
import {dominates} from "./matrixGame.js";

/** A node: a leaf with both payoffs, or a decision of `mover` (0 = Alice, 1 = Bob) among named actions. */
export type TreeNode = {payoff: [number, number]} | {mover: 0 | 1; actions: string[]; children: TreeNode[]};

/** As a data file writes it: a leaf is [u_Alice, u_Bob]; a decision is {"action name": node, ...} (the mover alternates, Alice first). */
export type TreeData = [number, number] | {[action: string]: TreeData};

export const isLeaf = (n: TreeNode): n is {payoff: [number, number]} => "payoff" in n;

/**
 * The tree of a data file's `tree`; throws naming the path of the bad node
 * (`tree.A2.B2: ...`). Action names may not be whole numbers: a JSON object
 * lists such keys first, so their order (choice_1, choice_2, ...) would be lost.
 */
export function parseTree(data: unknown, where = "tree", depth = 0): TreeNode {
  if (Array.isArray(data)) {
    if (data.length !== 2 || !data.every((v) => typeof v === "number" && Number.isFinite(v))) throw new Error(`${where}: a leaf must be [u_Alice, u_Bob], two finite numbers, got ${JSON.stringify(data)}`);
    return {payoff: [data[0], data[1]]};
  }
  if (data === null || typeof data !== "object") throw new Error(`${where}: expected a leaf [u_Alice, u_Bob] or an object of action name -> node, got ${JSON.stringify(data)}`);
  const actions = Object.keys(data);
  if (actions.length < 1) throw new Error(`${where}: a decision needs at least one action`);
  const number = actions.find((a) => /^(0|[1-9]\d*)$/.test(a));
  if (number !== undefined) throw new Error(`${where}: action name "${number}" is a whole number; JSON objects reorder such keys, so name it e.g. "A${number}"`);
  const children = actions.map((a) => parseTree((data as Record<string, unknown>)[a], `${where}.${a}`, depth + 1));
  return {mover: (depth % 2) as 0 | 1, actions, children};
}

/** The node reached by following choice indices from the root. */
export function nodeAt(root: TreeNode, path: readonly number[]): TreeNode {
  let node = root;
  for (const k of path) {
    if (isLeaf(node) || !node.children[k]) throw new Error(`no node at path [${path.join(", ")}]`);
    node = node.children[k];
  }
  return node;
}

/** Every leaf with its path (choice indices), left to right. */
export function leaves(root: TreeNode, prefix: number[] = []): {path: number[]; payoff: [number, number]}[] {
  if (isLeaf(root)) return [{path: prefix, payoff: root.payoff}];
  return root.children.flatMap((c, k) => leaves(c, [...prefix, k]));
}

/** Depth of the deepest leaf (moves in the longest play). */
export function depth(root: TreeNode): number {
  return isLeaf(root) ? 0 : 1 + Math.max(...root.children.map(depth));
}

export interface Outcome {
  /** Choice indices from the root to the leaf. */
  path: number[];
  payoff: [number, number];
}

/**
 * Every outcome of a subgame-perfect equilibrium, by backward induction.
 * Without ties there is one. With ties, an SPE picks an SPE of every subgame
 * and, at the node, any action best for the mover given those picks; so a
 * child's outcome o can be played exactly when the mover's payoff in o is at
 * least, for every other child, the lowest SPE payoff that child can give
 * the mover (choose the other subgames' equilibria worst for the mover).
 */
export function spOutcomes(node: TreeNode): Outcome[] {
  let out = outcomesCache.get(node);
  if (!out) outcomesCache.set(node, (out = computeOutcomes(node)));
  return out;
}

/** Solutions by tree (agents ask at every move of every game; a game's tree is one object for the whole run). Shared: do not change them. */
const outcomesCache = new WeakMap<TreeNode, Outcome[]>();
const choiceCache = new WeakMap<TreeNode, Map<string, {choice: number; value: [number, number]}>>();

function computeOutcomes(node: TreeNode): Outcome[] {
  if (isLeaf(node)) return [{path: [], payoff: node.payoff}];
  const m = node.mover;
  const sub = node.children.map(spOutcomes);
  const worst = sub.map((os) => Math.min(...os.map((o) => o.payoff[m])));
  const out: Outcome[] = [];
  sub.forEach((os, k) => {
    const bar = Math.max(-Infinity, ...worst.filter((_, x) => x !== k));
    for (const o of os) if (o.payoff[m] >= bar) out.push({path: [k, ...o.path], payoff: o.payoff});
  });
  return out;
}

/**
 * The canonical SPE strategy: at every node the first action that maximises
 * the mover's continuation value, the continuation being this same strategy.
 * Returns the choice index at `path` and the value (u_Alice, u_Bob) it leads to.
 */
export function spChoice(root: TreeNode, path: readonly number[] = []): {choice: number; value: [number, number]} {
  let byPath = choiceCache.get(root);
  if (!byPath) choiceCache.set(root, (byPath = new Map()));
  const key = path.join(",");
  let hit = byPath.get(key);
  if (!hit) byPath.set(key, (hit = computeChoice(root, path)));
  return hit;
}

function computeChoice(root: TreeNode, path: readonly number[]): {choice: number; value: [number, number]} {
  const node = nodeAt(root, path);
  if (isLeaf(node)) throw new Error(`path [${path.join(", ")}] is a leaf`);
  const values = node.children.map((_, k) => spValue(root, [...path, k]));
  let best = 0;
  values.forEach((v, k) => {
    if (v[node.mover] > values[best][node.mover]) best = k;
  });
  return {choice: best, value: values[best]};
}

/** The payoff the canonical SPE strategy reaches from the node at `path`. */
export function spValue(root: TreeNode, path: readonly number[]): [number, number] {
  const node = nodeAt(root, path);
  return isLeaf(node) ? node.payoff : spChoice(root, path).value;
}

/** The canonical SPE path from the root. */
export function spPath(root: TreeNode): Outcome {
  const path: number[] = [];
  for (let node = root; !isLeaf(node); node = nodeAt(root, path)) path.push(spChoice(root, path).choice);
  return {path, payoff: (nodeAt(root, path) as {payoff: [number, number]}).payoff};
}

/** Leaves no other leaf Pareto-dominates. */
export function paretoLeaves(root: TreeNode): Outcome[] {
  const all = leaves(root);
  return all.filter((l) => !all.some((o) => dominates(o.payoff, l.payoff)));
}

const samePath = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((k, i) => k === b[i]);

/**
 * What `seat` can secure in the subtree `node` whatever the other does: it
 * maximises where it moves, the other minimises its payoff where the other
 * moves (perfect information, so this pure max–min is the value).
 */
export function securityValue(node: TreeNode, seat: 0 | 1): number {
  if (isLeaf(node)) return node.payoff[seat];
  const values = node.children.map((c) => securityValue(c, seat));
  return node.mover === seat ? Math.max(...values) : Math.min(...values);
}

/**
 * Every leaf that is the outcome of some pure Nash equilibrium of the tree
 * (of its strategic form; not necessarily subgame perfect). A path is such an
 * outcome exactly when, at each of its nodes, the mover gets at least as much
 * on the path as it could secure by leaving it for any other child, the other
 * side then punishing (its strategy off the path is free): u_i(path) ≥
 * securityValue(child, i). Monopoly's "stay out" is one (the incumbent's
 * threat to fight), though not subgame perfect.
 */
export function nashOutcomes(root: TreeNode): Outcome[] {
  return leaves(root).filter((leaf) => {
    let node = root;
    for (const k of leaf.path) {
      if (isLeaf(node)) break;
      const m = node.mover;
      if (node.children.some((c, x) => x !== k && securityValue(c, m) > leaf.payoff[m])) return false;
      node = node.children[k];
    }
    return true;
  });
}

/**
 * Whether the played path is a subgame-perfect path (the paper's "reached the
 * Nash equilibrium" for sequential games, §4.2, as its authors' backward
 * induction reads it), whether it is one that no other subgame-perfect
 * outcome Pareto-dominates, and whether it is the outcome of any pure Nash
 * equilibrium (`is_any_ne`, the wider reading).
 */
export function pathVerdict(root: TreeNode, path: readonly number[]): {is_ne: boolean; is_po_ne: boolean; is_any_ne: boolean} {
  const spe = spOutcomes(root);
  const hit = spe.find((o) => samePath(o.path, path));
  return {is_ne: !!hit, is_po_ne: !!hit && !spe.some((o) => dominates(o.payoff, hit.payoff)), is_any_ne: nashOutcomes(root).some((o) => samePath(o.path, path))};
}

/** Everything the pages show about a tree game. */
export function solveTree(root: TreeNode) {
  return {spe: spOutcomes(root), canonical: spPath(root), pareto: paretoLeaves(root), nash: nashOutcomes(root)};
}
