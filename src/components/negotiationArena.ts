/**
 * Charts and text of the NegotiationArena pages (NegotiationArena (Bianchi
 * et al. 2024)): Figure 3's P2-row × P1-column grids, correlation scatters
 * (Figs. 8a and 17), the acceptance curve (Fig. 9), and transcripts that
 * keep each message's hidden reasoning apart from its public part.
 */
import * as Plot from "@observablehq/plot";
import {plot} from "./figure.js";
import type {Correlation, NaScenario, PairStatsRow} from "../lib/negotiationArena.js";
import {Transcript} from "./transcript.js";

export interface ScenarioText {
  scenario: NaScenario;
  game: string;
  title: string;
  /** Which player Figure 3 reports for this scenario. */
  seat: 1 | 2;
  intro: string;
  figure: string;
}

export const SCENARIOS: Record<string, ScenarioText> = {
  "resource-exchange": {
    scenario: "resource_exchange",
    game: "negotiationarena/resource_exchange",
    title: "Resource exchange",
    seat: 2,
    intro:
      "Player RED starts with 25 X and 5 Y, Player BLUE with 5 X and 25 Y; both are told that more resources are always better (Table 1). Over 8 turns either may accept the other's standing trade, propose a new one (at most 3 each) or wait. A trade only moves units between them, so one player's gain is the other's loss: the payoff is the change in a player's total, and two rational traders never trade. The paper finds that the second mover tends to win (§3).",
    figure: "Figure 3a reports Player 2 (BLUE): its win rate with ties left out, and its mean payoff.",
  },
  ultimatum: {
    scenario: "ultimatum",
    game: "negotiationarena/ultimatum",
    title: "Multi-turn ultimatum",
    seat: 1,
    intro:
      "Player RED holds $100 and proposes how much to give Player BLUE; over 8 turns either may accept the other's proposal, counter, or reject, which leaves both with nothing (Table 2). The player holding the last move may only accept or reject, so by backward induction the second-to-last mover keeps $99: RED with 8 turns, BLUE with an odd number. The paper finds that the first mover almost always wins (§3).",
    figure: "Figure 3b reports Player 1 (RED): its win rate (keeping more than half) with ties left out, and its mean payoff.",
  },
  "buy-sell": {
    scenario: "buy_sell",
    game: "negotiationarena/buy_sell",
    title: "Seller and buyer",
    seat: 2,
    intro:
      "Player RED sells one object that cost it 40 ZUP to make; Player BLUE holds 100 ZUP and would pay at most 60 (Table 3). Each knows only its own valuation. Over 10 turns they propose prices (at most 4 each), until one accepts or rejects. The seller earns price − 40 and the buyer 60 − price, so a price under the midpoint 50 is the buyer's win; in the paper the final price is usually under 50 (§3, Figure 4).",
    figure: "Figure 4 reports the buyer's payoff, willingness to pay − price; the grid gives Player 2 (BLUE, the buyer).",
  },
};

const NAMES = {red: "Player RED", blue: "Player BLUE"};

function empty(text: string): HTMLElement {
  const p = document.createElement("p");
  p.textContent = text;
  return p;
}

/**
 * Figure 3's grid: one cell per ordered pair, rows P2's agent, columns P1's;
 * colour the reported player's win rate (ties left out), text "win% / mean
 * payoff". A pair whose games were all ties shows "ties" and no colour.
 */
export function PairGrid(rows: PairStatsRow[], {seat, width = 640}: {seat: 1 | 2; width?: number}): HTMLElement | SVGSVGElement {
  if (!rows.length) return empty("No games of this scenario in this build.");
  const win = (r: PairStatsRow) => (seat === 1 ? r.p1_win_rate : r.p2_win_rate);
  const pay = (r: PairStatsRow) => (seat === 1 ? r.p1_mean_payoff : r.p2_mean_payoff);
  const p1 = [...new Set(rows.map((r) => r.p1_agent))].sort();
  const p2 = [...new Set(rows.map((r) => r.p2_agent))].sort();
  const cell = Math.max(40, Math.min(90, (width - 220) / Math.max(1, p1.length)));
  const label = (r: PairStatsRow) => `${win(r) === null ? "ties" : `${Math.round(100 * win(r)!)}%`} / ${pay(r).toFixed(1)}`;
  return plot({
    width: Math.min(width, 220 + cell * p1.length + 40),
    height: 120 + 0.6 * cell * p2.length,
    marginLeft: 200,
    marginBottom: 100,
    padding: 0.05,
    x: {label: "Player 1 (RED) →", domain: p1, tickRotate: -30},
    y: {label: "Player 2 (BLUE)", domain: p2},
    color: {type: "linear", domain: [0, 1], scheme: "RdBu", legend: true, label: `Player ${seat}'s win rate (ties left out)`},
    marks: [
      Plot.cell(rows, {x: "p1_agent", y: "p2_agent", fill: (r: PairStatsRow) => win(r) ?? undefined, stroke: "#ccc", inset: 0.5}),
      Plot.text(rows, {x: "p1_agent", y: "p2_agent", text: label, fontSize: 11, fill: (r: PairStatsRow) => (win(r) !== null && Math.abs(win(r)! - 0.5) > 0.3 ? "white" : "black")}),
      Plot.tip(rows, Plot.pointer({
        x: "p1_agent", y: "p2_agent",
        title: (r: PairStatsRow) => `P1 ${r.p1_agent} vs P2 ${r.p2_agent}\n${r.n} games, ${r.decisive} decisive\nP${seat} win rate ${win(r) === null ? "–" : win(r)!.toFixed(3)}\nP${seat} mean payoff ${pay(r).toFixed(2)}`,
      })),
    ],
  });
}

