/**
 * The words GLEE's own code sends a language model in persuasion
 * (eilamshapira/GLEE @ 3c9efe031c4db60d8c6a03e17df01b9179b4f887, the stored
 * version closest to the data's commit d62fc869):
 * `games/persuasion/prompts/rules_prompt.json` and `format_prompt.json`,
 * filled in by `games/persuasion/persuasion.py` (`construct_player_info`,
 * `build_offer_prompt`, `generate_seller_text`, `generate_buyer_text`,
 * `generate_response_text`, `update_round`, `end_round`), laid out by
 * `players/base_player.py` as in bargaining: the system message is the
 * rules, a newline and the player's format; a turn's user message is what
 * the game added to the player's buffer since its last answer, stripped.
 *
 * Kept as the code has them: "$10000" unformatted in the seller's
 * introduction and "$10,000" elsewhere; "33.33%" for the seller and
 * "33.33% … 66.67%" for the buyer; "The buyers does not know … of high
 * quality.." and "selling recoder"; "didn't bought"; a myopic seller's
 * "the buyer left. waiting for the next buyer." (Python's `capitalize()`
 * on a string that starts with a newline); the binary seller's format with
 * a backslash and an "n" where a line break was meant; the myopic buyer's
 * "sold.You must decide" and "After making your decision,  you".
 *
 * Parley's persuasion actions keep their own names: the binary seller's
 * {"decision": "yes"} is the claim "high" (GLEE's "recommend"), "no" the
 * claim "low"; the text seller's "message" is the signal's text; the
 * buyer's "yes"/"no" are accept/reject (`persuasionAction`).
 */
import type {GleeObservation, PersuasionRound, PersuasionView, Signal} from "./types.js";
import {prettyNumber, pyCapitalize, pyStr} from "./pythonNumbers.js";

/** GLEE's `add_ordinal_suffix`: 1st, 2nd, 3rd, 4th, 11th, 21st. */
export function ordinal(n: number): string {
  const last = n % 10;
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : last === 1 ? "st" : last === 2 ? "nd" : last === 3 ? "rd" : "th";
  return `${n}${suffix}`;
}

const myopic = (v: PersuasionView) => v.buyer_type === "myopic";
/** The buyer's public name: "the buyer" in myopic games (the code renames player 2). */
const buyerName = (v: PersuasionView) => (myopic(v) ? "the buyer" : "Bob");
const qualityText = (q: string) => `${q}-quality`;

function sellerRules(v: PersuasionView): string {
  const m = myopic(v);
  const buyer = buyerName(v);
  const intro = `You are Alice, a seller trying to sell products to ${m ? "random buyers" : buyer} for $${pyStr(v.money)} each. ` + (m ? "We will relay your messages to the buyers." : `We will relay your messages to ${buyer}.`);
  const cv =
    v.value_high !== null
      ? `A high-quality product is worth $${prettyNumber(v.value_high * v.money)} to ${buyer}, and a low-quality product is worth only $${prettyNumber(0)} to them.`
      : `You do not know how much a high-quality product is worth to ${buyer}, nor do you know how much a low-quality product is worth to them.`;
  const v1 = m ? "random buyers" : `${buyer}, the buyer`;
  const v2 = m ? "the buyers" : buyer;
  const statistics = m ? " or about any specific previous product, but they have statistics about your selling recoder: how many products you have sold, and how many of them are of high quality." : "";
  return (
    `${intro} It is known that some of the products are high-quality and some are low-quality.\n` +
    `The probability that a product is high-quality is ${prettyNumber(v.prior * 100)}%, and ${buyer} knows this.\n` +
    `${cv}\n` +
    `For ${v.horizon} rounds, you will offer products to ${v1}. At the beginning of each round, you will discover whether the product is high-quality or low-quality. ${pyCapitalize(v2)} does not know this detail${statistics}. You can send any message you wish to ${v2}, and based only on this message, they will decide whether to buy the product or not. At the end of the round, ${v2} will discover the quality of the product.\n` +
    "The price is final, no discounts are allowed, and the product is non-refundable after purchase."
  );
}

function buyerRules(v: PersuasionView): string {
  const prior = myopic(v)
    ? "For each buyer, including yourself, Alice randomly selects a product and reveals its true quality. Based on the quality of the product, Alice then provides you with a recommendation regarding that specific product. Each buyer also have access to the seller’s previous sales record: how many potential buyers there have been, how many products were sold, and the proportion of high-quality products sold.You must decide whether to buy the product or pass on it. If you pass, the product will be discarded, and no one will be able to buy it. After making your decision, "
    : `For ${v.horizon} rounds, in each round, Alice will randomly choose one of the products she is selling, reveal its true quality, and then send you a recommendation regarding that product. You will decide whether to buy it or pass, in which case the product will be thrown away and no one will ever be able to buy it. At the end of the round,`;
  return (
    "Let's play a game.\n" +
    `Alice is a seller offering products for a fixed price of $${prettyNumber(v.money)}. You are ${myopic(v) ? "one of the buyers" : "Bob, the buyer"}.\n` +
    `Each product in the game has a ${(v.prior * 100).toFixed(2)}% chance of being high quality and a ${((1 - v.prior) * 100).toFixed(2)}% chance of being low quality.\n` +
    `A high-quality product is worth $${prettyNumber(v.value_high! * v.money)} to you, and a low-quality product is worth $${prettyNumber(0)} to you. Alice ${v.seller_knows_value ? "knows" : "does not know"} how much each product worth to you.\n` +
    `${prior} you will find out whether the product was of high quality or low quality.`
  );
}

