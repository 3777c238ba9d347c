/**
 * A scripted "model" for the fake LLM servers that plays GLEE games from
 * the prompt text alone, the way a language model has to: it reads the
 * format asked for (in the system message in bargaining, as GLEE's own code
 * puts it; in the last user message otherwise) and answers it.
 *
 *   offers     an even split ("Send your offer to divide $M" or "M$"), or a price of
 *              `price` in negotiation (GLEE's "product_price");
 *   decisions  reject in round 1, accept from round 2 on;
 *   persuasion recommends (binary: the claim "high") or sends a short text;
 *              a long-living buyer buys from round 2 on, a myopic one (told no round) always.
 *
 * Replies are wrapped in a ```json fence with a line of prose, as models do.
 * `misbehave` can replace the answer for requests it picks (by content, so
 * the script is the same whatever order concurrent games arrive in).
 */
import type {FakeRequest, Reply, Responder} from "./fakeLlm.js";

export interface GleeBotOptions {
  price?: number;
  delayMs?: number;
  misbehave?: (request: FakeRequest) => Reply | null;
}

export function gleeBot(options: GleeBotOptions = {}): Responder {
  return (request) => {
    const special = options.misbehave?.(request);
    if (special) return special;
    const json = answer(`${request.system}\n${request.lastUser}`, options.price ?? 50);
    return {text: `Here is my answer.\n\`\`\`json\n${JSON.stringify(json)}\n\`\`\``, delayMs: options.delayMs ?? 0};
  };
}

/** The last "Round N" mentioned in `text`, or 1. */
export function roundOf(text: string): number {
  const all = [...text.matchAll(/Round (\d+)/g)];
  return all.length ? Number(all[all.length - 1]![1]) : 1;
}

function answer(ask: string, price: number): Record<string, unknown> {
  // Persuasion in GLEE's own words: the binary seller is asked whether to recommend (yes is the claim "high"),
  // the text seller for a message, the buyer for yes or no.
  if (ask.includes("Would you recommend")) return {decision: "yes"};
  if (ask.includes('{"message": "Your message to')) return {message: "This product is excellent."};
  if (ask.includes('{"decision": "yes"}')) return {decision: roundOf(ask) >= 2 || ask.includes("Statistics:") ? "yes" : "no"};
  // Negotiation in GLEE's own words: AcceptOffer / RejectOffer, and a "product_price".
  if (ask.includes('"AcceptOffer"')) return {decision: roundOf(ask) >= 2 ? "AcceptOffer" : "RejectOffer"};
  if (ask.includes('"decision"')) return {decision: roundOf(ask) >= 2 ? "accept" : "reject"};
  const divide = /divide \$?(\d[\d,.]*)/.exec(ask); // "$1,000" in the round's request, "1,000$" in GLEE's format
  if (divide && ask.includes("_gain")) {
    const m = Number(divide[1]!.replace(/,/g, ""));
    return {alice_gain: m / 2, bob_gain: m / 2, message: "Let's split it evenly."};
  }
  if (ask.includes('"product_price"')) return {message: "A fair price.", product_price: price};
  if (ask.includes('"claim"')) return {claim: "high"};
  if (ask.includes('"text"')) return {text: "This product is excellent."};
  return {};
}
