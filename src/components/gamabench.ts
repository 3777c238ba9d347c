/**
 * gamma-Bench views (gamma-Bench (Huang et al. 2024)): the leaderboard
 * (Tables 1–2), the per-run table (Table 5) and round-by-round charts in the
 * manner of Figure 2. Tables are built with textContent only; charts are Plot
 * figures. Every function takes plain rows (from src/lib/gamabench.ts SQL or
 * the turns/rounds tables) and returns a DOM node, and copes with empty input
 * (dataset absent).
 */
import * as Plot from "@observablehq/plot";
import {plot} from "./figure.js";
import {GAMABENCH_GAMES, LEADERBOARD_GAMES, gameLabel, modelLabel, type GameScoreRow, type SummaryRow} from "../lib/gamabench.js";

type Row = Record<string, any>;

const fmt = (x: number | null | undefined) => (x === null || x === undefined || Number.isNaN(x) ? "–" : x.toFixed(1));

function table(head: string[], body: (string | {text: string; strong?: boolean; title?: string})[][], caption?: string): HTMLTableElement {
  const t = document.createElement("table");
  t.className = "parley-scores";
  if (caption) {
    const c = document.createElement("caption");
    c.textContent = caption;
    t.append(c);
  }
  const thead = document.createElement("thead");
  const hr = document.createElement("tr");
  for (const h of head) {
    const th = document.createElement("th");
    th.textContent = h;
    hr.append(th);
  }
  thead.append(hr);
  const tbody = document.createElement("tbody");
  for (const row of body) {
    const tr = document.createElement("tr");
    row.forEach((cell, i) => {
      const td = document.createElement(i === 0 ? "th" : "td");
      const c = typeof cell === "string" ? {text: cell} : cell;
      td.textContent = c.text;
      if (c.strong) td.style.fontWeight = "bold";
      if (c.title) td.title = c.title;
      tr.append(td);
    });
    tbody.append(tr);
  }
  t.append(thead, tbody);
  return t;
}

/** Tables 1–2: one column per model, one row per leaderboard game plus Overall, cells "mean ± sd". Best per row in bold. */
export function ScoreTable(summary: SummaryRow[], {models, caption}: {models: string[]; caption?: string}): HTMLElement {
  if (!models.length) {
    const p = document.createElement("p");
    p.textContent = "No scored models in this build.";
    return p;
  }
  const cell = (model: string, game: string) => summary.find((r) => r.model === model && r.game === game);
  const rows = [...LEADERBOARD_GAMES, "overall"].map((game) => {
    const best = Math.max(...models.map((m) => cell(m, game)?.mean ?? -Infinity));
    return [
      game === "overall" ? "Overall" : gameLabel(game),
      ...models.map((m) => {
        const c = cell(m, game);
        return c ? {text: `${fmt(c.mean)} ± ${fmt(c.sd)}`, strong: c.mean === best, title: `${c.runs} run(s)`} : "–";
      }),
    ];
  });
  return table(["γ-Bench", ...models.map(modelLabel)], rows, caption);
}

/** Table 5: one row per game (all ten variants) plus Overall, one column per run, then mean ± sd. */
export function RunTable(scores: GameScoreRow[], overall: {run: number; overall: number}[], summary: SummaryRow[], {model}: {model: string}): HTMLElement {
  const mine = scores.filter((s) => s.model === model);
  const runs = [...new Set(mine.map((s) => s.run))].sort((a, b) => a - b);
  if (!runs.length) {
    const p = document.createElement("p");
    p.textContent = "No runs for this model in this build.";
    return p;
  }
  const games = GAMABENCH_GAMES.map((g) => g.id).filter((g) => mine.some((s) => s.game === g));
  const rows = games.map((game) => {
    const s = summary.find((r) => r.model === model && r.game === game);
    return [gameLabel(game), ...runs.map((run) => fmt(mine.find((x) => x.game === game && x.run === run)?.score)), s ? `${fmt(s.mean)} ± ${fmt(s.sd)}` : "–"];
  });
  const o = summary.find((r) => r.model === model && r.game === "overall");
  rows.push(["Overall", ...runs.map((run) => fmt(overall.find((x) => x.run === run)?.overall)), o ? `${fmt(o.mean)} ± ${fmt(o.sd)}` : "–"]);
  return table(["Tests", ...runs.map((r) => `T${r}`), "Avg ± Std"], rows);
}

/** Overall score per model as horizontal bars with ± sd whiskers. */
export function OverallBars(summary: SummaryRow[], {width = 640} = {}): SVGSVGElement | HTMLElement {
  const data = summary.filter((r) => r.game === "overall").map((r) => ({...r, label: modelLabel(r.model), lo: r.mean - (r.sd ?? 0), hi: r.mean + (r.sd ?? 0)}));
  return plot({
    // Framework's `width` is 0 before the page is laid out; margins would make bars negative.
    width: Math.max(width, 320),
    height: 40 + 24 * Math.max(1, data.length),
    marginLeft: 130,
    x: {domain: [0, 100], label: "overall score (0–100) →", grid: true},
    y: {label: null, domain: data.sort((a, b) => b.mean - a.mean).map((d) => d.label)},
    marks: [
      Plot.barX(data, {x: "mean", y: "label", fill: "steelblue"}),
      Plot.ruleY(data, {x1: "lo", x2: "hi", y: "label", stroke: "black"}),
      Plot.text(data, {x: "mean", y: "label", text: (d) => d.mean.toFixed(1), dx: 14, textAnchor: "start"}),
    ],
  });
}

