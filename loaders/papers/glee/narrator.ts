/**
 * What a language model reads in GLEE's three families (GLEE (Shapira et al.
 * 2024) Appendix D.2), built from the structured observation the game gives
 * (loaders/papers/glee/types.ts `Observation`): the system message with the rules,
 * the message of each turn (everything that happened since this player's
 * previous turn, then what to do now) and the JSON format of each action.
 * The games hold no prompt text; the GLEE LLM player (../llmAgent.ts) asks
 * this module for it.
 */
import {lossPercent, money} from "../../contract/legal.js";
import type {ActionSpec, BargainingView, NegotiationView, Observation, PersuasionRound, PersuasionView, Player, PriceOffer, Signal, SplitOffer} from "./types.js";
import {other} from "./types.js";

const name = (p: Player) => (p === "alice" ? "Alice" : "Bob");
const gainKey = (p: Player) => (p === "alice" ? "alice_gain" : "bob_gain");
const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
const fmtP = (p: number) => (Math.abs(p - 1 / 3) < 1e-9 ? "1/3" : String(p));

/** The system message's rules for the observing player. */
export function gleeRules(obs: Observation): string {
  const p = obs.player;
  const o = other(p);
  switch (obs.family) {
    case "bargaining": {
      const v = obs.view as BargainingView;
      return [
        `Let's play a game. In this game, there are two players. You are playing as ${name(p)}.`,
        `You and ${name(o)} need to divide ${money(v.money)} between you.`,
        `In each round of the game, one of the players will make a proposal for division${v.messages ? " and can describe their proposal in a few words" : ""}.`,
        `The other player will decide whether to accept the offer and finish the game, or to proceed to the next round, in which they will be the one making the proposal.`,
        v.messages ? `We will relay messages between you and ${name(o)}.` : "",
        `Beware of inflation! With each passing round, the money is worth ${lossPercent(v.delta_self)} less for you.`,
        v.delta_other !== null ? `For ${name(o)}, the money is worth ${lossPercent(v.delta_other)} less.` : "",
        v.horizon === null ? "" : `You have ${v.horizon} rounds to divide the money, or both of you will get nothing!`,
      ].filter(Boolean).join(" ");
    }
    case "negotiation": {
      const v = obs.view as NegotiationView;
      const role = (x: Player) => (x === "alice" ? "seller" : "buyer");
      return [
        `You are playing as ${name(p)}, the ${role(p)}, in a negotiation over the price of a product.`,
        p === "alice" ? `You own the product, and it is worth ${money(v.value_self)} to you. Bob is a potential buyer.` : `Alice is selling the product. It is worth ${money(v.value_self)} to you.`,
        v.value_other !== null ? `The product is worth ${money(v.value_other)} to ${name(o)}.` : "",
        `In each round, one of you proposes a price${v.messages ? " and can attach a message" : ""}, and the other decides whether to accept it (and trade) or reject it and move to the next round, in which they will propose. Alice proposes first.`,
        p === "alice" ? `If you sell at price p you gain p minus your value.` : `If you buy at price p you gain your value minus p.`,
        `If no deal is made, both of you gain nothing.`,
        v.horizon === null ? "" : `You have ${v.horizon} round${v.horizon === 1 ? "" : "s"} to reach a deal.`,
      ].filter(Boolean).join(" ");
    }
    case "persuasion": {
      const v = obs.view as PersuasionView;
      const known = v.value_high !== null;
      const common = known
        ? `The product is of high quality with probability ${fmtP(v.prior)} in each round, independently. A high-quality product is worth ${money(v.value_high! * v.money)} to the buyer and a low-quality product is worth $0.`
        : `The product is of high quality with probability ${fmtP(v.prior)} in each round, independently. A low-quality product is worth $0 to the buyer.`;
      if (p === "alice")
        return [
          `You are playing as Alice, a seller. In each of ${v.horizon} rounds you offer a product to a buyer for ${money(v.money)}.`,
          `Before each round you learn the product's quality, and you send the buyer ${v.message_type === "binary" ? "a message saying whether it is of high or low quality" : "a message"}. Then the buyer decides whether to buy.`,
          common,
          `You gain 1 point for every round in which the buyer buys, whatever the quality.`,
          v.buyer_type === "myopic" ? `Every round has a new buyer, who only sees statistics of past rounds.` : `The same buyer plays all rounds and sees what happened in each of them.`,
        ].join(" ");
      return [
        v.buyer_type === "myopic"
          ? `You are playing as a buyer in one round of a market that lasts ${v.horizon} rounds. Alice sells a product for ${money(v.money)}.`
          : `You are playing as Bob, a buyer. In each of ${v.horizon} rounds Alice offers you a product for ${money(v.money)}.`,
        common,
        `Alice knows the quality and sends you a message before you decide whether to buy. After your decision the quality is revealed.`,
        `Your gain is the product's worth minus the price if you buy, and $0 if you do not.`,
      ].join(" ");
    }
  }
}

