/**
 * The Economics Arena narrators: the prompts of Economics Arena (Guo et al.
 * 2024), Appendix B, filled from each seat's view
 * (loaders/papers/econarena/views.ts). The authors' code is not available,
 * so the paper's printed prompts are the only evidence, and the default is
 * their text byte for byte (test/unit/econarenaAuthorsPrompts.test.ts checks
 * it against test/fixtures/authors-prompts/econarena/), typos included
 * ("included you", "other are all perfectly rational players", B.3's
 * "palyers", "has been hold").
 *
 * Layout: SYSTEM the one-sentence role ("act as a clever game player" /
 * "a smart auction bidder", "perform as rationally as possible"); USER one
 * message (§3.1: "all relevant game information in a single prompt", every
 * run a single-round dialogue): the bullet-list rules (plus "you can assume
 * that other(s) are all perfectly rational" in the rational and cot
 * environments), then, in a run after the first of a history session, the
 * history of the last ≤ 3 runs as JSON with B.4's / B.8's words, and the
 * JSON request (cot: "Let's think step by step." and the shorter key list;
 * B.8's first run: "Please output a JSON string", without "just strictly").
 * Paragraphs and lists are separated by one blank line, as the text of
 * Appendix B prints them. The English and first-price auctions, which the
 * paper names or leaves out without a prompt, add Parley's own rules lines
 * and (English) the clock's price with a "stay" or "drop" request.
 *
 * Answers are JSON; every key the request names must be there (a missing
 * key is a rule break naming it; "reason" goes to turns.reasoning unchecked) and the answer's number must be a number;
 * whether it is in range is the game's rule (out of range: a rule break).
 */
import type {GameObservation} from "../../contract/game.js";
import type {AuctionRunSeen, AuctionView, BeautyView, SessionTold} from "./views.js";
import {numberField} from "../../llm/parseReply.js";
import {jsonPreview} from "../../../src/lib/untrustedJson.js";
import type {ChatMessage} from "../../llm/types.js";
import {retryMessage, systemWithExtra} from "../gamabench/narrators.js";
import type {Narrator} from "../../contract/narrator.js";

/** A requested key: its name as the model must write it, and its line in the request. */
type Key = [name: string, line: string];

const BEAUTY_KEYS = {
  understanding: ["understanding", "str, your brief understanding of the game"],
  popular: ["popular answer", "float, the number which you think other players are most likely to choose"],
  answer: ["answer", "float, the number which you would like to choose"],
  reason: ["reason", "str, the brief reason why you give the popular answer and the answer that way"],
  goal: ["goal", "str, briefly check if you still remember what goal you should achieve in the game"],
  previous: ["previous answer", "float, the number which you chose in the last run"],
  adjusted: ["answer", "float, the number which you would like to adjust your choice to"],
  adjustReason: ["reason", "str, the brief reason why you adjust the answer that way"],
} satisfies Record<string, Key>;

const AUCTION_KEYS = {
  understanding: ["understanding", "str, your brief understanding of the auction"],
  bid: ["bid", "float, the bid which you would like to place"],
  reason: ["reason", "str, the brief reason why you place the bid that way"],
  goal: ["goal", "str, briefly check if you still remember what goal you should achieve in the game"],
  previousBid: ["previous bid", "float, the bid which you placed in the last run"],
  previousPayoff: ["previous payoff", "float, the payoff which you got in the last run"],
  adjusted: ["bid", "float, the bid which you would like to adjust to"],
  adjustReason: ["reason", "str, the brief reason why you adjust the bid that way"],
  decision: ["decision", 'str, "stay" to stay in at the current price or "drop" to drop out'],
  decisionReason: ["reason", "str, the brief reason for your decision"],
} satisfies Record<string, Key>;

const keyLines = (keys: readonly Key[]) => keys.map(([k, line]) => `- ${k}: ${line}`).join("\n");

/**
 * The JSON request: strict (B.1), for a new run (B.4), after thinking step by
 * step (B.3), or, in the first run of a history session of the auction, B.8's
 * plain "Please output".
 */
function request(keys: readonly Key[], v: SessionTold, kind: "game" | "auction"): string {
  const later = v.run > 1 && v.history_window > 0;
  const what = later ? "a JSON string for a new run" : "a JSON string";
  if (v.chain_of_thought) return `Let's think step by step.\n\nAfter that, please output ${what}, which has following keys:\n\n${keyLines(keys)}`;
  const firstOfHistory = kind === "auction" && v.run === 1 && v.runs > 1 && v.history_window > 0;
  return `${firstOfHistory ? "Please output" : "Please just strictly output"} ${what}, which has following keys:\n\n${keyLines(keys)}`;
}

