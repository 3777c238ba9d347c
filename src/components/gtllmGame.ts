/**
 * A matrix or tree game of data/games/ drawn for reading: the payoff matrix
 * with its pure Nash equilibria shaded and its Pareto-optimal cells starred,
 * or the tree as nested moves with the subgame-perfect path in bold and the
 * Pareto-optimal leaves starred. Action names come from the data file; the
 * neutral labels the players saw (choice_k) are given beside them.
 */
import type {MatrixGame} from "../lib/matrixGame.js";
import type {Outcome, TreeNode} from "../lib/gameTree.js";

export interface GameDescription {
  id: string;
  title: string;
  kind: "matrix" | "tree";
  matrix?: MatrixGame;
  tree?: TreeNode;
  solution: {
    nash?: {i: number; j: number}[];
    pareto: ({i: number; j: number} | Outcome)[];
    pareto_nash?: {i: number; j: number}[];
    spe?: Outcome[];
  };
}

const el = (tag: string, text?: string): HTMLElement => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  return e;
};

function matrixTable(g: MatrixGame, s: GameDescription["solution"]): HTMLElement {
  const has = (list: {i: number; j: number}[] | undefined, i: number, j: number) => !!list?.some((c) => c.i === i && c.j === j);
  const t = el("table");
  t.style.fontVariantNumeric = "tabular-nums";
  const head = el("tr");
  head.append(el("th", "Alice ↓ / Bob →"), ...g.cols.map((c, j) => el("th", `${c} (choice_${j + 1})`)));
  t.append(head);
  g.rows.forEach((r, i) => {
    const tr = el("tr");
    tr.append(el("th", `${r} (choice_${i + 1})`));
    g.cols.forEach((_, j) => {
      const [a, b] = g.payoffs[i][j];
      const ne = has(s.nash, i, j);
      const po = has(s.pareto as {i: number; j: number}[], i, j);
      const td = el("td", `${a}, ${b}${po ? " ★" : ""}`);
      if (ne) {
        td.style.background = "color-mix(in srgb, var(--theme-foreground-focus) 22%, transparent)";
        td.style.fontWeight = "700";
      }
      td.title = [ne && "pure Nash equilibrium", has(s.pareto_nash, i, j) && "Pareto-optimal among the equilibria", po && "Pareto-optimal cell"].filter(Boolean).join("; ") || "";
      tr.append(td);
    });
    t.append(tr);
  });
  return t;
}

function treeList(root: TreeNode, s: GameDescription["solution"]): HTMLElement {
  const onSpe = (path: number[]) => !!s.spe?.some((o) => path.every((k, d) => o.path[d] === k) && path.length <= o.path.length);
  const isPo = (path: number[]) => (s.pareto as Outcome[]).some((o) => o.path.length === path.length && o.path.every((k, d) => k === path[d]));
  const walk = (node: TreeNode, path: number[]): HTMLElement => {
    const ul = el("ul");
    if ("payoff" in node) return ul;
    node.actions.forEach((a, k) => {
      const p = [...path, k];
      const child = node.children[k];
      const li = el("li");
      const label = el("span", `${node.mover === 0 ? "Alice" : "Bob"}: ${a} (choice_${k + 1})`);
      if (onSpe(p)) label.style.fontWeight = "700";
      li.append(label);
      if ("payoff" in child) li.append(` → (${child.payoff.join(", ")})${isPo(p) ? " ★" : ""}`);
      else li.append(walk(child, p));
      ul.append(li);
    });
    return ul;
  };
  return walk(root, []);
}

export function GtllmGame(g: GameDescription): HTMLElement {
  const root = el("div");
  root.append(g.kind === "matrix" ? matrixTable(g.matrix!, g.solution) : treeList(g.tree!, g.solution));
  const note = el("p");
  note.style.fontSize = "0.85em";
  note.textContent = g.kind === "matrix"
    ? "Shaded and bold: pure Nash equilibria. ★: Pareto-optimal cells. Hover a cell for details."
    : "Bold: the subgame-perfect path(s) by backward induction. ★: Pareto-optimal leaves.";
  root.append(note);
  return root;
}
