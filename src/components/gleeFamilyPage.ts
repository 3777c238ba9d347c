/**
 * Text and transcript lines of the three GLEE family pages. Their measures
 * are src/analyses/glee.ts's, asked by name; the rest of their SQL (agents,
 * a pair's games, a game's turns) is src/lib/pages/gleeFamily.ts's.
 */
import type {GleeFamily} from "../lib/gleeMetrics.js";

export interface GleeTurn {
  turn: number;
  round: number;
  player: string;
  action: string | null;
  alice_gain: number | null;
  bob_gain: number | null;
  price: number | null;
  claim: string | null;
  quality: string | null;
  message: string | null;
  decision: string | null;
  reasoning: string | null;
  rule_break: boolean | null;
  rule_break_reason: string | null;
}

const amount = (x: number) => (Math.round(x * 100) / 100).toLocaleString("en-US");

/**
 * Turns as transcript lines: what was done (offer, decision, claim) followed
 * by the free-text message. The text is shown by Transcript with textContent.
 */
export function transcriptLines(turns: GleeTurn[], family: GleeFamily): {turn: number; player: string; action: string; text: string; reasoning: string | null}[] {
  return turns.map((t) => {
    let what = "";
    if (t.rule_break) what = `[rule break${t.rule_break_reason ? `: ${t.rule_break_reason}` : ""}] `;
    if (t.action === "offer" && family === "bargaining") what += `round ${t.round}: offers Alice ${amount(t.alice_gain ?? NaN)}, Bob ${amount(t.bob_gain ?? NaN)}`;
    else if (t.action === "offer") what += `round ${t.round}: offers a price of ${amount(t.price ?? NaN)}`;
    else if (t.action === "decision" && family === "persuasion") what += `round ${t.round}: ${t.decision === "accept" ? "buys" : "does not buy"}`;
    else if (t.action === "decision") what += `round ${t.round}: ${t.decision ?? "?"}s`;
    else if (t.action === "message") what += `round ${t.round}${t.quality ? ` (quality ${t.quality})` : ""}: ${t.claim ? `claims ${t.claim} quality` : "sends a message"}`;
    else what += `round ${t.round}: ${t.action ?? "unreadable answer"}`;
    return {turn: t.turn, player: t.player, action: t.action ?? "", text: t.message ? `${what} — “${t.message}”` : what, reasoning: t.reasoning};
  });
}

/** What each family page says first: the game, its metrics, and who played (GLEE (Shapira et al. 2024) §2). */
export const FAMILY_TEXT: Record<GleeFamily, {title: string; intro: string; seats: string}> = {
  bargaining: {
    title: "GLEE: bargaining",
    intro:
      "Alice and Bob divide a sum M by alternating offers (Rubinstein): Alice proposes in odd rounds, Bob in even ones, and the other accepts or rejects. Money loses value each round at rates δ<sub>A</sub> and δ<sub>B</sub>, so delay is costly (GLEE (Shapira et al. 2024) §2.1). <b>Efficiency</b> is the discounted total δ<sub>A</sub><sup>t−1</sup>p + δ<sub>B</sub><sup>t−1</sup>(1−p) of an agreement on Alice's share p in round t, <b>fairness</b> is 1 − 4(p − ½)², and each side's <b>self-gain</b> is its share times its discount. Without agreement efficiency is 0, fairness 1 and both gains 0. T = ∞ is played as 99 rounds the players are not told (GLEE's own cap).",
    seats: "Alice proposes first.",
  },
  negotiation: {
    title: "GLEE: negotiation",
    intro:
      "Alice sells a product she values at V<sub>A</sub> = M·F<sub>A</sub> to Bob, who values it at V<sub>B</sub> = M·F<sub>B</sub>. They alternate prices, Alice first, without discounting (GLEE (Shapira et al. 2024) §2.2). <b>Efficiency</b> is 1 when a trade happens at a price between the two values, or when no trade happens and Alice values the product at least as much as Bob; otherwise 0. <b>Fairness</b> is 1 − 4((p − p<sub>f</sub>)/M)² around the fair price p<sub>f</sub> = (V<sub>A</sub> + V<sub>B</sub>)/2 (1 without a trade; clipped to [0, 1] here), and <b>self-gains</b> are (p − V<sub>A</sub>)/M and (V<sub>B</sub> − p)/M. T = ∞ is played as 30 rounds the players are not told (GLEE's own cap).",
    seats: "Alice is the seller, Bob the buyer.",
  },
  persuasion: {
    title: "GLEE: persuasion",
    intro:
      "In each of 20 rounds the product is of high quality with probability p; Alice sees it and sends a message (binary or free text), and Bob decides whether to buy at price 1 (GLEE (Shapira et al. 2024) §2.3). A high-quality product is worth v to Bob, a low-quality one 0. A long-living Bob sees every past round; myopic buyers see only the share of past rounds sold and sold at low quality. <b>Efficiency</b> is the share of high-quality rounds that sold (k/n), <b>fairness</b> the share of low-quality rounds that did not sell (r/(T − n)); Alice's <b>self-gain</b> is the share of rounds sold and Bob's is (k(v − 1) − low-quality purchases)/T. A game with no high-quality round has no efficiency (and one with no low-quality round no fairness): such games are left out of those averages.",
    seats: "Alice is the seller (sender), Bob the buyer.",
  },
};

