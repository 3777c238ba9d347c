/**
 * Columns of the gamma-Bench games (Huang et al. 2024, "How Far Are We on the
 * Decision-Making of LLMs?", §3), shared by the engine (games played by
 * `parley run`) and the ingest of the paper's raw results
 * (loaders/papers/gamabench/ingest.ts), so one score SQL (src/lib/gamabench.ts)
 * reads both. Each game declares the subset it uses.
 */
import type {Column} from "../../io/schema.js";

/** games: parameters (named as in the raw results' meta) and outcome. */
export const GB_GAME = {
  variant: {name: "variant", type: "VARCHAR", doc: "the raw results' game name: guessing_game, bar_game_explicit, bar_game_implicit, divide_dollar, public_goods, diner_dilemma, sealed_bid_auction_first_price, sealed_bid_auction_second_price, battle_royale, pirate_game"},
  model: {name: "model", type: "VARCHAR", doc: "the model that played every seat (ingest: from the file name); Parley runs: the lineup"},
  run: {name: "run", type: "INTEGER", doc: "1-based run number"},
  version: {name: "version", type: "VARCHAR", doc: "prompt version (v1)"},
  file: {name: "file", type: "VARCHAR", doc: "ingest: path relative to the ingested directory"},
  transcript_format: {name: "transcript_format", type: "VARCHAR"},
  player_order: {name: "player_order", type: "VARCHAR"},
  param_min: {name: "param_min", type: "DOUBLE", doc: "MIN (guessing game, El Farol)"},
  param_max: {name: "param_max", type: "DOUBLE", doc: "MAX (guessing game, El Farol)"},
  ratio: {name: "ratio", type: "DOUBLE", doc: "R: target ratio (guessing), capacity share (El Farol), multiplier (public goods)"},
  home: {name: "home", type: "DOUBLE", doc: "El Farol utility of staying home"},
  mode: {name: "mode", type: "VARCHAR", doc: "El Farol explicit/implicit; auction first_price/second_price"},
  gold: {name: "gold", type: "DOUBLE", doc: "G (divide the dollar, pirate game)"},
  tokens: {name: "tokens", type: "DOUBLE", doc: "T (public goods)"},
  cheap_cost: {name: "cheap_cost", type: "DOUBLE"},
  cheap_utility: {name: "cheap_utility", type: "DOUBLE"},
  exp_cost: {name: "exp_cost", type: "DOUBLE"},
  exp_utility: {name: "exp_utility", type: "DOUBLE"},
  valuation_min: {name: "valuation_min", type: "DOUBLE"},
  valuation_max: {name: "valuation_max", type: "DOUBLE"},
  base_hit_rate: {name: "base_hit_rate", type: "DOUBLE", doc: "battle royale: lowest hit rate (%)"},
  hit_interval: {name: "hit_interval", type: "DOUBLE", doc: "battle royale: step between hit rates (%)"},
  winner: {name: "winner", type: "INTEGER", doc: "battle royale survivor, or the proposer whose pirate plan passed"},
  max_rounds: {name: "max_rounds", type: "INTEGER", doc: "K: rounds planned (battle royale: the cap on turns); Parley runs"},
} satisfies Record<string, Column>;

/** players: per seat. */
export const GB_PLAYER = {
  hit_rate: {name: "hit_rate", type: "DOUBLE", doc: "battle royale hit rate (%)"},
  survived: {name: "survived", type: "BOOLEAN", doc: "battle royale, pirate game: still in at the end"},
} satisfies Record<string, Column>;

/** turns: one row per decision (rule-break attempts included). */
export const GB_TURN = {
  amount: {name: "amount", type: "DOUBLE", doc: "numeric decision: chosen number, bid, contribution"},
  choice: {name: "choice", type: "VARCHAR", doc: "go/stay (El Farol), cheap/costly (diner), accept/reject (pirate vote)"},
  target: {name: "target", type: "INTEGER", doc: "battle royale: seat aimed at; null = intentional miss"},
  plan: {name: "plan", type: "DOUBLE[]", doc: "pirate proposal: gold for each pirate left, most senior first"},
  valuation: {name: "valuation", type: "DOUBLE", doc: "auction: this seat's private valuation this round"},
  hit_rate: {name: "hit_rate", type: "DOUBLE", doc: "battle royale: the shooter's hit rate (%)"},
  position: {name: "position", type: "INTEGER", doc: "pirate: rank among those left (1 = proposer); battle royale: shooting order among those left"},
  allocation: {name: "allocation", type: "DOUBLE", doc: "pirate vote: gold the plan gives this voter"},
  alive: {name: "alive", type: "INTEGER[]", doc: "battle royale: seats alive when the shot was taken"},
  alive_rates: {name: "alive_rates", type: "DOUBLE[]", doc: "battle royale: their hit rates (%), in the same order"},
  hit: {name: "hit", type: "BOOLEAN", doc: "battle royale: the shot hit"},
  won: {name: "won", type: "BOOLEAN", doc: "guessing game: closest to the target (ties all win); auction: got the item"},
  payoff: {name: "payoff", type: "DOUBLE", doc: "this seat's payoff from this round by the paper's rules"},
  utility_recorded: {name: "utility_recorded", type: "DOUBLE", doc: "ingest: per-round utility as the raw file records it"},
} satisfies Record<string, Column>;
