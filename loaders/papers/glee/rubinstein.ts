/**
 * Subgame-perfect bargaining (GLEE (Shapira et al. 2024) §2.1, Appendix C; Rubinstein 1982).
 *
 * T = ∞ (horizon not told): the stationary equilibrium. The proposer i keeps
 * x_i = (1 − δ_j)/(1 − δ_i·δ_j) and the responder j accepts any share ≥ δ_j·x_j,
 * what it would keep as next proposer, discounted one round. With
 * δ_A = δ_B = 1 the formula is 0/0; we use the limit along δ_A = δ_B → 1, i.e. 1/2.
 *
 * Finite T (told): backward induction. The proposer of the last round keeps
 * everything (s_T = 1); in round t the proposer keeps s_t = 1 − δ_r·s_(t+1),
 * δ_r the responder's factor, and the responder accepts a share ≥ δ_r·s_(t+1).
 *
 * Under incomplete information the agent does not know δ_other and assumes
 * it equals its own (a symmetric belief); the game never reveals it.
 */
import type {Agent, AgentDef} from "../../contract/agent.js";
import type {GleeObservation, GleeView, Player, SplitOffer} from "./types.js";
import {playerAt} from "./types.js";

/** Share kept by the proposer in the stationary equilibrium (1/2 when both factors are 1). */
export function stationaryShare(deltaProposer: number, deltaResponder: number): number {
  const denominator = 1 - deltaProposer * deltaResponder;
  if (Math.abs(denominator) < 1e-12) return 0.5;
  return (1 - deltaResponder) / denominator;
}

/**
 * Proposer shares s_t for rounds t = 1..T under backward induction, where
 * Alice proposes in odd rounds. Returns an array indexed by round (index 0 unused).
 */
export function backwardInductionShares(T: number, deltaA: number, deltaB: number): number[] {
  const s = new Array<number>(T + 2).fill(0);
  s[T] = 1;
  for (let t = T - 1; t >= 1; t--) {
    const responderDelta = t % 2 === 1 ? deltaB : deltaA;
    s[t] = 1 - responderDelta * s[t + 1];
  }
  return s;
}

/** Alice's share when Rubinstein plays itself: round 1 agreement. */
export function equilibriumAliceShare(deltaA: number, deltaB: number, T: number | null): number {
  return T === null ? stationaryShare(deltaA, deltaB) : backwardInductionShares(T, deltaA, deltaB)[1];
}

const EPS = 1e-9;

function rubinsteinAgent(player: Player): Agent<GleeView> {
  return {
    act(obs: GleeObservation) {
      const v = obs.view;
      if (v.family !== "bargaining") throw new Error(`${obs.game_id}: rubinstein plays glee/bargaining, not ${obs.game}`);
      const dSelf = v.delta_self;
      const dOther = v.delta_other ?? v.delta_self;
      const [dA, dB] = player === "alice" ? [dSelf, dOther] : [dOther, dSelf];
      const t = obs.round;
      // Share the player to move keeps as proposer in round t, and the share the responder needs.
      const proposerShare = (round: number): number => {
        if (v.horizon === null) return round % 2 === 1 ? stationaryShare(dA, dB) : stationaryShare(dB, dA);
        if (round > v.horizon) return 0;
        return backwardInductionShares(v.horizon, dA, dB)[round];
      };
      if (obs.legal[0]?.type === "decision") {
        const offer = v.offer!;
        const mine = (player === "alice" ? offer.alice_gain : offer.bob_gain) / v.money;
        const beyond = v.horizon !== null && t >= v.horizon;
        const needed = beyond ? 0 : dSelf * proposerShare(t + 1);
        return {action: {type: "decision", decision: mine >= needed - EPS ? "accept" : "reject"}};
      }
      const keep = proposerShare(t);
      const own = keep * v.money;
      const action: SplitOffer =
        player === "alice" ? {type: "offer", alice_gain: own, bob_gain: v.money - own} : {type: "offer", alice_gain: v.money - own, bob_gain: own};
      if (v.messages) action.message = `I propose that I keep ${Math.round(keep * 1000) / 10}%, the subgame-perfect split.`;
      return {action};
    },
  };
}

export const rubinstein: AgentDef = {
  id: "rubinstein",
  games: ["glee/bargaining"],
  description: "Subgame-perfect play: stationary offer (1−δ_j)/(1−δ_iδ_j) when the horizon is unknown, backward induction when it is told; accepts exactly what waiting would yield.",
  source: "GLEE (Shapira et al. 2024) §2.1 and Appendix C (Rubinstein 1982)",
  create: ({seat}) => rubinsteinAgent(playerAt(seat)),
};
