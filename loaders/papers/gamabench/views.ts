/**
 * What each seat of a gamma-Bench game is told (gamma-Bench (Huang et al.
 * 2024), Appendix C): the `view` of `GameState.observe(seat)`, one type per
 * game. A view holds exactly what the paper's prompts tell that seat: the
 * rules' parameters, N and K (the simultaneous games say "N players over K
 * rounds"), the current round, and the results of earlier rounds as the
 * paper reports them to that seat (`history`, oldest first). Narrators
 * (loaders/agents/llm/narrators/) turn a view into the paper's words; agents
 * act on it. Seats are 0-based everywhere (the paper's player_0 … player_9).
 *
 * Actions (fields named as the turns columns of ./columns.ts GB_TURN):
 * - guessing:      {type: "choose", amount: integer in [MIN, MAX]}
 * - El Farol:      {type: "decide", choice: "go" | "stay"}
 * - dollar:        {type: "bid", amount: integer in [0, G]}
 * - public goods:  {type: "contribute", amount: integer in [0, T]}
 * - diner:         {type: "order", choice: "costly" | "cheap"}
 * - auction:       {type: "bid", amount: integer in [0, own valuation]}
 * - battle royale: {type: "shoot", target: a surviving seat other than oneself} | {type: "miss"}
 * - pirate:        proposer {type: "propose", plan: integers ≥ 0, one per survivor (most senior first), summing to G,
 *                  written?: the plan's JSON entries as the proposer wrote them, relayed to the voters like a message};
 *                  every survivor, proposer included, {type: "vote", choice: "accept" | "reject"}
 */
import type {Seat, Settled} from "../../contract/game.js";

/** Told in every simultaneous game's system prompt: "a game played by N players over K rounds". */
export interface RoundsTold {
  /** N. */
  n_players: number;
  /** K: rounds the game lasts (players are told). */
  rounds: number;
  /** The current round, 1-based (K + 1 once the game is over). */
  round: number;
}

// ---------------------------------------------------------------- Guess 2/3

export interface GuessingRoundSeen {
  round: number;
  /** "Average Number Chosen". */
  average: number;
  /** "Target Number (R of Average)". */
  target: number;
  /** "Winning Number": the number closest to the target (the lower one when two numbers tie). */
  winning_number: number;
  /** "You chose". */
  chosen: number;
  /** "Congratulation you won" / "Unfortunately you lost". */
  won: boolean;
}

export interface GuessingView extends RoundsTold {
  min: number;
  max: number;
  /** R: the target is R × the average. */
  ratio: number;
  history: GuessingRoundSeen[];
}

// ---------------------------------------------------------------- El Farol

export type ElFarolChoice = "go" | "stay";

export interface ElFarolRoundSeen {
  round: number;
  /** "You chose". */
  choice: ElFarolChoice;
  /** "You gained": MAX or MIN for a goer, HOME for a stayer. */
  gained: number;
  /**
   * Explicit feedback (everyone) and implicit feedback to a goer: how many
   * went, how many stayed, and whether going was fun (attendance ≤ R·N).
   * Implicit feedback to a stayer: null (it learns only its own HOME utility).
   */
  went: number | null;
  stayed: number | null;
  fun: boolean | null;
}

export interface ElFarolView extends RoundsTold {
  min: number;
  max: number;
  home: number;
  /** R: the capacity share (0.6 = 60% of the players). */
  ratio: number;
  feedback: "explicit" | "implicit";
  history: ElFarolRoundSeen[];
}

// ---------------------------------------------------------------- Divide the Dollar

export interface DollarRoundSeen {
  round: number;
  /** "Your bid amount was". */
  bid: number;
  /** "The sum of all bids was". */
  total: number;
  /** "The sum [does not exceed]/[exceeds] G". */
  exceeded: boolean;
  /** "You received [B]/[0] golds". */
  received: number;
}

export interface DollarView extends RoundsTold {
  /** G. */
  gold: number;
  history: DollarRoundSeen[];
}

// ---------------------------------------------------------------- Public Goods

export interface PublicGoodsRoundSeen {
  round: number;
  /** "Contributed tokens of each player", by seat. */
  contributions: number[];
  /** "You contributed". */
  contributed: number;
  /** "Tokens in the public pot": the sum of contributions (before the multiplier). */
  pot: number;
  /** "Your gain": this round's public share minus own contribution, R·pot/N − c. */
  gain: number;
  /** "Your tokens after round I": T − c + R·pot/N (this round's payoff). */
  tokens_after: number;
  /** "Tokens of each player after round I", by seat. */
  tokens_all: number[];
}

export interface PublicGoodsView extends RoundsTold {
  /** R: the multiplier of the pot. */
  ratio: number;
  /** "Currently you have T tokens": every round starts with T (the repository's reset = True). */
  tokens: number;
  history: PublicGoodsRoundSeen[];
}

// ---------------------------------------------------------------- Diner's Dilemma

export type DinerChoice = "costly" | "cheap";

export interface DinerRoundSeen {
  round: number;
  /** "N_h people chose the costly dish, while N_l chose the cheap dish". */
  costly: number;
  cheap: number;
  /** "The total cost is S". */
  total_cost: number;
  /** "You need to pay C": the equal share of the bill. */
  share: number;
  /** "You chose". */
  choice: DinerChoice;
  /** "Your utility is u": U(dish) − share. */
  utility: number;
}

