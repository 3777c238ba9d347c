/**
 * Negotiation (GLEE (Shapira et al. 2024) §2.2): Alice sells a product she values at
 * V_A = M·F_A to Bob, who values it at V_B = M·F_B. They alternate prices
 * (Alice in odd rounds); a price p accepted gives utilities (p − V_A, V_B − p),
 * no trade gives (0, 0), as does the responder's outside option (GLEE's
 * code: trading with "John" at one's own value, which ends the game); there
 * is no discounting. Table 1: F_A, F_B ∈
 * {0.8, 1, 1.2, 1.5}, M ∈ {1e2, 1e4, 1e6}, T ∈ {1, 10, ∞}, complete
 * information, messages → 576 configurations.
 *
 * "∞" is played as NEGOTIATION_INFINITE_CAP = 30 rounds, the `max_rounds`
 * GLEE's released human-vs-LLM negotiation configs use beside T = 10; players
 * are not told it and games.horizon_cap records it.
 */
import type {ActionSpec, GameDef} from "../../contract/game.js";
import {AlternatingOffers, emptyOutcome, toldHorizon, type OfferRules} from "./alternating.js";
import {GLEE_CITATION, GLEE_COLUMNS, GLEE_SEATS, boolParam, commonParamColumns, horizonParam, moneyParam} from "./declarations.js";
import type {NegotiationParams, Player} from "./types.js";
import {other} from "./types.js";

export const NEGOTIATION_INFINITE_CAP = 30;

/**
 * The responder's choices: accept, reject (and counter in the next round),
 * or "outside": end the negotiation by trading with an outside party at
 * one's own value, a gain of 0 like no trade. GLEE's code offers this third
 * option every time (`negotiation.py`: "(3) Sell the product to Jhon for
 * $V", `SellToJhon` / `BuyFromJhon`), and its human-vs-LLM logs have it;
 * §2.2 does not mention it.
 */
export const NEGOTIATION_DECISION_SPEC: ActionSpec = {type: "decision", choices: {decision: ["accept", "reject", "outside"]}, text: null};

export const valuations = (params: NegotiationParams) => ({value_a: params.money * params.factor_a, value_b: params.money * params.factor_b});

function rules(params: NegotiationParams): OfferRules<"negotiation"> {
  const {value_a, value_b} = valuations(params);
  const value = (p: Player) => (p === "alice" ? value_a : value_b);
  return {
    family: "negotiation",
    proposerRole: (p) => (p === "alice" ? "seller" : "buyer"),
    responderRole: (p) => (p === "alice" ? "seller" : "buyer"),
    decisionSpec: NEGOTIATION_DECISION_SPEC,
    offerSpec: (p) => ({
      type: "offer",
      numbers: {price: {min: 0}},
      text: params.messages ? {field: "message", required: false} : null,
    }),
    view: (p, role, history, offer) => ({
      family: "negotiation",
      player: p,
      role,
      history,
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

const horizonCap = (params: NegotiationParams) => (params.horizon === "inf" ? NEGOTIATION_INFINITE_CAP : params.horizon);

export const negotiation: GameDef<NegotiationParams> = {
  id: "glee/negotiation",
  title: "Negotiation (seller and buyer)",
  citation: {...GLEE_CITATION, section: "§2.2, Table 1"},
  seats: GLEE_SEATS,
  moves: "sequential",
  description: "A seller valuing the product at F_A·M and a buyer valuing it at F_B·M alternate price offers.",
  // Table 1's grids, in this order (config ids depend on it).
  params: [
    {name: "factor_a", label: "F_A, seller's valuation factor", type: "number", min: 0, max: 1000, exclusiveMin: true, default: 1, grid: [0.8, 1, 1.2, 1.5], baseline: 1}, // M·F stays ≤ 1e15, exact to the cent
    {name: "factor_b", label: "F_B, buyer's valuation factor", type: "number", min: 0, max: 1000, exclusiveMin: true, default: 1, grid: [0.8, 1, 1.2, 1.5], baseline: 1},
    moneyParam,
    horizonParam([1, 10, "inf"], 1, true),
    boolParam("complete_information", "complete information", true),
    boolParam("messages", "free-text messages", false),
  ],
  columns: GLEE_COLUMNS,
  paramColumns(params) {
    const row = commonParamColumns("negotiation", params, horizonCap(params));
    row.messages = params.messages;
    row.factor_a = params.factor_a;
    row.factor_b = params.factor_b;
    const v = valuations(params);
    row.value_a = v.value_a;
    row.value_b = v.value_b;
    return row;
  },
  // GLEE keeps its family name as the id stem, so existing ids and seeds stay as they were.
  idStem: () => "negotiation",
  start: (params, {gameId}) => new AlternatingOffers(gameId, horizonCap(params), rules(params)),
};