interface ChartOptions {
  width?: number;
  /** The game's row of the games table (parameters). */
  game: Row | undefined;
}

/**
 * One round-by-round chart for a game, as in gamma-Bench (Huang et al. 2024) Figure 2:
 * guessing game (choices, mean, target), El Farol (share going vs R),
 * divide the dollar (bids and their sum vs G), public goods (contributions),
 * diner's dilemma (share of cheap dishes), sealed-bid auction (valuation − bid).
 * `turns` are the game's decisions (round, seat, amount, valuation), `rounds` its rows of the rounds table.
 */
export function RoundChart(kind: string, turns: Row[], rounds: Row[], {width = 640, game}: ChartOptions): SVGSVGElement | HTMLElement {
  const base = {width: Math.max(width, 320), height: 260, x: {label: "round →", ticks: 10, tickFormat: "d"}, color: {legend: true}} as const;
  switch (kind) {
    case "guessing_game": {
      const lines = rounds.flatMap((r) => [
        {round: r.round, value: r.mean, series: "average"},
        {round: r.round, value: r.target, series: "target (R × average)"},
      ]);
      return plot({
        ...base,
        y: {label: "↑ chosen number", domain: [game?.param_min ?? 0, game?.param_max ?? 100], grid: true},
        marks: [Plot.dot(turns, {x: "round", y: "amount", r: 2, fill: "#bbb"}), Plot.line(lines, {x: "round", y: "value", stroke: "series", marker: "dot"})],
      });
    }
    case "bar_game_explicit":
    case "bar_game_implicit": {
      const data = rounds.map((r) => ({round: r.round, share: r.n_active ? r.n_yes / r.n_active : null}));
      return plot({
        ...base,
        y: {label: "↑ share going to the bar", domain: [0, 1], tickFormat: "%", grid: true},
        marks: [Plot.ruleY([game?.ratio ?? 0.6], {stroke: "red", strokeDasharray: "4 3"}), Plot.line(data, {x: "round", y: "share", marker: "dot"})],
      });
    }
    case "divide_dollar":
      return plot({
        ...base,
        y: {label: "↑ golds", grid: true},
        marks: [
          Plot.barY(turns, {x: "round", y: "amount", fill: "seat", fillOpacity: 0.7, title: (d: Row) => `player ${d.seat}: ${d.amount}`}),
          Plot.ruleY([game?.gold ?? 100], {stroke: "red", strokeDasharray: "4 3"}),
        ],
        x: {label: "round →", type: "band"},
        color: {type: "ordinal", scheme: "tableau10", legend: false},
      });
    case "public_goods": {
      const mean = rounds.map((r) => ({round: r.round, mean: r.mean}));
      return plot({
        ...base,
        y: {label: "↑ tokens contributed", domain: [0, game?.tokens ?? 20], grid: true},
        marks: [Plot.dot(turns, {x: "round", y: "amount", r: 2, fill: "#bbb"}), Plot.line(mean, {x: "round", y: "mean", marker: "dot", stroke: "steelblue"})],
      });
    }
    case "diner_dilemma": {
      const data = rounds.map((r) => ({round: r.round, share: r.n_active ? r.n_yes / r.n_active : null}));
      return plot({
        ...base,
        y: {label: "↑ share choosing the cheap dish", domain: [0, 1], tickFormat: "%", grid: true},
        marks: [Plot.line(data, {x: "round", y: "share", marker: "dot"})],
      });
    }
    case "sealed_bid_auction_first_price":
    case "sealed_bid_auction_second_price": {
      const gap = turns.map((t) => ({round: t.round, gap: t.valuation - t.amount, seat: t.seat}));
      return plot({
        ...base,
        y: {label: "↑ valuation − bid", grid: true},
        marks: [Plot.ruleY([0]), Plot.dot(gap, {x: "round", y: "gap", r: 2, fill: "#bbb"}), Plot.line(gap, Plot.groupX({y: "mean"}, {x: "round", y: "gap", marker: "dot", stroke: "steelblue"}))],
      });
    }
    default: {
      const p = document.createElement("p");
      p.textContent = `No round chart for ${gameLabel(kind)}.`;
      return p;
    }
  }
}

/**
 * gamma-Bench (Huang et al. 2024) Table 3: each pirate proposal, who got what and how each pirate voted.
 * `votes` are the game's "vote" turns (round, seat, position, allocation, choice); the proposer (position 1) is in bold.
 */
export function PirateTable(votes: Row[], {pirates}: {pirates: number}): HTMLElement {
  const rounds = [...new Set(votes.map((p) => p.round))].sort((a, b) => a - b);
  if (!rounds.length) {
    const p = document.createElement("p");
    p.textContent = "No pirate game for this model and run.";
    return p;
  }
  const body = rounds.map((r) => [
    `Round ${r}`,
    ...Array.from({length: pirates}, (_, k) => {
      const p = votes.find((x) => x.round === r && x.seat === k);
      return p ? {text: `${p.allocation} ${p.choice === "accept" ? "✓" : p.choice === "reject" ? "✗" : "?"}`, strong: p.position === 1} : "–";
    }),
  ]);
  return table(["Pirate rank", ...Array.from({length: pirates}, (_, k) => String(k + 1))], body);
}
