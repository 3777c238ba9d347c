/**
 * A rational seller/buyer for negotiation (GLEE (Shapira et al. 2024) §2.2, Appendix C).
 *
 * Complete information, horizon told (T): without discounting, the proposer
 * of the last round takes the whole surplus, so the subgame-perfect price is
 * V_B when Alice proposes last (T odd) and V_A when Bob does (T even), agreed
 * in round 1. Complete information, horizon not told: there is no unique
 * equilibrium; the agent proposes the Nash bargaining price (V_A + V_B)/2.
 * Either way it accepts an offer at least as good as that price and never
 * trades at a loss; when V_A ≥ V_B it asks (or bids) its own value, so no
 * trade happens, which is efficient.
 *
 * Incomplete information: it posts a fixed price (optimal against a prior,
 * Harris–Raviv and Riley–Zeckhauser in Appendix C), taking the prior to be
 * the other's factor uniform over Table 1's {0.8, 1, 1.2, 1.5}: the seller asks
 * the p = M·F maximising (p − V_A)·P(V_B ≥ p), the buyer bids the p maximising
 * (V_B − p)·P(V_A ≤ p); it accepts an offer at least as good as its own price,
 * or, in a told last round, any offer without a loss.
 */
import type {Agent, AgentDef} from "../../contract/agent.js";
import type {GleeObservation, GleeView, NegotiationView, Player, PriceOffer} from "./types.js";
import {playerAt} from "./types.js";

const FACTOR_PRIOR = [0.8, 1, 1.2, 1.5];
const EPS = 1e-9;

/** The price the rational agent proposes (and measures offers against). */
export function rationalPrice(player: Player, view: Pick<NegotiationView, "money" | "value_self" | "value_other" | "horizon">): number {
  const {value_self: own, value_other: theirs, money: M} = view;
  if (theirs !== null) {
    const [va, vb] = player === "alice" ? [own, theirs] : [theirs, own];
    if (va >= vb) return own;
    if (view.horizon === null) return (va + vb) / 2;
    return view.horizon % 2 === 1 ? vb : va;
  }
  let best = own;
  let bestValue = 0;
  for (const f of FACTOR_PRIOR) {
    const p = f * M;
    const gain = player === "alice" ? p - own : own - p;
    if (gain <= 0) continue;
    const chance = FACTOR_PRIOR.filter((g) => (player === "alice" ? g * M >= p : g * M <= p)).length / FACTOR_PRIOR.length;
    if (gain * chance > bestValue + EPS) {
      best = p;
      bestValue = gain * chance;
    }
  }
  return best;
}

function rationalAgent(player: Player): Agent<GleeView> {
  const gain = (v: NegotiationView, price: number) => (player === "alice" ? price - v.value_self : v.value_self - price);
  return {
    act(obs: GleeObservation) {
      const v = obs.view;
      if (v.family !== "negotiation") throw new Error(`${obs.game_id}: rational plays glee/negotiation, not ${obs.game}`);
      const target = rationalPrice(player, v);
      if (obs.legal[0]?.type === "decision") {
        const offered = gain(v, v.offer!.price);
        const lastRound = v.horizon !== null && obs.round >= v.horizon;
        const needed = lastRound ? 0 : Math.max(0, gain(v, target));
        return {action: {type: "decision", decision: offered >= needed - EPS * v.money ? "accept" : "reject"}};
      }
      const action: PriceOffer = {type: "offer", price: target};
      if (v.messages) action.message = `My price is ${Math.round(target * 100) / 100}.`;
      return {action};
    },
  };
}

export const rational: AgentDef = {
  id: "rational",
  games: ["glee/negotiation"],
  description: "Subgame-perfect price with complete information (last proposer takes the surplus; midpoint when the horizon is unknown), optimal fixed price against a uniform prior otherwise; never trades at a loss.",
  source: "GLEE (Shapira et al. 2024) §2.2 and Appendix C (Harris–Raviv 1981, Riley–Zeckhauser 1983)",
  create: ({seat}) => rationalAgent(playerAt(seat)),
};
