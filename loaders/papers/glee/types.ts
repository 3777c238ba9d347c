/**
 * GLEE's own value types (GLEE (Shapira et al. 2024) §2): the parameters,
 * actions, views and outcome of its three families. The families are games
 * of the shared contract (loaders/contract/game.ts): a seat's observation is
 * a `GameObservation<GleeView>`, whose `view` is one of the family views
 * below; GLEE's scripted agents and its narrator (narrator.ts) read it.
 *
 * Conventions:
 * - Players are always "alice" (seat 0, moves first) and "bob" (seat 1);
 *   `role` names what the player does in this family (seller, buyer, ...).
 * - Rounds ("stages" in §2) are 1-based. In bargaining and negotiation Alice
 *   proposes in odd rounds and Bob in even rounds; the other side decides. In
 *   persuasion each round is one message by Alice then one decision by Bob.
 * - Games hold no prompt text: GLEE's narrator writes what a language agent
 *   reads from the observation.
 * - Illegal actions are data, not exceptions: `validate` returns a message and
 *   the runner records the attempt as a rule break (turns.rule_break) before
 *   asking again. `apply` throws only when called with an action `validate`
 *   rejected (a programming error).
 */
import type {GameObservation} from "../../contract/game.js";

export type Family = "bargaining" | "negotiation" | "persuasion";
export const FAMILIES: readonly Family[] = ["bargaining", "negotiation", "persuasion"];

export type Player = "alice" | "bob";
export const other = (p: Player): Player => (p === "alice" ? "bob" : "alice");
/** Seat 0 is Alice, seat 1 Bob. */
export const PLAYERS: readonly Player[] = ["alice", "bob"];

/** The player in `seat` (0 or 1); throws naming the seat otherwise. */
export function playerAt(seat: number): Player {
  const player = PLAYERS[seat];
  if (!player) throw new Error(`GLEE games have seats 0 (alice) and 1 (bob), got seat ${seat}`);
  return player;
}

/** What the player does this turn: proposer/responder (bargaining), seller/buyer (negotiation, persuasion). */
export type Role = "proposer" | "responder" | "seller" | "buyer";

/** "∞" in Table 1: a long horizon the players are not told. Configs spell it "inf". */
export type Horizon = number | "inf";

// ---------------------------------------------------------------- parameters

/** §2.1, Table 1: 4 × 4 × 3 × 2 × 2 × 2 = 384 configurations. (Type aliases, so they are contract `Params`.) */
export type BargainingParams = {
  delta_a: number;
  delta_b: number;
  /** M, the sum to divide. */
  money: number;
  horizon: Horizon;
  /** Each player knows the other's discount factor. */
  complete_information: boolean;
  /** Offers may carry a free-text message. */
  messages: boolean;
};

/** §2.2, Table 1: 4 × 4 × 3 × 3 × 2 × 2 = 576 configurations. V_A = M·F_A, V_B = M·F_B. */
export type NegotiationParams = {
  /** F_A: the seller's (Alice's) valuation factor. */
  factor_a: number;
  /** F_B: the buyer's (Bob's) valuation factor. */
  factor_b: number;
  money: number;
  horizon: Horizon;
  /** Each player knows the other's valuation. */
  complete_information: boolean;
  messages: boolean;
};

export type MessageType = "binary" | "text";
export type BuyerType = "long_living" | "myopic";

/** §2.3, Table 1: 3 × 5 × 3 × 1 × 2 × 2 × 2 = 360 configurations. Price π = 1, low quality worth u = 0. */
export type PersuasionParams = {
  /** Prior probability that a round's product is of high quality. */
  prior: number;
  /** v: Bob's value of a high-quality product (in units of the price). */
  value_high: number;
  /** M: currency scale of the price and of Bob's utility. */
  money: number;
  /** Number of rounds (20 in Table 1); always told to both players. */
  horizon: number;
  /** Alice knows v. */
  complete_information: boolean;
  /** Binary: Alice only says "high" or "low"; text: free text. */
  message_type: MessageType;
  /** Long-living Bob sees the whole history; myopic buyers see only summary statistics. */
  buyer_type: BuyerType;
};


// ------------------------------------------------------------------- actions

/** Bargaining proposal: a division of M (alice_gain + bob_gain = M). */
export interface SplitOffer {
  type: "offer";
  alice_gain: number;
  bob_gain: number;
  message?: string;
}

/** Negotiation proposal: a price for the product. */
export interface PriceOffer {
  type: "offer";
  price: number;
  message?: string;
}

/**
 * Persuasion: Alice's message about this round's product. In binary games
 * `claim` is required and `text` is absent; in text games `text` is required
 * and `claim` is optional (a scripted sender states what its text says; an
 * LLM sender usually leaves it out).
 */
export interface Signal {
  type: "message";
  claim?: Quality;
  text?: string;
}

/**
 * Accept or reject the standing offer; in persuasion "accept" means buy at
 * price 1·M. Negotiation also has "outside": end the negotiation and trade
 * with an outside party at one's own value (GLEE's code: SellToJhon /
 * BuyFromJhon), which gains nothing, like no trade.
 */