/** The numbers as the prompts show them: whole numbers bare, others to at most 6 decimals. */
export const num = (x: number): string => String(Number(x.toFixed(6)));

/** Which keys are asked now. */
interface Ask {
  keys: Key[];
  /** The key holding the answer's number (or the clock decision). */
  answer: string;
}

/** SYSTEM; one USER message: the rules, any news (the history, the clock) and the request (§3.1's single prompt). */
function conversation(system: string, extra: string, rules: string, news: readonly string[], ask: Ask, kind: "game" | "auction", v: SessionTold, o: GameObservation): ChatMessage[] {
  const messages: ChatMessage[] = [
    {role: "system", content: systemWithExtra(system, extra)},
    {role: "user", content: [rules, ...news, request(ask.keys, v, kind)].join("\n\n")},
  ];
  if (o.retry) messages.push({role: "user", content: retryMessage(o.retry.error, `Output a JSON string with the keys ${ask.keys.map(([k]) => `"${k}"`).join(", ")}.`)});
  return messages;
}

/**
 * Why the reply's JSON is not an answer: a requested key is missing, or the
 * answer is not a number. "reason" is not checked: the LLM player moves it
 * into turns.reasoning before the narrator sees the JSON (llmAgent.ts splitReply).
 */
function checkKeys(json: Record<string, unknown>, ask: Ask, numeric: boolean): string | null {
  const missing = ask.keys.map(([k]) => k).filter((k) => k !== "reason" && !(k in json));
  if (missing.length) return `missing key${missing.length > 1 ? "s" : ""} ${missing.map((k) => `"${k}"`).join(", ")}`;
  if (numeric && numberField(json[ask.answer]) === null) return `"${ask.answer}": expected a number, got ${jsonPreview(json[ask.answer])}`;
  return null;
}

// ---------------------------------------------------------------- beauty contest

const beautyRules = (v: BeautyView) =>
  `You are playing a game and the rules are as follows:

- it consists of ${v.n_players} players, including you.
- this is a one-round game.
- you need to choose a real number between 0 and ${num(v.upper_bound)}, 0 and ${num(v.upper_bound)} inclusive.
- everyone does not know how others would make choices beforehand.
- the winner is the person whose number is the closest to the two thirds of the average of all chosen numbers.
- the winner gets a fixed prize, in case of a tie the prize is split amongst those who tie.
- your goal is primarily to maximize the possibility of getting the prize and secondly to maximize the your prize.${v.told_rational ? `\n- you can assume that other are all perfectly rational ${v.chain_of_thought ? "palyers" : "players"}.` : ""}`;

/** The history as JSON: each shown run's choices of everyone, by id (B.4). */
export const beautyHistory = (v: BeautyView) => JSON.stringify(v.history.map((r) => ({run: r.run, choices: Object.fromEntries(r.answers.map((a, id) => [String(id), a]))})));

const historyIntro = (kind: "game" | "auction", v: SessionTold, seat: number, json: string) =>
  kind === "game"
    ? `The game of the same config has been hold for ${v.run - 1} run(s), and the historical choices of everyone are shown below (your id is ${seat}): ${json}\n\nEveryone can optimize his/her answer with the history to play in a new run in order to achieve goals.`
    : `The auction of the same configuration has been hold for ${v.run - 1} run(s), and the historical information of everyone are shown below (your id is ${seat}): ${json}\n\nEveryone can optimize his/her bid with the history to place bid in a new run in order to achieve the goal.\n\nNotice that everyone's original asset and private value will stay unchanged.`;

function beautyAsk(v: BeautyView): Ask {
  const K = BEAUTY_KEYS;
  if (v.run > 1 && v.history.length) return {keys: [K.goal, K.previous, K.adjusted, K.adjustReason], answer: "answer"};
  return {keys: v.chain_of_thought ? [K.popular, K.answer] : [K.understanding, K.popular, K.answer, K.reason], answer: "answer"};
}

/** Why neither game offers another source of words. */
const ONE_SOURCE = {
  paper: "its default words already are the paper's, Appendix B as printed",
  code: "the authors' code could not be had, so the paper's printed prompts are the only evidence",
} as const;

const beauty: Narrator<BeautyView> = {
  promptNotes: ONE_SOURCE,
  messages(o, _past, extra) {
    const v = o.view;
    const history = v.run > 1 && v.history.length ? [historyIntro("game", v, o.seat, beautyHistory(v))] : [];
    return conversation("I want you to act as a clever game player and perform as rationally as possible.", extra, beautyRules(v), history, beautyAsk(v), "game", v, o);
  },
  check: (json, o) => checkKeys(json, beautyAsk(o.view), true),
  action(json) {
    const popular = numberField(json["popular answer"]);
    return {type: "choose", amount: numberField(json.answer), ...(popular !== null && {popular_answer: popular})};
  },
};

