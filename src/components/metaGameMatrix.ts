/**
 * The meta-game of choosing an agent (GLEE (Shapira et al. 2024) footnote 13) as a payoff
 * matrix: rows Alice's agent, columns Bob's, each cell "Alice's payoff /
 * Bob's payoff". Alice's best replies to each column have her payoff in
 * bold, Bob's best replies to each row have his in bold; pure Nash
 * equilibria (both bold) are shaded. Mixed equilibria are listed below.
 */
import {bestResponses, type Bimatrix} from "../lib/bimatrix.js";
import type {EquilibriaResult} from "../lib/equilibria.js";

export function MetaGameMatrix(game: Bimatrix & {n?: number[][]}, result: EquilibriaResult, {digits = 3}: {width?: number; digits?: number} = {}): HTMLElement {
  const root = document.createElement("div");
  if (!game.rows.length || !game.cols.length) {
    root.textContent = "No complete payoff table: no set of agents has games for every (Alice agent, Bob agent) pair of this family.";
    return root;
  }
  const {rowReplies, colReplies} = bestResponses(game);
  const pure = new Set(result.pure.map((e) => `${e.i},${e.j}`));
  const t = document.createElement("table");
  t.style.fontVariantNumeric = "tabular-nums";
  const head = document.createElement("tr");
  const corner = document.createElement("th");
  corner.textContent = "Alice ↓ / Bob →";
  head.append(corner);
  for (const c of game.cols) {
    const th = document.createElement("th");
    th.textContent = c;
    th.style.writingMode = "vertical-rl";
    th.style.transform = "rotate(180deg)";
    th.style.textAlign = "left";
    head.append(th);
  }
  const thead = document.createElement("thead");
  thead.append(head);
  const tbody = document.createElement("tbody");
  game.rows.forEach((r, i) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.textContent = r;
    tr.append(th);
    game.cols.forEach((_, j) => {
      const td = document.createElement("td");
      const a = document.createElement("span");
      const b = document.createElement("span");
      a.textContent = game.a[i][j].toFixed(digits);
      b.textContent = game.b[i][j].toFixed(digits);
      if (rowReplies[j].includes(i)) a.style.fontWeight = "700";
      if (colReplies[i].includes(j)) b.style.fontWeight = "700";
      td.append(a, " / ", b);
      td.style.whiteSpace = "nowrap";
      td.style.fontSize = "0.85em";
      if (pure.has(`${i},${j}`)) {
        td.style.background = "color-mix(in srgb, var(--theme-foreground-focus) 22%, transparent)";
        td.style.outline = "2px solid var(--theme-foreground-focus)";
      }
      td.title = `Alice ${r} vs Bob ${game.cols[j]}: Alice ${game.a[i][j].toFixed(4)}, Bob ${game.b[i][j].toFixed(4)}` +
        (game.n ? `, n = ${game.n[i][j]}` : "") +
        (rowReplies[j].includes(i) ? "\nAlice's best reply to this Bob" : "") +
        (colReplies[i].includes(j) ? "\nBob's best reply to this Alice" : "") +
        (pure.has(`${i},${j}`) ? "\npure Nash equilibrium" : "");
      tr.append(td);
    });
    tbody.append(tr);
  });
  t.append(thead, tbody);
  const wrap = document.createElement("div");
  wrap.style.overflowX = "auto";
  wrap.append(t);
  root.append(wrap);
  const summary = document.createElement("p");
  const pureText = result.pure.length ? result.pure.map((e) => `(${e.row}, ${e.col})`).join("; ") : "none";
  summary.textContent = `Pure equilibria: ${pureText}. Mixed equilibria: ${result.mixed.length} (${result.method}${result.complete ? ", complete" : ", possibly incomplete"}).` +
    (result.eliminated.rows.length || result.eliminated.cols.length
      ? ` Strictly dominated and removed: Alice ${result.eliminated.rows.join(", ") || "none"}; Bob ${result.eliminated.cols.join(", ") || "none"}.`
      : "");
  root.append(summary);
  if (result.mixed.length) {
    const list = document.createElement("ul");
    for (const e of result.mixed) {
      const li = document.createElement("li");
      const mix = (m: Record<string, number>) => Object.entries(m).map(([k, p]) => `${k} ${(100 * p).toFixed(1)}%`).join(", ");
      li.textContent = `Alice: ${mix(e.row)} · Bob: ${mix(e.col)} → payoffs ${e.a.toFixed(digits)} / ${e.b.toFixed(digits)}`;
      list.append(li);
    }
    root.append(list);
  }
  return root;
}
