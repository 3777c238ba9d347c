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
import type {GameDef} from "../../contract/game.js";
import {AlternatingOffers, emptyOutcome, toldHorizon, type OfferRules} from "./alternating.js";
import {GLEE_CITATION, GLEE_COLUMNS, GLEE_SEATS, boolParam, commonParamColumns, deltaParam, horizonParam, moneyParam} from "./declarations.js";
import type {BargainingParams, Player} from "./types.js";
import {other} from "./types.js";

export const BARGAINING_INFINITE_CAP = 99;

function rules(params: BargainingParams): OfferRules<"bargaining"> {
  const M = params.money;
  const delta = (p: Player) => (p === "alice" ? params.delta_a : params.delta_b);
  return {
    family: "bargaining",
    proposerRole: () => "proposer",
    responderRole: () => "responder",
    offerSpec: (p) => ({
      type: "offer",
      numbers: {alice_gain: {min: 0, max: M}, bob_gain: {min: 0, max: M}},
      sum: {fields: ["alice_gain", "bob_gain"], equals: M},
      text: params.messages ? {field: "message", required: false} : null,
    }),
    view: (p, role, history, offer) => ({
      family: "bargaining",
      player: p,
      role,
      history,
      money: M,
      delta_self: delta(p),
      delta_other: params.complete_information ? delta(other(p)) : null,
      horizon: toldHorizon(params.horizon),
      messages: params.messages,
      offer,
    }),
    outcome: (accepted, rounds, endedBy) => {
      const o = emptyOutcome(rounds, endedBy);
      o.agreement = accepted !== null;
      if (!accepted) return {...o, alice_utility: 0, bob_utility: 0};
      const t = accepted.round;
      const {alice_gain, bob_gain} = accepted.offer;
      const share = alice_gain / M;
      return {
        ...o,
        rounds: t,
        alice_share: share,
        alice_gain,
        bob_gain: storedBobGain(alice_gain, bob_gain, M),
        alice_utility: M * params.delta_a ** (t - 1) * share,
        bob_utility: M * params.delta_b ** (t - 1) * (1 - share),
      };
    },
  };
}

/**
 * Bob's gain as stored: as offered when the two gains add up to M (up to
 * floating-point rounding, as M − x and x do), else what Alice's leaves,
 * M − alice_gain. A legal offer may miss M by the rounding legal.ts allows
 * (1e-6·M), and both utilities follow Alice's share p (Bob's is
 * M·δ_B^(t−1)·(1 − p)), so the gains stored agree with the utilities and
 * divide M exactly.
 */
function storedBobGain(aliceGain: number, bobGain: number, M: number): number {
  return Math.abs(aliceGain + bobGain - M) <= 1e-12 * Math.max(1, M) ? bobGain : M - aliceGain;
}

const horizonCap = (params: BargainingParams) => (params.horizon === "inf" ? BARGAINING_INFINITE_CAP : params.horizon);

export const bargaining: GameDef<BargainingParams> = {
  id: "glee/bargaining",
  title: "Bargaining (alternating offers)",
  citation: {...GLEE_CITATION, section: "§2.1, Table 1"},
  seats: GLEE_SEATS,
  moves: "sequential",
  description: "Alice and Bob divide M by alternating offers; each discounts money by its δ every round (Rubinstein).",
  // Table 1's grids, in this order (config ids depend on it).
  params: [
    deltaParam("delta_a", "δ_A, Alice's discount factor"),
    deltaParam("delta_b", "δ_B, Bob's discount factor"),
    moneyParam,
    horizonParam([12, "inf"], "inf", true),
    boolParam("complete_information", "complete information", true),
    boolParam("messages", "free-text messages", false),
  ],
  columns: GLEE_COLUMNS,
  paramColumns(params) {
    const row = commonParamColumns("bargaining", params, horizonCap(params));
    row.messages = params.messages;
    row.delta_a = params.delta_a;
    row.delta_b = params.delta_b;
    return row;
  },
  // GLEE keeps its family name as the id stem, so existing ids and seeds stay as they were.
  idStem: () => "bargaining",
  start: (params, {gameId}) => new AlternatingOffers(gameId, horizonCap(params), rules(params)),
};