/** One line summarising a correlation: r, its interval and n. */
export function correlationText(name: string, c: Correlation): string {
  if (c.r === null) return `${name}: not defined (${c.n} points; a side is constant or there are too few).`;
  const interval = c.low === null ? "" : `, ${Math.round(c.level * 100)}% interval [${c.low.toFixed(3)}, ${c.high!.toFixed(3)}]`;
  return `${name} = ${c.r.toFixed(3)}${interval}, n = ${c.n}.`;
}

/** A scatter of `points` with the identity line, as Figs. 8a and 17 draw them. */
export function CorrelationScatter<T extends Record<string, number>>(points: T[], {x, y, xLabel, yLabel, width = 640}: {x: keyof T & string; y: keyof T & string; xLabel: string; yLabel: string; width?: number}): HTMLElement | SVGSVGElement {
  if (!points.length) return empty("No points to show.");
  const values = points.flatMap((p) => [p[x], p[y]]);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return plot({
    width: Math.min(width, 560),
    height: 380,
    grid: true,
    x: {label: xLabel, domain: [lo, hi]},
    y: {label: yLabel, domain: [lo, hi]},
    marks: [
      Plot.line([[lo, lo], [hi, hi]], {stroke: "#bbb", strokeDasharray: "4 3"}),
      Plot.dot(points, {x, y, r: 3, fillOpacity: 0.5, fill: "steelblue"}),
    ],
  });
}

/** Fig. 9: P̂(Accept | amount), one line per deciding agent, a panel per number of turns. */
export function AcceptanceCurve(rows: {iterations: number; p2_agent: string; amount: number; p_accept: number; n: number}[], {width = 640} = {}): HTMLElement | SVGSVGElement {
  if (!rows.length) return empty("No injected offers in this build (data/runs/negotiationarena-acceptance.json plays them).");
  const data = rows.map((r) => ({...r, variant: r.iterations === 2 ? "classical (2 turns): BLUE decides" : r.iterations === 3 ? "3 turns: RED decides" : `${r.iterations} turns`}));
  return plot({
    width,
    height: 320,
    grid: true,
    x: {label: "amount offered to the decider →"},
    y: {label: "↑ P(accept)", domain: [0, 1]},
    fx: {label: null},
    color: {legend: true, label: "agents"},
    symbol: {legend: true},
    marks: [
      Plot.line(data, {fx: "variant", x: "amount", y: "p_accept", stroke: "p2_agent"}),
      // Symbols too: agents that decide alike (rational, split-difference) draw the same line.
      Plot.dot(data, {fx: "variant", x: "amount", y: "p_accept", stroke: "p2_agent", symbol: "p2_agent", r: 4}),
      Plot.tip(data, Plot.pointer({fx: "variant", x: "amount", y: "p_accept", title: (d) => `${d.p2_agent}: ${d.amount} offered, accepted ${Math.round(d.p_accept * d.n)} of ${d.n}`})),
    ],
  });
}

/** A game's messages: the public part (answer, trade, message) as text, the hidden reasoning folded beneath. */
export function ArenaTranscript(turns: {turn: number; seat: number; action: string | null; trade: string | null; message: string | null; reasoning: string | null; rule_break: boolean | null; rule_break_reason: string | null}[]): HTMLElement {
  return Transcript(
    turns.map((t) => {
      const trade = t.trade ? ` ${tradeLine(t.trade)}` : "";
      const broke = t.rule_break ? ` [rule break: ${t.rule_break_reason ?? ""}]` : "";
      return {turn: t.turn, player: t.seat === 0 ? "red" : "blue", action: "message", text: `${t.action ?? "?"}${trade}${broke}${t.message ? `: ${t.message}` : ""}`, reasoning: t.reasoning};
    }),
    {names: NAMES},
  );
}

/** {"RED": {"X": 10}, "BLUE": {"Y": 3}} -> "RED gives X: 10 | BLUE gives Y: 3". */
export function tradeLine(json: string): string {
  try {
    const t = JSON.parse(json) as Record<string, Record<string, number>>;
    return Object.entries(t).map(([who, gives]) => `${who} gives ${Object.entries(gives).map(([k, v]) => `${k}: ${v}`).join(", ") || "nothing"}`).join(" | ");
  } catch {
    return json;
  }
}