// ---------------------------------------------------------------- auctions

function auctionRules(v: AuctionView): string {
  const lines = [
    `You are participating in an auction and the rules are as follows:\n`,
    `- it consists of ${v.n_players} bidders, included you.`,
    `- this is a one-round auction.`,
    `- there is only 1 item, and your private value of the item is ${num(v.value)} units(private values may vary among bidders).`,
    `- you have ${num(v.assets)} units of assets, and you need to place a bid which is not higher than your assets.`,
    `- everyone does not know either private value of others or how others would make choices beforehand.`,
  ];
  if (v.pricing === "second") lines.push(`- the bidder who places the highest bid among all the bids will get the item(others will not), and only need to pay an amount of assets equalling to the second-highest bid among all the bids.`);
  if (v.pricing === "first") {
    // First price: the equilibrium bid depends on the value distribution, so it is told (the paper has no first-price prompt).
    lines.push(
      `- private values are drawn independently from a normal distribution with mean ${num(v.value_mean)} and standard deviation ${num(v.value_sd)}.`,
      `- the bidder who places the highest bid among all the bids will get the item(others will not), and need to pay an amount of assets equalling to his/her own bid.`,
    );
  }
  if (v.pricing === "english") {
    const inc = num(v.clock?.increment ?? 0);
    lines.push(
      `- the auction is an ascending clock: the price starts at ${inc} units and rises by ${inc} units at each step.`,
      `- at each price, every bidder still in decides to stay (willing to pay the current price) or to drop out; dropping out is final, and you may not stay in at a price higher than your assets.`,
      `- when only one bidder stays in, it gets the item(others will not) and pays the current price; if all bidders still in drop out at the same price, the one with the minimal id among them gets the item and pays the previous price.`,
    );
  }
  if (v.pricing !== "english") lines.push(`- if there are multiple highest bid, only the bidder with the minimal id will get the item.`);
  lines.push(`- if you get the item, your payoff equals to your remaining assets(=assets deducting payment) plus your private value, otherwise your payoff equals to your original assets.`);
  if (v.told_rational) lines.push(`- your goal is to maximize your overall payoffs(notice that getting the item is not necessary)`, `- you can assume that others are all perfectly rational bidders.`);
  else lines.push(`- your goal is to maximize your overall payoffs(notice that getting the item is not necessary) considering the situation unpredictable.`);
  return lines.join("\n");
}

/** The history as JSON: each shown run's bids, private values, winner, price and payoffs of everyone, by id (B.8). */
export const auctionHistory = (v: AuctionView) =>
  JSON.stringify(v.history.map((r: AuctionRunSeen) => {
    const byId = <T>(xs: readonly T[]) => Object.fromEntries(xs.map((x, id) => [String(id), x]));
    return {run: r.run, bids: byId(r.bids), "private values": byId(r.values), winner: r.winner, price: r.price, payoffs: byId(r.payoffs)};
  }));

function auctionAsk(v: AuctionView): Ask {
  const K = AUCTION_KEYS;
  if (v.clock) return {keys: [K.decision, K.decisionReason], answer: "decision"};
  if (v.run > 1 && v.history.length) return {keys: [K.goal, K.previousBid, K.previousPayoff, K.adjusted, K.adjustReason], answer: "bid"};
  return {keys: v.chain_of_thought ? [K.bid] : [K.understanding, K.bid, K.reason], answer: "bid"};
}

const auction: Narrator<AuctionView> = {
  promptNotes: ONE_SOURCE,
  messages(o, _past, extra) {
    const v = o.view;
    const news = v.run > 1 && v.history.length ? [historyIntro("auction", v, o.seat, auctionHistory(v))] : [];
    if (v.clock) news.push(`The clock price is now ${num(v.clock.price)} units, and the bidders still in are (ids) ${JSON.stringify(v.clock.active)} (your id is ${o.seat}).`);
    return conversation("I want you to act as a smart auction bidder and perform as rationally as possible.", extra, auctionRules(v), news, auctionAsk(v), "auction", v, o);
  },
  check: (json, o) => checkKeys(json, auctionAsk(o.view), !o.view.clock),
  action(json, o) {
    if (o.view.clock) return {type: "clock", choice: typeof json.decision === "string" ? json.decision.trim().toLowerCase() : json.decision};
    return {type: "bid", amount: numberField(json.bid)};
  },
};

export const econarenaNarrators: Record<string, Narrator> = {
  "econarena/beauty_contest": beauty as Narrator,
  "econarena/auction": auction as Narrator,
};
