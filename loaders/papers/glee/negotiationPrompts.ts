/**
 * The words GLEE's own code sends a language model in negotiation
 * (eilamshapira/GLEE @ 3c9efe031c4db60d8c6a03e17df01b9179b4f887, the stored
 * version closest to the data's commit d62fc869):
 * `games/negotiation/prompts/rules_prompt.json`, `offer_format.json` and
 * `offer_format_messages_unallowed.json`, filled in by
 * `games/negotiation/negotiation.py` (`construct_player_info`,
 * `build_next_rounds_info_seller` / `_buyer`, `get_offer_text`,
 * `get_proposer_text`, `get_receiver_text`, `get_response_text`), laid out
 * by `players/base_player.py` as in bargaining: the system message is the
 * rules, a newline and this turn's format; a turn's user message is what the
 * game added to the player's buffer since its last answer, stripped.
 *
 * Kept as the code has them: "worth no less then", "a product that worth no
 * more then", "Jhon" in the options and "John" in the rules, "the another
 * buyer"; a space before a line break after "… to Bob." and "… will be
 * $100."; round numbers only when the horizon is 2 to 20; the responder's
 * three options, the third trading with John at the player's own value
 * (Parley's negotiation has it as the decision "outside").
 *
 * One difference: with an untold horizon ("∞", played as 30 rounds) the
 * code words the last round's second option "(2) Reject Alice's offer",
 * which tells the responder the game ends there; Parley's observation does
 * not say which round is the cap, so every round reads "… proceed to the
 * next round …".
 */
import type {GleeObservation, NegotiationView, Player, PriceOffer} from "./types.js";
import {other} from "./types.js";
import {prettyNumber} from "./pythonNumbers.js";

const name = (p: Player) => (p === "alice" ? "Alice" : "Bob");
/** The number of rounds as the code's `max_rounds`: an untold horizon is long (the code tells nothing above 20). */
const rounds = (v: NegotiationView) => v.horizon ?? Infinity;
const told = (v: NegotiationView) => rounds(v) <= 20;
const roundLine = (v: NegotiationView, round: number) => (rounds(v) > 1 && told(v) ? `Round ${round}\n` : "");

function nextRounds(v: NegotiationView): string {
  const o = name(other(v.player));
  const value = prettyNumber(v.value_self);
  if (v.player === "alice") {
    if (rounds(v) === 1) return `If ${o} rejects the offer, you will sell the product to another buyer, John, who is willing to buy the product from you for $${value}.`;
    const start = `If ${o} rejects the offer, he can make a counteroffer to buy your product. You can either accept or reject his counteroffer. If you reject ${o}'s counteroffer, you can make a new counteroffer, and so on.\n`;
    const limit = told(v) ? `You have ${rounds(v)} rounds to close the deal. However, ` : "";
    return `${start}${limit}${told(v) ? "a" : "A"}t any moment, you can choose to stop the negotiation with ${o} and sell the product to another buyer, John, who is willing to buy the product from you for $${value}.`;
  }
  if (rounds(v) === 1) return `If you reject the offer, you will buy the product from another seller, John, who is willing to sell the product to you for $${value}.`;
  const start = `If you reject the offer, you can make a counteroffer to buy the product. ${o} can either accept or reject your counteroffer. If ${o} rejects your counteroffer, ${o} can make a new counteroffer, and so on. `;
  const limit = told(v) ? `\nYou have ${rounds(v)} rounds to close the deal. However, ` : "";
  return `${start}${limit}${told(v) ? "a" : "A"}t any moment, you can choose to stop the negotiation with ${o} and buy the product from another seller, John, who is willing to sell the product to you for $${value}.`;
}

/** `rules_prompt.json` filled in for the observing player. */
export function negotiationRules(v: NegotiationView): string {
  const p = name(v.player);
  const o = name(other(v.player));
  const known = v.value_other !== null ? `The product is worth $${prettyNumber(v.value_other)} to ${o}. ` : `You don't know the value of the product to ${o}. `;
  return v.player === "alice"
    ? `You are ${p}. You are selling one product that is worth no less then $${prettyNumber(v.value_self)} to you.\n${o} is a potential buyer to whom you are offering the product. ${known}\nYou will offer ${o} to buy the product at a price of your choice. ${o} can either accept or reject the offer.\nYour goal is to earn as much money as you can for the product.\n${nextRounds(v)}`
    : `You are playing as ${p}. You are looking for a product that worth no more then $${prettyNumber(v.value_self)} to you.\n${o} is a seller trying to sell you the product. ${known}\n${o} will offer you a price to buy the product. You can either accept the offer or reject it.\nYour goal is to buy some product but save as much money as you can.\n${nextRounds(v)}`;
}

