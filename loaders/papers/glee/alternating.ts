/**
 * The alternating-offers protocol shared by bargaining (§2.1) and
 * negotiation (§2.2): in odd rounds Alice proposes and Bob decides, in even
 * rounds Bob proposes and Alice decides; an acceptance ends the game, a
 * rejection moves to the next round, and the game ends without a deal after
 * the last round (the horizon, or the cap standing in for "∞"). In
 * negotiation the responder may also end it without a deal by taking the
 * outside option (`decisionSpec`).
 *
 * Families supply what differs (the offer's fields, the view, the outcome)
 * as an `OfferRules` object. What a language agent reads is written from the
 * observation by GLEE's narrator (loaders/papers/glee/narrator.ts).
 */
import type {ActionSpec} from "../../contract/game.js";
import {GleeState} from "./gleeState.js";
import type {BargainingView, Decision, EndReason, GleeAction, NegotiationView, Outcome, Player, PriceOffer, Role, SeenEvent, SplitOffer} from "./types.js";
import {SeenLog, other} from "./types.js";

export type OfferFamily = "bargaining" | "negotiation";
export type OfferOf<F extends OfferFamily> = F extends "bargaining" ? SplitOffer : PriceOffer;
type OfferView<F extends OfferFamily> = F extends "bargaining" ? BargainingView : NegotiationView;

export interface OfferRules<F extends OfferFamily> {
  family: F;
  proposerRole: (p: Player) => Role;
  responderRole: (p: Player) => Role;
  offerSpec(player: Player): ActionSpec;
  /** The responder's choices (default: accept or reject). */
  decisionSpec?: ActionSpec;
  /** What `player`, now in `role`, sees: `history` its public events, `offer` the offer it must answer (else null). */
  view(player: Player, role: Role, history: SeenLog, offer: OfferOf<F> | null): OfferView<F>;
  /** Outcome of an accepted offer in `round` (agreement) or of no deal (null). */
  outcome(accepted: {offer: OfferOf<F>; round: number} | null, rounds: number, endedBy: EndReason): Outcome;
}

export const DECISION_SPEC: ActionSpec = {
  type: "decision",
  choices: {decision: ["accept", "reject"]},
  text: null,
};

export class AlternatingOffers<F extends OfferFamily> extends GleeState {
  private round = 1;
  private phase: "offer" | "decision" = "offer";
  private offer: OfferOf<F> | null = null;
  private events: SeenEvent[] = [];
  private specs: Partial<Record<Player, ActionSpec>> = {};
  private ended: {by: EndReason; accepted: {offer: OfferOf<F>; round: number} | null} | null = null;

  constructor(
    gameId: string,
    /** The stage limit actually used: the horizon, or the cap for "∞". */
    readonly horizonCap: number,
    private readonly r: OfferRules<F>,
  ) {
    super(r.family, gameId);
  }

  private proposer(): Player {
    return this.round % 2 === 1 ? "alice" : "bob";
  }

  currentPlayer(): Player | null {
    if (this.ended) return null;
    return this.phase === "offer" ? this.proposer() : other(this.proposer());
  }

  protected legalActions(): ActionSpec[] {
    const p = this.currentPlayer();
    if (!p) return [];
    return this.phase === "offer" ? [(this.specs[p] ??= this.r.offerSpec(p))] : [this.r.decisionSpec ?? DECISION_SPEC];
  }

  protected roleOf(player: Player): Role {
    const proposing = this.currentPlayer() === player && this.phase === "offer";
    return proposing ? this.r.proposerRole(player) : this.r.responderRole(player);
  }

  protected view(player: Player) {
    const toMove = this.currentPlayer() === player;
    const offer = this.phase === "decision" && toMove ? this.offer : null;
    return {view: this.r.view(player, this.roleOf(player), new SeenLog(this.events, this.events.length), offer), round: this.round};
  }

  protected play(player: Player, action: GleeAction): void {
    this.events.push({round: this.round, player, action});
    if (this.phase === "offer") {
      this.offer = action as OfferOf<F>;
      this.phase = "decision";
      return;
    }
    if ((action as Decision).decision === "accept") {
      this.ended = {by: "agreement", accepted: {offer: this.offer!, round: this.round}};
      return;
    }
    if ((action as Decision).decision === "outside") {
      this.ended = {by: "outside_option", accepted: null};
      return;
    }
    if (this.round >= this.horizonCap) {
      this.ended = {by: "horizon", accepted: null};
      return;
    }
    this.round++;
    this.phase = "offer";
    this.offer = null;
  }

  protected end(reason: EndReason): void {
    this.ended = {by: reason, accepted: null};
  }

  outcome(): Outcome {
    if (!this.ended) throw new Error(`${this.gameId}: outcome asked before the game ended`);
    return this.r.outcome(this.ended.accepted, this.round, this.ended.by);
  }
}

/** An outcome with every field null, for families to fill. */
export function emptyOutcome(rounds: number, endedBy: EndReason): Outcome {
  return {
    rounds, ended_by: endedBy, agreement: null, alice_share: null, alice_gain: null, bob_gain: null, price: null,
    alice_utility: null, bob_utility: null, high_quality: null, purchased: null, n_high: null, k_high_bought: null, r_low_rejected: null, sales: null,
  };
}

/** Horizon told to the players: the number, or null for "inf". */
export const toldHorizon = (h: number | "inf"): number | null => (h === "inf" ? null : h);
