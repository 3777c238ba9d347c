/**
 * What each seat of an Economics Arena game is told (Economics Arena (Guo et
 * al. 2024), Appendix B): the `view` of `GameState.observe(seat)`. Narrators
 * (loaders/papers/econarena/narrators.ts) turn it into the paper's words;
 * agents act on it. Seats are 0-based and are the players' ids ("your id is").
 *
 * A game is one session (./session.ts): `runs` runs of the one-shot game with
 * the same configuration; from run 2 on, the view holds the last
 * `history_window` runs (the paper: 6 runs, at most 3 shown). With runs = 1
 * (every environment but history) the history is empty.
 *
 * Actions (fields named as the turns columns):
 * - beauty contest: {type: "choose", amount: real in [0, c̄], popular_answer?: real}
 * - sealed-bid auctions: {type: "bid", amount: real in [0, assets]}
 * - English auction: {type: "clock", choice: "stay" | "drop"} at each clock price ("stay" only up to one's assets)
 */
import type {Seat} from "../../contract/game.js";

/**
 * The environments of §4 (Appendix B): melee and senior (LLMs against each
 * other; senior is a hand-picked pool of five, told the same), rational (one
 * LLM against four rational agents, told so) and cot (rational, plus "Let's
 * think step by step"). History is `runs` > 1 with any of them.
 */
export type Environment = "melee" | "senior" | "rational" | "cot";

/** Told in every Economics Arena game. */
export interface SessionTold {
  n_players: number;
  environment: Environment;
  /** "you can assume that other are all perfectly rational players" (rational, cot). */
  told_rational: boolean;
  /** "Let's think step by step" (cot). */
  chain_of_thought: boolean;
  /** Runs in this session and the current one (1-based; runs + 1 once over). */
  runs: number;
  run: number;
  /** Runs of history shown at most (the paper: 3, for the token limit). */
  history_window: number;
}

export interface BeautyRunSeen {
  run: number;
  /** Everyone's answer by id (null: that player broke the rules and was left out). */
  answers: (number | null)[];
  /** Two thirds of the average of the valid answers. */
  target: number | null;
  /** Ids of the winners (they split the prize). */
  winners: Seat[];
  /** Everyone's payoff by id. */
  payoffs: number[];
}

export interface BeautyView extends SessionTold {
  /** c̄: choose a real number in [0, c̄]. */
  upper_bound: number;
  /** x: the prize the winners split. */
  prize: number;
  /** The last runs (at most history_window), oldest first. */
  history: BeautyRunSeen[];
}

export type AuctionPricing = "second" | "first" | "english";

export interface AuctionRunSeen {
  run: number;
  /** Everyone's bid by id (English: the highest price each stayed in for; null: broke the rules). */
  bids: (number | null)[];
  /** Everyone's private value by id (revealed in the history, Appendix A.3.2 (2)). */
  values: number[];
  winner: Seat | null;
  price: number | null;
  /** Everyone's payoff by id: assets − payment + value for the winner, assets otherwise (less the entrance fee after a rule break). */
  payoffs: number[];
}

/** The English auction's clock now. */
export interface ClockView {
  /** The price asked now: stay in (willing to pay it) or drop out for good. */
  price: number;
  increment: number;
  /** Ids still in. */
  active: Seat[];
}

export interface AuctionView extends SessionTold {
  pricing: AuctionPricing;
  /** This bidder's private value (the same in every run of the session). */
  value: number;
  /** This bidder's assets: bids above them break the rules. */
  assets: number;
  /** The distribution private values are drawn from (needed by first-price equilibrium bidding). */
  value_mean: number;
  value_sd: number;
  /** The English auction's clock (null in sealed-bid auctions and once a run is over). */
  clock: ClockView | null;
  history: AuctionRunSeen[];
}

export interface EconArenaViews {
  "econarena/beauty_contest": BeautyView;
  "econarena/auction": AuctionView;
}
