/**
 * The types of GLEE's three families (GLEE (Shapira et al. 2024) §2):
 * parameters, actions, observations, outcome, and the two-player state that
 * loaders/papers/glee/games.ts puts on the game contract (contract.ts).
 *
 * A game is rules plus state and knows nothing about who plays it (OpenSpiel
 * style): `GameState` says whose turn it is, what that player observes, which
 * actions are legal (as data, so an LLM's answer can be checked), validates and
 * applies an action, and reports the outcome. GLEE's agents act on these
 * observations (loaders/papers/glee/familyAgent.ts); the runner (loaders/run/)
 * connects the two and writes the turns.
 *
 * Conventions:
 * - Players are always "alice" (moves first) and "bob"; `role` names what the
 *   player does in this family (seller, buyer, ...).
 * - Rounds ("stages" in §2) are 1-based. In bargaining and negotiation Alice
 *   proposes in odd rounds and Bob in even rounds; the other side decides. In
 *   persuasion each round is one message by Alice then one decision by Bob.
 * - Games hold no prompt text: GLEE's narrator (loaders/papers/glee/narrator.ts)
 *   writes what a language agent reads from the observation.
 * - Illegal actions are data, not exceptions: `validate` returns a message and
 *   the runner records the attempt as a rule break (turns.rule_break) before
 *   asking again. `apply` throws only when called with an action `validate`
 *   rejected (a programming error).
 */
import type {Rng} from "../../../src/lib/rng.js";

export type Family = "bargaining" | "negotiation" | "persuasion";
export const FAMILIES: readonly Family[] = ["bargaining", "negotiation", "persuasion"];

export type Player = "alice" | "bob";
export const other = (p: Player): Player => (p === "alice" ? "bob" : "alice");

/** What the player does this turn: proposer/responder (bargaining), seller/buyer (negotiation, persuasion). */
export type Role = "proposer" | "responder" | "seller" | "buyer";

/** "∞" in Table 1: a long horizon the players are not told. Configs spell it "inf". */
export type Horizon = number | "inf";

// ---------------------------------------------------------------- parameters

/** §2.1, Table 1: 4 × 4 × 3 × 2 × 2 × 2 = 384 configurations. */
export interface BargainingParams {
  family: "bargaining";
  delta_a: number;
  delta_b: number;
  /** M, the sum to divide. */
  money: number;
  horizon: Horizon;
  /** Each player knows the other's discount factor. */
  complete_information: boolean;
  /** Offers may carry a free-text message. */
  messages: boolean;
}

/** §2.2, Table 1: 4 × 4 × 3 × 3 × 2 × 2 = 576 configurations. V_A = M·F_A, V_B = M·F_B. */
export interface NegotiationParams {
  family: "negotiation";
  /** F_A: the seller's (Alice's) valuation factor. */
  factor_a: number;
  /** F_B: the buyer's (Bob's) valuation factor. */
  factor_b: number;
  money: number;
  horizon: Horizon;
  /** Each player knows the other's valuation. */
  complete_information: boolean;
  messages: boolean;
}

export type MessageType = "binary" | "text";
export type BuyerType = "long_living" | "myopic";

/** §2.3, Table 1: 3 × 5 × 3 × 1 × 2 × 2 × 2 = 360 configurations. Price π = 1, low quality worth u = 0. */
export interface PersuasionParams {
  family: "persuasion";
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
}

export type Params = BargainingParams | NegotiationParams | PersuasionParams;
export type ParamsOf<F extends Family> = Extract<Params, {family: F}>;

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

/** Accept or reject the standing offer; in persuasion "accept" means buy at price 1·M. */
export interface Decision {
  type: "decision";
  decision: "accept" | "reject";
}

export type Quality = "high" | "low";
export type Action = SplitOffer | PriceOffer | Signal | Decision;
export type ActionType = Action["type"];

/** A numeric field of an action and its closed range (bounds absent = unbounded). */
export interface NumberSpec {
  min?: number;
  max?: number;
}