/** The outside option's caption in the decision format. */
const outsideCaption = (p: Player) => (p === "alice" ? "SellToJhon" : "BuyFromJhon");

/** This turn's format: `offer_format*.json` for an offer (`get_offer_text`), `get_receiver_text`'s answer line for a decision. */
export function negotiationFormat(v: NegotiationView, round: number, decision: boolean): string {
  if (decision) return `Answer with {"decision": "AcceptOffer"}, or {"decision": "RejectOffer"}, or {"decision": "${outsideCaption(v.player)}"}`;
  const o = name(other(v.player));
  const seller = v.player === "alice";
  const kind = seller && round === 1 ? "offer" : "counteroffer";
  const goal = seller ? "sell" : "buy";
  return `Send your ${kind} in the format:\n{${v.messages ? `"message": Your message to ${o}, ` : ""}"product_price": The price you want to ${goal} the product for}`;
}

/** `get_receiver_text`: the offer and the three options. */
function receiverText(v: NegotiationView, offer: PriceOffer, round: number): string {
  const from = name(other(v.player));
  const price = prettyNumber(offer.price);
  const counter = round < rounds(v);
  const outside = v.player === "alice" ? `Sell the product to Jhon for $${prettyNumber(v.value_self)}` : `Buy the product from Jhon for $${prettyNumber(v.value_self)}`;
  return (
    `${roundLine(v, round)}${from}'s offer:` +
    (v.messages ? `\n# ${from}'s message: ${offer.message ?? ""} \n# ${from}'s offer:` : "") +
    ` The product price will be $${price}. \n` +
    "You have three options:\n" +
    `(1) Accept ${from}'s offer, and ${v.player === "alice" ? "sell the product" : "buy the product"} for $${price}\n` +
    (counter ? `(2) Reject ${from}'s offer and proceed to the next round, where you will send ${from} a counteroffer\n` : `(2) Reject ${from}'s offer\n`) +
    `(3) ${outside}\n`
  );
}

/** The user message of this turn: the buffer the authors' game filled since the player's `previous` observation, stripped. */
export function negotiationTurn(obs: GleeObservation, previous: GleeObservation | null): string {
  const v = obs.view as NegotiationView;
  const p = v.player;
  const o = name(other(p));
  let buffer = "";
  for (const e of v.history.since(previous ? previous.view.history.length : 0)) {
    if (e.action.type !== "decision" || (e.action as {decision: string}).decision !== "reject") continue;
    buffer += e.player === p ? `You chose to make a counteroffer to ${o}.\n\n` : `${o} rejected your offer from round ${e.round}.\n\n`;
  }
  const ask = obs.legal[0];
  if (ask?.type === "decision" && v.offer) buffer += receiverText(v, v.offer, obs.round);
  else if (ask) buffer += `${roundLine(v, obs.round)}Send your ${obs.round > 1 ? "counter" : ""}offer to ${o}. \n`;
  return buffer.trim();
}

/** The system message of this turn: the rules, a newline, this turn's format. */
export function negotiationSystem(obs: GleeObservation): string {
  const {rules, format} = negotiationSystemParts(obs);
  return format ? `${rules}\n${format}` : rules;
}

/** The two parts of negotiationSystem: the rules, the same all game, and this turn's format ("" when nothing is asked). */
export function negotiationSystemParts(obs: GleeObservation): {rules: string; format: string} {
  const v = obs.view as NegotiationView;
  return {rules: negotiationRules(v).trim(), format: obs.legal.length ? negotiationFormat(v, obs.round, obs.legal[0]!.type === "decision") : ""};
}

const DECISIONS: Record<string, string> = {acceptoffer: "accept", rejectoffer: "reject", selltojhon: "outside", buyfromjhon: "outside", dealwithjhon: "outside"};

/** The model's JSON in GLEE's keys (`product_price`; AcceptOffer, RejectOffer, SellToJhon, BuyFromJhon) as Parley's negotiation action. */
export function negotiationAction(json: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {...json};
  if ("product_price" in json && !("price" in json)) out.price = json.product_price;
  if (typeof json.decision === "string") out.decision = DECISIONS[json.decision.trim().toLowerCase()] ?? json.decision;
  return out;
}
