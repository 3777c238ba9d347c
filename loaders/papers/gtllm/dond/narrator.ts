/**
 * What a language model reads in Deal or No Deal (Game-theoretic LLM: Agent
 * Workflow for Negotiation Games (Hua et al. 2024) §5). The paper prints no
 * prompt; this follows the layout of the authors' repository
 * (`deal_no_deal.py`): one user prompt rebuilt from scratch every call under
 * the system prompt "You are a rational assistant that carefully answer the
 * question." (§6.3, L1059), with the game description and the seat's own
 * values, the negotiation so far, and the request: a message inside
 * `<s>…</s>` (`<s>halt negotiation</s>` ends the talk), then the deal as
 * `<deal>book=x hat=y ball=z</deal>`. The wording is ours.
 *
 * Replies are read from those tags, not JSON (`read`); a reply without them
 * is a rule break naming what was expected.
 */
import type {GameObservation} from "../../../contract/game.js";
import type {DondMessage, DondView} from "./game.js";
import {ITEMS} from "../../../../src/lib/dondAllocation.js";
import {bundleText} from "./agents.js";
import type {ChatMessage} from "../../../llm/types.js";
import type {Narrator, ReadReply} from "../../../contract/narrator.js";

export const DOND_SYSTEM = "You are a rational assistant that carefully answer the question.";

const NAMES = {alice: "Alice", bob: "Bob"} as const;

const other = (obs: GameObservation<DondView>) => (obs.seat === 0 ? "Bob" : "Alice");

export function dondIntroduction(obs: GameObservation<DondView>): string {
  const {counts, values, max_rounds} = obs.view;
  const me = obs.seat === 0 ? "Alice" : "Bob";
  const worth = ITEMS.map((item, k) => `a ${item} is worth ${values[k]}`).join(", ");
  return [
    "### Game Introduction",
    `You are ${me}, negotiating with ${other(obs)} to divide these items: ${bundleText(counts)}. Items cannot be split.`,
    `Your values: ${worth}. All the items together are worth 10 to you. ${other(obs)} values the items privately; the values may differ from yours.`,
    `You may negotiate for up to ${max_rounds} rounds; in each round Alice and then Bob send one message. Either of you may end the negotiation at any time by sending <s>halt negotiation</s>.`,
    `When the negotiation ends, each of you privately writes the deal you believe was agreed. If the two deals are compatible, each of you receives the value of the items in your own deal; if you come to disagreement, neither of you will obtain any reward.`,
  ].join("\n");
}

export function dondLog(log: readonly DondMessage[]): string {
  if (!log.length) return "### Negotiation Messages\n(none yet)";
  return ["### Negotiation Messages", ...log.map((m) => `${NAMES[m.speaker]}: ${m.halt ? "halt negotiation" : m.message}`)].join("\n");
}

function request(obs: GameObservation<DondView>): string {
  if (obs.view.phase === "talk") {
    return `### Your Turn\nWrite your next message to ${other(obs)} inside <s>…</s>. To end the negotiation, send <s>halt negotiation</s>.`;
  }
  const ended = obs.view.halted_by ? `${NAMES[obs.view.halted_by]} ended the negotiation.` : `The negotiation reached its ${obs.view.max_rounds}-round limit.`;
  return `### Your Deal\n${ended} Write the deal you believe was agreed, as the items you receive: <deal>book=x hat=y ball=z</deal>. If no deal was agreed, write <deal>no deal</deal>.`;
}

const retryText = (obs: GameObservation) => (obs.retry ? `\n\nYour previous answer broke the rules: ${obs.retry.error}. Answer again.` : "");

/** The last `<tag>…</tag>` of a reply (reasoning tags removed), or null. */
export function lastTag(raw: string, tag: string): string | null {
  const text = raw.replace(/<reasoning>[\s\S]*?(<\/reasoning>|$)/gi, " ");
  const all = [...text.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "gi"))];
  return all.length ? all[all.length - 1][1].trim() : null;
}

/** "book=1 hat=0 ball=2" as a share, "none"/"no deal" as null, anything else undefined (unreadable). */
export function parseShare(text: string): number[] | null | undefined {
  if (/^(no deal|none|no_deal)\.?$/i.test(text.trim())) return null;
  const share = ITEMS.map((item) => new RegExp(`\\b${item}s?\\s*[=:]\\s*(-?\\d+)`, "i").exec(text));
  return share.every(Boolean) ? share.map((m) => Number(m![1])) : undefined;
}