/** The family's introduction as a paragraph (trusted constant markup: sub- and superscripts). */
export function FamilyIntro(family: GleeFamily): HTMLElement {
  const p = document.createElement("p");
  p.innerHTML = FAMILY_TEXT[family].intro;
  return p;
}

const METRIC_COLUMNS = ["efficiency", "fairness", "alice_self_gain", "bob_self_gain"];

/**
 * The columns of each family's games table (the rows of pairGamesSQL, src/lib/pages/gleeFamily.ts): the parameters that
 * tell the games apart first (one column each, GameFinder), as they are what tells the rows apart, then the outcome.
 */
export const GAME_COLUMNS: Record<GleeFamily, string[]> = {
  bargaining: ["parameters", "rounds", "ended_by", "agreement", "alice_gain", "bob_gain", ...METRIC_COLUMNS],
  negotiation: ["parameters", "rounds", "ended_by", "agreement", "price", ...METRIC_COLUMNS],
  persuasion: ["parameters", "sales", ...METRIC_COLUMNS],
};

export const GAME_HEADERS: Record<string, string> = {
  ended_by: "ended by", alice_gain: "Alice's payoff", bob_gain: "Bob's payoff", alice_self_gain: "Alice's self-gain", bob_self_gain: "Bob's self-gain",
};

/** What the chosen game's outcome line shows above its transcript. */
export const GAME_OUTCOME: Record<GleeFamily, {label: string; column: string; digits?: number}[]> = {
  bargaining: [{label: "ended by", column: "ended_by"}, {label: "rounds", column: "rounds"}, {label: "Alice's payoff", column: "alice_gain"}, {label: "Bob's payoff", column: "bob_gain"}, {label: "efficiency", column: "efficiency", digits: 3}, {label: "fairness", column: "fairness", digits: 3}, {label: "Alice's self-gain", column: "alice_self_gain", digits: 3}, {label: "Bob's self-gain", column: "bob_self_gain", digits: 3}],
  negotiation: [{label: "ended by", column: "ended_by"}, {label: "rounds", column: "rounds"}, {label: "price", column: "price"}, {label: "efficiency", column: "efficiency", digits: 3}, {label: "fairness", column: "fairness", digits: 3}, {label: "Alice's self-gain", column: "alice_self_gain", digits: 3}, {label: "Bob's self-gain", column: "bob_self_gain", digits: 3}],
  persuasion: [{label: "rounds sold", column: "sales"}, {label: "efficiency", column: "efficiency", digits: 3}, {label: "fairness", column: "fairness", digits: 3}, {label: "Alice's self-gain", column: "alice_self_gain", digits: 3}, {label: "Bob's self-gain", column: "bob_self_gain", digits: 3}],
};