/** The JSON format a model is asked to answer in, for one legal action. */
export function gleeFormat(spec: ActionSpec, obs: Observation): string {
  const p = obs.player;
  if (spec.type === "decision") return obs.family === "persuasion" ? `{"decision": "accept"} to buy or {"decision": "reject"} not to buy` : `{"decision": "accept"} or {"decision": "reject"}`;
  if (spec.type === "message") {
    return (obs.view as PersuasionView).message_type === "binary"
      ? `{"claim": "high"} or {"claim": "low"} (what you tell the buyer about the product's quality)`
      : `{"text": The message you send to the buyer}`;
  }
  if (obs.family === "bargaining") {
    const v = obs.view as BargainingView;
    return (
      `Send your offer to divide ${money(v.money)} in the JSON format:\n` +
      `{"${gainKey(p)}": The part that you will receive in your offer, "${gainKey(other(p))}": The part that ${name(other(p))} will receive in your offer` +
      (v.messages ? `, "message": The message you pass to ${name(other(p))}}` : "}")
    );
  }
  const v = obs.view as NegotiationView;
  return `Send your offer in the JSON format:\n{"price": The price you offer${v.messages ? `, "message": The message you pass to ${name(other(p))}` : ""}}`;
}

/** What the responder is told about an offer. */
function describeOffer(obs: Observation, offer: SplitOffer | PriceOffer, from: Player, round: number): string {
  if (obs.family === "bargaining") {
    const split = offer as SplitOffer;
    return [
      `Round ${round}`,
      `${name(from)}'s offer:`,
      split.message ? `# ${name(from)}'s message: ${split.message}` : "",
      `# ${name(other(from))} gain: ${money(split[gainKey(other(from))])}`,
      `# ${name(from)} gain: ${money(split[gainKey(from)])}`,
    ].filter(Boolean).join("\n");
  }
  const price = offer as PriceOffer;
  return [`Round ${round}`, `${name(from)}'s offer:`, price.message ? `# ${name(from)}'s message: ${price.message}` : "", `# Price: ${money(price.price)}`].filter(Boolean).join("\n");
}

/** Bargaining's note at the start of a round about what inflation has done (nothing in round 1, nothing in negotiation). */
function roundNotice(obs: Observation, round: number): string {
  if (obs.family !== "bargaining" || round === 1) return "";
  const v = obs.view as BargainingView;
  const own = v.delta_self === 1 ? "The money you gain is worth the same as in the first round." : `Due to inflation, the money you gain is worth ${lossPercent(v.delta_self ** (round - 1))} less than in the first round.`;
  const theirs = v.delta_other !== null ? ` For ${name(other(obs.player))}, the money is worth ${lossPercent(v.delta_other ** (round - 1))} less than in the first round.` : "";
  return own + theirs;
}

/** Persuasion's public line after each round's decision. */
const roundResult = (r: PersuasionRound) => `Round ${r.round}: the buyer ${r.bought ? "bought" : "did not buy"}; the product was of ${r.quality} quality.`;

function describeSignal(s: Signal): string {
  if (s.text) return s.text;
  return s.claim === "high" ? "The product is of high quality." : "The product is of low quality.";
}

/**
 * The message of this turn: everything that happened since the player's
 * `previous` observation (null at its first turn), then what to do now
 * (D.2: "all the information accumulated since its previous turn").
 */
export function gleeUpdate(obs: Observation, previous: Observation | null): string {
  const p = obs.player;
  const lines: string[] = [];
  const seen = previous ? previous.history.length : 0;
  if (obs.family === "persuasion") {
    const v = obs.view as PersuasionView;
    const myopicBob = p === "bob" && v.buyer_type === "myopic";
    if (!myopicBob) {
      const done = previous ? (previous.view as PersuasionView).past.length : 0;
      for (const r of v.past.slice(done)) lines.push(roundResult(r));
    }
    let text = "";
    if (obs.legal.length && p === "alice") text = `Round ${obs.round}\nThe product is of ${v.quality} quality. Send your message to the buyer.\n${gleeFormat(obs.legal[0], obs)}`;
    if (obs.legal.length && p === "bob") text = `Round ${obs.round}\nAlice's message: ${describeSignal(v.signal!)}\nDo you buy the product for ${money(v.money)}?\n${gleeFormat(obs.legal[0], obs)}`;
    if (obs.legal.length && myopicBob && v.stats.rounds)
      text = `So far, the product was bought in ${pct(v.stats.bought_share)} of ${v.stats.rounds} rounds, and a low-quality product was bought in ${pct(v.stats.bought_low_share)} of them.\n` + text;
    return [...lines, text].filter(Boolean).join("\n");
  }
  const o = other(p);
  for (const e of obs.history.slice(seen)) {
    if (e.action.type === "offer") {
      if (e.player !== p) lines.push(describeOffer(obs, e.action as SplitOffer | PriceOffer, e.player, e.round));
      continue;
    }
    const decision = (e.action as {decision: string}).decision;
    if (e.player === p) {
      if (decision === "reject") lines.push(`You have chosen to reject ${name(o)}'s offer from round ${e.round}.`, roundNotice(obs, e.round + 1));
    } else {
      lines.push(`${name(e.player)} ${decision === "accept" ? "accepted" : "rejected"} your offer from round ${e.round}.`);
      if (decision === "reject") lines.push(roundNotice(obs, e.round + 1));
    }
  }
  const messages = (obs.view as BargainingView | NegotiationView).messages;
  const request = !obs.legal.length
    ? ""
    : obs.legal[0].type === "offer"
      ? `Round ${obs.round}\nSend your offer${messages ? " and a message" : ""} to ${name(o)}.\n` + gleeFormat(obs.legal[0], obs)
      : `Do you accept this offer?\n${gleeFormat(obs.legal[0], obs)}`;
  return [...lines, request].filter(Boolean).join("\n");
}