export interface DinerView extends RoundsTold {
  /** P_l, U_l, P_h, U_h. */
  cheap_cost: number;
  cheap_utility: number;
  exp_cost: number;
  exp_utility: number;
  history: DinerRoundSeen[];
}

// ---------------------------------------------------------------- Sealed-Bid Auction

export type AuctionPricing = "first" | "second";

export interface AuctionRoundSeen {
  round: number;
  /** "Your valuation for this round's item was". */
  valuation: number;
  /** "Your bid was". */
  bid: number;
  /** "The winning bid was". */
  winning_bid: number;
  /** "The price paid was". */
  price: number;
  won: boolean;
  /** "Your utility is": valuation − price when won, else 0. */
  utility: number;
}

export interface AuctionView extends RoundsTold {
  /** The winner pays the highest (first) or second-highest (second) bid. */
  pricing: AuctionPricing;
  /** This round's private valuation (null once the game is over). The valuation range is not told. */
  valuation: number | null;
  history: AuctionRoundSeen[];
}

// ---------------------------------------------------------------- Battle Royale

export interface Shooter {
  seat: Seat;
  /** Percent. */
  hit_rate: number;
}

export interface ShotSeen {
  /** The turn, 1-based. */
  round: number;
  shooter: Seat;
  /** null: "intentionally missed the shot". */
  target: Seat | null;
  /** "shot at t and hit" / "but missed" (false for an intentional miss). */
  hit: boolean;
  /** "There are N_I players left". */
  left: number;
}

/** The round cap is not told (the paper's prompt does not mention it). */
export interface BattleRoyaleView {
  n_players: number;
  /** The current turn, 1-based. */
  round: number;
  /** This seat's hit rate (%). */
  hit_rate: number;
  /** 1-based shooting order among the survivors ("You are the RANK-th to shoot"); null once eliminated. */
  rank: number | null;
  /** The survivors with their hit rates, in shooting order (ascending hit rate). */
  alive: Shooter[];
  /** Whose turn it is (null when the game is over). */
  shooter: Seat | null;
  history: ShotSeen[];
}

// ---------------------------------------------------------------- Pirate Game

export type PirateVote = "accept" | "reject";

export interface ProposalSeen {
  round: number;
  proposer: Seat;
  /** Gold per survivor, most senior (the proposer) first, as `survivors` of that round. */
  plan: number[];
  survivors: Seat[];
  /** "A_I of N pirates chose to accept". */
  accepts: number;
  accepted: boolean;
  /** "You chose" (null when this seat did not vote). */
  your_vote: PirateVote | null;
  /**
   * The plan as the proposer wrote it: its JSON object's entries, keys and
   * values as given ({"2-th": "30", "3-rd": 20} -> [["2-th", "30"], ["3-rd", 20]]).
   * The repository echoes the proposer's own object in the report and the
   * voters' request ({'2-th': '30', '3-rd': 20}). Absent (a scripted
   * proposer, or a list): the plan in the requested form.
   */
  plan_written?: [key: string, value: string | number][];
}

export interface PirateView {
  n_players: number;
  /** G. */
  gold: number;
  /** "You are the RANK-th most senior pirate" (seat + 1). */
  rank: number;
  /** The current proposal round, 1-based. */
  round: number;
  /** What is asked now: a plan from the proposer, a vote from everyone, or nothing (game over or eliminated). */
  phase: "propose" | "vote" | "over";
  proposer: Seat | null;
  /** Surviving pirates, most senior first. */
  survivors: Seat[];
  /** The plan being voted on (phase "vote"), as `survivors`; else null. */
  plan: number[] | null;
  /** "You will get g golds from this plan" (phase "vote"); else null. */
  offered: number | null;
  /** The plan being voted on as its proposer wrote it (see ProposalSeen). */
  plan_written?: [key: string, value: string | number][];
  history: ProposalSeen[];
}

/** Every gamma-Bench view, by game id. */
export interface GamabenchViews {
  "gamabench/guessing": GuessingView;
  "gamabench/el_farol": ElFarolView;
  "gamabench/divide_dollar": DollarView;
  "gamabench/public_goods": PublicGoodsView;
  "gamabench/diner": DinerView;
  "gamabench/sealed_bid": AuctionView;
  "gamabench/battle_royale": BattleRoyaleView;
  "gamabench/pirate": PirateView;
}

/**
 * A resolved round's result for one seat, as `settled()` lists them (see
 * GamabenchState). The runner merges it onto the seat's legal turns row of
 * that round (same game_id, round, seat; `action` names the row's action type
 * when a seat acts twice in a round: the pirate proposer's "propose" and
 * "vote"). Fields absent where the game has no such fact.
 */
export interface SettledResult extends Settled {
  round: number;
  seat: Seat;
  /** The action type of the turns row this belongs to. */
  action: string;
  /** This seat's payoff from this round (guessing: 1 won, 0 lost; pirate: gold on the accepted round). */
  payoff?: number;
  /** Guessing: closest to the target; auction: got the item. */
  won?: boolean;
  /** Battle royale, on the shooter's row: the shot hit (false for a miss). */
  hit?: boolean;
}
