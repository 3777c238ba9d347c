/**
 * Negotiation (GLEE (Shapira et al. 2024) §2.2): Alice sells a product she values at
 * V_A = M·F_A to Bob, who values it at V_B = M·F_B. They alternate prices
 * (Alice in odd rounds); a price p accepted gives utilities (p − V_A, V_B − p),
 * no trade gives (0, 0); there is no discounting. Table 1: F_A, F_B ∈
 * {0.8, 1, 1.2, 1.5}, M ∈ {1e2, 1e4, 1e6}, T ∈ {1, 10, ∞}, complete
 * information, messages → 576 configurations.
 *
 * "∞" is played as NEGOTIATION_INFINITE_CAP = 30 rounds, the `max_rounds`
 * GLEE's released human-vs-LLM negotiation configs use beside T = 10; players
 * are not told it and games.horizon_cap records it.
 */
import {AlternatingOffers, emptyOutcome, toldHorizon, type OfferRules} from "./alternating.js";
import type {GameFamily, NegotiationParams, Player} from "./types.js";
import {other} from "./types.js";

export const NEGOTIATION_INFINITE_CAP = 30;

export const valuations = (params: NegotiationParams) => ({value_a: params.money * params.factor_a, value_b: params.money * params.factor_b});

function rules(params: NegotiationParams): OfferRules<"negotiation"> {
  const {value_a, value_b} = valuations(params);
  const value = (p: Player) => (p === "alice" ? value_a : value_b);
  return {
    family: "negotiation",
    proposerRole: (p) => (p === "alice" ? "seller" : "buyer"),
    responderRole: (p) => (p === "alice" ? "seller" : "buyer"),
    offerSpec: (p) => ({
      type: "offer",
      numbers: {price: {min: 0}},
      text: params.messages ? {field: "message", required: false} : null,
    }),
    view: (p, offer) => ({
      money: params.money,
      value_self: value(p),
      value_other: params.complete_information ? value(other(p)) : null,
      horizon: toldHorizon(params.horizon),
      messages: params.messages,
      offer,
    }),
    outcome: (accepted, rounds, endedBy) => {
      const o = emptyOutcome(rounds, endedBy);
      o.agreement = accepted !== null;
      if (!accepted) return {...o, alice_utility: 0, bob_utility: 0};
      const price = accepted.offer.price;
      return {...o, rounds: accepted.round, price, alice_utility: price - value_a, bob_utility: value_b - price};
    },
  };
}

export const negotiation: GameFamily<"negotiation"> = {
  family: "negotiation",
  grid: {
    factor_a: [0.8, 1, 1.2, 1.5],
    factor_b: [0.8, 1, 1.2, 1.5],
    money: [1e2, 1e4, 1e6],
    horizon: [1, 10, "inf"],
    complete_information: [true, false],
    messages: [true, false],
  },
  infiniteCap: NEGOTIATION_INFINITE_CAP,
  start(params, gameId) {
    const cap = params.horizon === "inf" ? NEGOTIATION_INFINITE_CAP : params.horizon;
    return new AlternatingOffers(params, gameId, cap, rules(params));
  },
};
