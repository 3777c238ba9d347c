/**
 * What a language model reads in Deal or No Deal (Game-theoretic LLM: Agent
 * Workflow for Negotiation Games (Hua et al. 2024) §5). The paper prints no
 * prompt; these are the bytes of the authors' repository (Wenyueh/game_theory
 * at b05314e, src/deal_no_deal/deal_no_deal.py: `game_setting` without
 * `--special_prompting`, `initial_negotiation_message`, `present_deal`),
 * checked against the requests their code sends
 * (test/fixtures/authors-prompts/gtllm/dond.json): one user prompt rebuilt
 * from scratch every call, with the game description and the seat's own
 * values, the request, and the negotiation so far; then the deal as
 * `<deal>book=x hat=y ball=z</deal>`.
 *
 * The system prompt is §6.3's "You are a rational assistant that carefully
 * answer the question."; the repository's Deal or No Deal script sends the
 * bare word "rational" (its `--system_prompt` default is never wrapped in
 * the sentence), which `prompts: "code"` reproduces. After an unreadable
 * answer the request says what was wrong (the repository asks again with
 * the same prompt).
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
/** The system prompt the repository's deal_no_deal.py sends (`prompts: "code"`). */
export const DOND_SYSTEM_CODE = "rational";

const NAMES = {alice: "Alice", bob: "Bob"} as const;

const other = (obs: GameObservation<DondView>) => (obs.seat === 0 ? "Bob" : "Alice");

/** The repository's `game_description` ("### Game Description" and "### Item Values to You"), typos kept. */
export function dondIntroduction(obs: GameObservation<DondView>): string {
  const {counts, values} = obs.view;
  const me = obs.seat === 0 ? "Alice" : "Bob";
  const them = other(obs);
  const total = counts.reduce((t, c, k) => t + c * values[k], 0);
  return `
### Game Description

This is a negotiation game. There are ${counts[0]} books, ${counts[1]} hats, and ${counts[2]} balls in total. 
Each item has a value (range minimum 0 - maximum 10) to you and ${them} which is unknown to you and can be very different from yours.
And you only know that sum of all values of all items to both playes is 10.
Thus do not assume the value of the items to ${them} is the same as yours.

Your goal is to MAXIMIZE the total VALUE you alone can obtain by taking the items after negotiation (NOTICE THAT SINGLE ITEM CANNOT BE SPLITTED).
You need to negotiate with ${them} to decide which and how many items you and your partner ${them} will each get.
DO NOT REVEAL your values of the items to ${them} through out the game.
Notice that if you come to disagreement on the negotiation, neither of you will obtain any reward.

You are playing the role of ${me}. The player you negotiate with is ${them}.

### Item Values to You

There are ${counts[0]} books whose values to you are ${values[0]}. There are ${counts[1]} hats whose values to you are ${values[1]}. There are ${counts[2]} balls whose values to you are ${values[2]}.

Thus, the highest total value you could obtain is ${total} by taking all items.
`;
}

/** One line of the talk as the repository logs it; a halt is its text "halt negotiation" (after a scripted agent's own words, if any). */
const logLine = (m: DondMessage) => `${NAMES[m.speaker]} ${m.seat === 0 ? "said" : "replied"} in round ${m.round}: ${m.halt ? `${m.message ? `${m.message} ` : ""}halt negotiation` : m.message}`;

/** "## The previous rounds of negotiation are presented below:" and the log (the heading comes even when the log is empty, before the deal). */
export const dondLog = (log: readonly DondMessage[]): string => `\n\n## The previous rounds of negotiation are presented below:\n\n${log.map(logLine).join("\n")}`;

const negotiation = (obs: GameObservation<DondView>) => `

### Negotiation

You can negotiate with ${other(obs)} to MAXIMIZE the total value you can obtain. You have a maximum of ${obs.view.max_rounds} rounds to negotiate.
Analyze the situation and decide on what to say to the other player.

Surround your message with '<s>' and '</s>' to indicate the start and end of your message. For example, '<s>Hi, how are you?</s>'.
You can also choose the halt the negotiation by saying '<s>halt negotiation</s>'.
Especially, if you have come to an agreement, say '<s>halt negotiation</s>' to end the negotiation.

Remember, do not reveal your values of the items to the other player through out the game.
`;

const PRESENT_DEAL = `
### Present Deal

You have finished the negotiation. Now, you need to present the deal to the other player.
You need to present which and how many items you will get based on your negotiation.
Write down the number of books, hats, and balls you want to get in the format of <deal>book=x hat=y ball=z</deal>, where x, y, and z are the number of books, hats, and balls you want to get, respectively.
`;

/** The user prompt: `initial_negotiation_message` while talking (a workflow's `notes` go where the repository puts its `extra_prompt`), `present_deal` after. */
export function dondPrompt(obs: GameObservation<DondView>, notes: string | null | undefined): string {
  const {phase, log} = obs.view;
  if (phase === "talk") return `${dondIntroduction(obs)}${notes ?? ""}${negotiation(obs)}${log.length ? dondLog(log) : ""}`;
  return `${dondIntroduction(obs)}${dondLog(log)}${PRESENT_DEAL}`;
}

const retryText = (obs: GameObservation) => (obs.retry ? `\n\nYour previous answer broke the rules: ${obs.retry.error}. Answer again.` : "");

/**
 * The last `<tag>…</tag>` of a reply (reasoning tags removed), or null: from
 * left to right, each opening tag pairs with the next closing one, and
 * scanning goes on after it. Each search starts where the last ended, so a
 * reply of a thousand unclosed tags reads in linear time.
 */
export function lastTag(raw: string, tag: string): string | null {
  const text = raw.replace(/<reasoning>[\s\S]*?(<\/reasoning>|$)/gi, " ");
  const open = new RegExp(`<${tag}>`, "gi");
  const close = new RegExp(`</${tag}>`, "gi");
  let last: string | null = null;
  for (;;) {
    const o = open.exec(text);
    if (!o) break;
    close.lastIndex = open.lastIndex;
    const c = close.exec(text);
    if (!c) break;
    last = text.slice(open.lastIndex, c.index);
    open.lastIndex = close.lastIndex;
  }
  return last === null ? null : last.trim();
}

/** "book=1 hat=0 ball=2" as a share, "none"/"no deal" as null, anything else undefined (unreadable). */
export function parseShare(text: string): number[] | null | undefined {
  if (/^(no deal|none|no_deal)\.?$/i.test(text.trim())) return null;
  const share = ITEMS.map((item) => new RegExp(`\\b${item}s?\\s*[=:]\\s*(-?\\d+)`, "i").exec(text));
  return share.every(Boolean) ? share.map((m) => Number(m![1])) : undefined;
}

export const dondNarrator: Narrator<DondView> & {read: (raw: string, obs: GameObservation<DondView>) => ReadReply} = {
  /** "code": the system prompt the authors' script sends (the bare word "rational"). */
  prompts: ["code"],
  promptNotes: {
    code: "the system message the authors' script sends, the bare word \"rational\"",
    paper: "the paper prints none of Deal or No Deal's prompts (the default words are the authors' code's, with §6.3's system sentence)",
  },
  messages(obs, _past, extra, notes, player) {
    const base = player?.prompts === "code" ? DOND_SYSTEM_CODE : DOND_SYSTEM;
    const system = extra.trim() ? `${base}\n\n${extra.trim()}` : base;
    return [
      {role: "system", content: system},
      {role: "user", content: dondPrompt(obs, notes) + retryText(obs)},
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
    dondIntroduction(obs).trim(),
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
  const lines = ["\n\n### Workflow-aided Reflection"];
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
