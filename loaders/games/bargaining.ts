/**
 * Bargaining (GLEE (Shapira et al. 2024) §2.1): Alice and Bob divide M by alternating offers
 * (Rubinstein). An offer accepted in round t gives (Alice, Bob) utilities
 * M·(δ_A^(t−1)·p, δ_B^(t−1)·(1−p)) where p is Alice's share; no agreement
 * gives (0, 0). Table 1: δ_A, δ_B ∈ {0.8, 0.9, 0.95, 1}, M ∈ {1e2, 1e4, 1e6},
 * T ∈ {12, ∞}, complete information, messages → 384 configurations.
 *
 * "∞" is played as BARGAINING_INFINITE_CAP = 99 rounds, the `max_rounds`
 * GLEE's released human-vs-LLM bargaining configs use for T = ∞; players are
 * not told it (view.horizon is null) and games.horizon_cap records it.
 */
import {AlternatingOffers, emptyOutcome, toldHorizon, type OfferRules} from "./alternating.js";
import {lossPercent, money} from "./legal.js";
import type {BargainingParams, GameFamily, Player} from "./types.js";
import {other} from "./types.js";

export const BARGAINING_INFINITE_CAP = 99;

const name = (p: Player) => (p === "alice" ? "Alice" : "Bob");

function rules(params: BargainingParams): OfferRules<"bargaining"> {
  const M = params.money;
  const delta = (p: Player) => (p === "alice" ? params.delta_a : params.delta_b);
  const gainKey = (p: Player) => (p === "alice" ? "alice_gain" : "bob_gain");
  return {
    family: "bargaining",
    proposerRole: () => "proposer",
    responderRole: () => "responder",
    offerSpec: (p) => ({
      type: "offer",
      numbers: {alice_gain: {min: 0, max: M}, bob_gain: {min: 0, max: M}},
      sum: {fields: ["alice_gain", "bob_gain"], equals: M},
      text: params.messages ? {field: "message", required: false} : null,
      format:
        `Send your offer to divide ${money(M)} in the JSON format:\n` +
        `{"${gainKey(p)}": The part that you will receive in your offer, "${gainKey(other(p))}": The part that ${name(other(p))} will receive in your offer` +
        (params.messages ? `, "message": The message you pass to ${name(other(p))}}` : "}"),
    }),
    view: (p, offer) => ({
      money: M,
      delta_self: delta(p),
      delta_other: params.complete_information ? delta(other(p)) : null,
      horizon: toldHorizon(params.horizon),
      messages: params.messages,
      offer,
    }),
    rules: (p) => {
      const o = other(p);
      return [
        `Let's play a game. In this game, there are two players. You are playing as ${name(p)}.`,
        `You and ${name(o)} need to divide ${money(M)} between you.`,
        `In each round of the game, one of the players will make a proposal for division${params.messages ? " and can describe their proposal in a few words" : ""}.`,
        `The other player will decide whether to accept the offer and finish the game, or to proceed to the next round, in which they will be the one making the proposal.`,
        params.messages ? `We will relay messages between you and ${name(o)}.` : "",
        `Beware of inflation! With each passing round, the money is worth ${lossPercent(delta(p))} less for you.`,
        params.complete_information ? `For ${name(o)}, the money is worth ${lossPercent(delta(o))} less.` : "",
        params.horizon === "inf" ? "" : `You have ${params.horizon} rounds to divide the money, or both of you will get nothing!`,
      ].filter(Boolean).join(" ");
    },
    describeOffer: (offer, from, round) =>
      [
        `Round ${round}`,
        `${name(from)}'s offer:`,
        offer.message ? `# ${name(from)}'s message: ${offer.message}` : "",
        `# ${name(other(from))} gain: ${money(offer[gainKey(other(from))])}`,
        `# ${name(from)} gain: ${money(offer[gainKey(from)])}`,
      ].filter(Boolean).join("\n"),
    roundNotice: (p, round) => {
      if (round === 1) return "";
      const o = other(p);
      const own = delta(p) === 1 ? "The money you gain is worth the same as in the first round." : `Due to inflation, the money you gain is worth ${lossPercent(delta(p) ** (round - 1))} less than in the first round.`;
      const theirs = params.complete_information ? ` For ${name(o)}, the money is worth ${lossPercent(delta(o) ** (round - 1))} less than in the first round.` : "";
      return own + theirs;
    },
    outcome: (accepted, rounds, endedBy) => {
      const o = emptyOutcome(rounds, endedBy);
      o.agreement = accepted !== null;
      if (!accepted) return {...o, alice_utility: 0, bob_utility: 0};
      const t = accepted.round;
      const share = accepted.offer.alice_gain / M;
      return {
        ...o,
        rounds: t,
        alice_share: share,
        alice_gain: accepted.offer.alice_gain,
        bob_gain: accepted.offer.bob_gain,
        alice_utility: M * params.delta_a ** (t - 1) * share,
        bob_utility: M * params.delta_b ** (t - 1) * (1 - share),
      };
    },
  };
}

export const bargaining: GameFamily<"bargaining"> = {
  family: "bargaining",
  grid: {
    delta_a: [0.8, 0.9, 0.95, 1],
    delta_b: [0.8, 0.9, 0.95, 1],
    money: [1e2, 1e4, 1e6],
    horizon: [12, "inf"],
    complete_information: [true, false],
    messages: [true, false],
  },
  infiniteCap: BARGAINING_INFINITE_CAP,
  start(params, gameId) {
    const cap = params.horizon === "inf" ? BARGAINING_INFINITE_CAP : params.horizon;
    return new AlternatingOffers(params, gameId, cap, rules(params));
  },
};