/**
 * One kind of legal action, described as data. An action is legal when it has
 * this `type`, every `numbers` field is a finite number in range, every
 * `choices` field is one of its values (fields in `optional` may be absent), `sum` holds (within 1e-6 of `equals`),
 * and the `text` field is present when required (and absent when not allowed).
 */
export interface ActionSpec {
  type: ActionType;
  numbers?: Record<string, NumberSpec>;
  sum?: {fields: string[]; equals: number};
  choices?: Record<string, readonly string[]>;
  /** Fields of `numbers` or `choices` that may be left out. */
  optional?: readonly string[];
  text?: {field: "message" | "text"; required: boolean} | null;
  /** Prompt text; GLEE's formats are written by its narrator (loaders/papers/glee/narrator.ts). */
  format?: string;
}

// -------------------------------------------------------------- observations

/** One public event a player has seen, in order. */
export interface SeenEvent {
  round: number;
  player: Player;
  action: Action;
}

/** What Alice or Bob knows in a bargaining game (§2.1). */
export interface BargainingView {
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
export interface NegotiationView {
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
export interface PersuasionView {
  money: number;
  prior: number;
  horizon: number;
  message_type: MessageType;
  buyer_type: BuyerType;
  /** v; null for Alice under incomplete information. */
  value_high: number | null;
  /** This round's quality: Alice only (null for Bob). */
  quality: Quality | null;
  /** Alice's message of this round: Bob's turns only. */
  signal: Signal | null;
  /** Past rounds: Alice always; long-living Bob. Empty for myopic buyers. */
  past: PersuasionRound[];
  /** Myopic buyers' summary of past rounds (also given to long-living players). */
  stats: PersuasionStats;
}

export interface ViewOf {
  bargaining: BargainingView;
  negotiation: NegotiationView;
  persuasion: PersuasionView;
}

/**
 * Everything the player to move may know, structured. The words a language
 * agent reads (GLEE (Shapira et al. 2024) D.2: the rules, then each turn what
 * happened since this player's last turn and what to do now) are written from
 * it by GLEE's narrator (loaders/papers/glee/narrator.ts).
 */
export interface Observation<F extends Family = Family> {
  family: F;
  game_id: string;
  player: Player;
  role: Role;
  round: number;
  view: ViewOf[F];
  /** Public events this player has seen (empty for myopic buyers). */
  history: SeenEvent[];
  legal: ActionSpec[];
  /** Set by the runner when it asks again after a rule break. */
  retry?: {attempt: number; error: string};
}

// ------------------------------------------------------------------- outcome

/** How a game ended. */
export type EndReason = "agreement" | "horizon" | "rule_break" | "completed";

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

// --------------------------------------------------------------------- games

/**
 * A game in progress. Created by a family's `start(params, gameId, rng)`;
 * chance moves (persuasion quality) are drawn from that rng.
 */
export interface GameState<F extends Family = Family> {
  readonly family: F;
  readonly params: ParamsOf<F>;
  readonly gameId: string;
  /** The stage limit actually used: the horizon, or the cap for "∞". */
  readonly horizonCap: number;
  /** Player to move, or null when the game is over. */
  currentPlayer(): Player | null;
  /**
   * What `player` (default: the player to move) observes now. The returned
   * object is a snapshot; its `history` is copied on first access
   * (loaders/contract/observation.ts) and it serialises with toJSON.
   */
  observe(player?: Player): Observation<F>;
  legalActions(): ActionSpec[];
  /** null when `action` is legal for the player to move, else why not (names the field). */
  validate(action: unknown): string | null;
  /** Applies a legal action for the player to move. */
  apply(action: Action): void;
  isTerminal(): boolean;
  /** Ends the game early because `player` kept breaking the rules; outcome is "no deal". */
  abort(player: Player, reason: string): void;
  outcome(): Outcome;
}

export interface GameFamily<F extends Family = Family> {
  family: F;
  /** Table 1 values of every parameter, in a stable order. */
  grid: {[K in Exclude<keyof ParamsOf<F>, "family">]: readonly ParamsOf<F>[K][]};
  /** Stage limit used when the horizon is "inf". */
  infiniteCap: number;
  start(params: ParamsOf<F>, gameId: string, rng: Rng): GameState<F>;
}