export const dondNarrator: Narrator<DondView> & {read: (raw: string, obs: GameObservation<DondView>) => ReadReply} = {
  messages(obs, _past, extra, notes) {
    const system = extra.trim() ? `${DOND_SYSTEM}\n\n${extra.trim()}` : DOND_SYSTEM;
    const parts = [dondIntroduction(obs), dondLog(obs.view.log)];
    if (notes) parts.push(notes);
    parts.push(request(obs) + retryText(obs));
    return [
      {role: "system", content: system},
      {role: "user", content: parts.join("\n\n")},
    ] satisfies ChatMessage[];
  },
  action(json) {
    return json;
  },
  read(raw, obs) {
    const reasoning = /<reasoning>([\s\S]*?)(<\/reasoning>|$)/i.exec(raw)?.[1]?.trim() || null;
    if (obs.view.phase === "talk") {
      const said = lastTag(raw, "s");
      if (said === null) return {reasoning, error: "expected your message inside <s>…</s>"};
      if (/^halt negotiation\.?$/i.test(said)) return {reasoning, action: {type: "halt"}};
      return {reasoning, action: {type: "message", message: said}};
    }
    const deal = lastTag(raw, "deal");
    const share = deal === null ? undefined : parseShare(deal);
    if (share === undefined) return {reasoning, error: "expected <deal>book=x hat=y ball=z</deal> or <deal>no deal</deal>"};
    return {reasoning, action: share ? {type: "deal", book: share[0], hat: share[1], ball: share[2]} : {type: "no_deal"}};
  },
};

// ---------------------------------------------------------------- the belief workflow's words (§5.2)

/**
 * The workflow's sub-question: which shares the last two messages proposed
 * (the seat's own previous message and the opponent's reply), so that the
 * belief update of Algorithm 1 can run on free text.
 */
export function dondOfferQuestion(obs: GameObservation<DondView>, mine: string | null, theirs: string): ChatMessage[] {
  const them = other(obs);
  const lines = [
    dondIntroduction(obs),
    "### Messages to read",
    `Your last message: ${mine ?? "(none)"}`,
    `${them}'s reply: ${theirs}`,
    "### Question",
    `Which division did each message propose? Write the items you asked for yourself in your last message as <my_offer>book=x hat=y ball=z</my_offer>, and the items ${them} asked for ${them === "Bob" ? "himself" : "herself"} in the reply as <their_offer>book=x hat=y ball=z</their_offer>. Write none inside a tag whose message proposed no complete division.`,
  ];
  return [
    {role: "system", content: DOND_SYSTEM},
    {role: "user", content: lines.join("\n\n")},
  ];
}

/** The two offers of a sub-question's answer, or why they cannot be read. */
export function readOffers(raw: string): {mine: number[] | null; theirs: number[] | null} | {error: string} {
  const mine = lastTag(raw, "my_offer");
  const theirs = lastTag(raw, "their_offer");
  const m = mine === null ? undefined : parseShare(mine);
  const t = theirs === null ? undefined : parseShare(theirs);
  if (m === undefined || t === undefined) return {error: "expected <my_offer>book=x hat=y ball=z</my_offer> and <their_offer>book=x hat=y ball=z</their_offer> (or none)"};
  return {mine: m, theirs: t};
}

export interface ReflectionFacts {
  /** Opponent valuations still possible, and how many the prior had. */
  belief: number[][];
  prior: number;
  /** The share the workflow would propose now, and P_EF of it. */
  plan: {share: number[]; p_ef: number} | null;
  /** The opponent's last offer as my share, whether the workflow would accept it. */
  offered: {share: number[]; worth: number; accept: boolean} | null;
}

/** The "workflow-aided reflection" placed before the request (the authors' repository injects its belief computations so). */
export function dondReflection(obs: GameObservation<DondView>, facts: ReflectionFacts): string {
  const them = other(obs);
  const lines = ["### Workflow-aided Reflection"];
  const list = facts.belief.map((w) => `(${w.join(", ")})`).join(", ");
  lines.push(`Assuming ${them} wants an agreement, maximises ${them === "Bob" ? "his" : "her"} own value and only proposes divisions ${them === "Bob" ? "he" : "she"} does not envy, ${facts.belief.length} of the ${facts.prior} possible valuations of ${them} (book, hat, ball) fit the proposals so far: ${list || "none"}.`);
  if (facts.offered) {
    lines.push(`${them}'s last offer gives you ${bundleText(facts.offered.share)}, worth ${facts.offered.worth} to you; the workflow ${facts.offered.accept ? "recommends accepting it (send <s>halt negotiation</s> after agreeing)" : "recommends not accepting it"}.`);
  }
  if (facts.plan) {
    lines.push(`The division you would not envy that is worth the most to you and that ${them} may accept: you take ${bundleText(facts.plan.share)} (${them} would not envy it under ${Math.round(facts.plan.p_ef * 100)}% of the valuations above).`);
  }
  return lines.join("\n");
}