export interface Decision {
  type: "decision";
  decision: "accept" | "reject" | "outside";
}

export type Quality = "high" | "low";
export type GleeAction = SplitOffer | PriceOffer | Signal | Decision;

// -------------------------------------------------------------- observations

/** One public event a player has seen, in order. */
export interface SeenEvent {
  round: number;
  player: Player;
  action: GleeAction;
}

/**
 * The public events a seat has seen: the first `length` events of the game's
 * append-only log. Copied only when read (`list`, `since`): scripted agents
 * never read it, and copying the histories of 99-round games at every turn
 * dominated full-grid runs. Serialises as the list.
 */
export class SeenLog {
  constructor(private readonly events: readonly SeenEvent[], readonly length: number) {}

  /** Every event this seat has seen, oldest first. */
  list(): SeenEvent[] {
    return this.events.slice(0, this.length);
  }

  /** The events seen since the seat had seen `start` of them (e.g. at its previous turn). */
  since(start: number): SeenEvent[] {
    return this.events.slice(start, this.length);
  }

  toJSON(): SeenEvent[] {
    return this.list();
  }
}

/** What every GLEE view says: the family, who sees it, in which role, and the public events seen. */
interface SeatFacts<F extends Family> {
  family: F;
  player: Player;
  role: Role;
  /** Public events this player has seen (none for myopic buyers). */
  history: SeenLog;
}

/** What Alice or Bob knows in a bargaining game (§2.1). */
export interface BargainingView extends SeatFacts<"bargaining"> {
  money: number;
  delta_self: number;
  /** null under incomplete information. */
  delta_other: number | null;
  /** Number of rounds; null when the horizon is "∞" (not told). */
  horizon: number | null;
  messages: boolean;
  /** The offer to answer (responder turns), else null. */
  offer: SplitOffer | null;
}

/** What Alice (seller) or Bob (buyer) knows in a negotiation game (§2.2). */
export interface NegotiationView extends SeatFacts<"negotiation"> {
  money: number;
  value_self: number;
  /** null under incomplete information. */
  value_other: number | null;
  horizon: number | null;
  messages: boolean;
  offer: PriceOffer | null;
}

/** Summary statistics a myopic buyer sees (§2.3): shares of past rounds. */
export interface PersuasionStats {
  rounds: number;
  /** Share of past rounds in which the product was bought. */
  bought_share: number;
  /** Share of past rounds in which a low-quality product was bought. */
  bought_low_share: number;
}

/** One past persuasion round as a long-living player remembers it. */
export interface PersuasionRound {
  round: number;
  signal: Signal;
  bought: boolean;
  /** Revealed after Bob's decision (the buyer learns what he got). */
  quality: Quality;
}

/** What Alice (seller) or Bob (buyer) knows in a persuasion game (§2.3). */
export interface PersuasionView extends SeatFacts<"persuasion"> {
  money: number;
  prior: number;
  horizon: number;
  message_type: MessageType;
  buyer_type: BuyerType;
  /** v; null for Alice under incomplete information. */
  value_high: number | null;
  /** Whether Alice knows v (complete information): both players are told it (GLEE's code tells the buyer "Alice knows how much each product worth to you"). */
  seller_knows_value: boolean;
  /** This round's quality: Alice only (null for Bob). */
  quality: Quality | null;
  /** Alice's message of this round: Bob's turns only. */
  signal: Signal | null;
  /** Past rounds: Alice always; long-living Bob. Empty for myopic buyers. */
  past: PersuasionRound[];
  /** Myopic buyers' summary of past rounds (also given to long-living players). */
  stats: PersuasionStats;
}

/**
 * Everything the player to move may know, structured: the `view` of a GLEE
 * seat's observation. The words a language agent reads (GLEE (Shapira et al.
 * 2024) D.2: the rules, then each turn what happened since this player's
 * last turn and what to do now) are written from it by GLEE's narrator.
 */
export type GleeView = BargainingView | NegotiationView | PersuasionView;
export type GleeObservation = GameObservation<GleeView>;

// ------------------------------------------------------------------- outcome

/** How a game ended. */
export type EndReason = "agreement" | "horizon" | "rule_break" | "completed" | "outside_option";

/** Outcome columns of the games table (see schema.ts); families fill their own. */
export interface Outcome {
  rounds: number;
  ended_by: EndReason;
  agreement: boolean | null;
  /** Bargaining: p_ev, Alice's undiscounted share of M. */
  alice_share: number | null;
  /** Bargaining: amounts agreed (undiscounted); null in the other families. */
  alice_gain: number | null;
  bob_gain: number | null;
  /** Negotiation: agreed price. */
  price: number | null;
  /** Realised utilities as §2 defines them (bargaining discounted, persuasion scaled by M for Bob). */
  alice_utility: number | null;
  bob_utility: number | null;
  /** Persuasion: per-round quality was high / Bob bought. */
  high_quality: boolean[] | null;
  purchased: boolean[] | null;
  /** Persuasion: n_ev, k_ev, r_ev of §2.3, and total sales. */
  n_high: number | null;
  k_high_bought: number | null;
  r_low_rejected: number | null;
  sales: number | null;
}