/** `rules_prompt.json` filled in for the observing player. */
export const persuasionRules = (v: PersuasionView): string => (v.player === "alice" ? sellerRules(v) : buyerRules(v));

/** The player's format (`format_prompt.json`; the binary seller's "\\n" is a backslash and an n, as the file has it). */
export function persuasionFormat(v: PersuasionView): string {
  if (v.player === "bob") return `Answer in JSON format with {"decision": "yes"} or {"decision": "no"}`;
  return v.message_type === "text"
    ? `Send your message in JSON format:\n{"message": "Your message to ${buyerName(v)}"}`
    : `Would you recommend ${buyerName(v)} to buy the product?\\nAnswer in JSON with {"decision": "yes"} or {"decision": "no"}`;
}

/** `update_round`'s line to the seller, and a myopic buyer's leaving (`end_round`). */
function sellerResult(v: PersuasionView, r: PersuasionRound): string {
  const buyer = pyCapitalize(buyerName(v));
  return (r.bought ? `${buyer} bought the product!` : `${buyer} didn't bought the product.`) + (myopic(v) && r.round < v.horizon ? pyCapitalize(`\n${buyerName(v)} left. Waiting for the next buyer.`) : "") + "\n\n";
}

/** `update_round`'s lines to a long-living buyer. */
function buyerResult(v: PersuasionView, r: PersuasionRound): string {
  const worth = prettyNumber(r.quality === "high" ? v.value_high! * v.money : 0);
  return r.bought
    ? `You bought the product from Alice for $${prettyNumber(v.money)}!\nThe product was ${qualityText(r.quality)}. It's worth $${worth} for you.`
    : `You didn't buy the product from Alice.\nThe product was ${qualityText(r.quality)}. It could have been worth $${worth} for you.`;
}

/** What the buyer is told of Alice's message (`generate_buyer_text`). */
function signalText(v: PersuasionView, s: Signal): string {
  if (v.message_type === "text") return `Alice's message: ${s.text ?? ""}`;
  return s.claim === "high" ? "Alice recommends you to buy the product." : "Alice does not recommend you to buy the product.";
}

/** A myopic buyer's statistics line: past sales and high-quality sales, from the shares of past rounds. */
function statistics(v: PersuasionView): string {
  const sold = Math.round(v.stats.bought_share * v.stats.rounds);
  const soldHigh = sold - Math.round(v.stats.bought_low_share * v.stats.rounds);
  return sold
    ? `Statistics: Based on Alice's recommendations, ${sold} of the buyers purchased the products offered for them. So far, ${soldHigh} high-quality product have been sold. You can be the ${ordinal(sold + 1)} buyer!\n~`
    : "Statistics: No products have been sold yet. you can be the first one!\n~";
}

/** The user message of this turn: the buffer the authors' game filled since the player's `previous` observation, stripped. */
export function persuasionTurn(obs: GleeObservation, previous: GleeObservation | null): string {
  const v = obs.view as PersuasionView;
  const done = previous && previous.view.family === "persuasion" ? previous.view.past.length : 0;
  let buffer = "";
  if (v.player === "alice") {
    for (const r of v.past.slice(done)) buffer += sellerResult(v, r);
    if (obs.legal.length) {
      const ask = v.message_type === "text" ? `Send ${myopic(v) ? "the potential buyer" : buyerName(v)} a message to help them decide whether to buy the product.` : `Decide whether to recommend ${buyerName(v)} to buy the product.`;
      buffer += `Round ${obs.round}\nThis round's product is ${qualityText(v.quality!)}.\n${myopic(v) ? "A new potential buyer has arrived!\n" : ""}${ask}`;
    }
    return buffer.trim();
  }
  for (const r of v.past.slice(done)) buffer += buyerResult(v, r);
  if (obs.legal.length) buffer += `${myopic(v) ? statistics(v) : `\n\nRound ${obs.round}`}\n${signalText(v, v.signal!)}\n\nWould you like to buy the current product? \n`;
  return buffer.trim();
}

/** The model's JSON in GLEE's own keys as Parley's persuasion action (Parley's own keys pass through unchanged). */
export function persuasionAction(json: Record<string, unknown>, v: PersuasionView): Record<string, unknown> {
  const decision = typeof json.decision === "string" ? json.decision.trim().toLowerCase() : null;
  if (v.player === "bob") return decision === "yes" ? {decision: "accept"} : decision === "no" ? {decision: "reject"} : json;
  if (v.message_type === "text") return "message" in json && !("text" in json) ? {text: json.message} : json;
  return decision === "yes" ? {claim: "high"} : decision === "no" ? {claim: "low"} : json;
}
