/**
 * Columns of NegotiationArena's games (NegotiationArena (Bianchi et al. 2024),
 * "How Well Can LLMs Negotiate? NegotiationArena Platform and Analysis"),
 * shared by the engine (games played by `parley run`) and the ingest of the
 * authors' buy/sell logs (loaders/papers/negotiationarena/ingest.ts), so one SQL
 * (src/lib/negotiationArena.ts) and one set of pages read both. P1 is Player
 * RED (moves first), P2 Player BLUE.
 */
import type {Column} from "../../io/schema.js";

/** games: parameters, who played, outcome. */
export const NA_GAME = {
  game: {name: "game", type: "VARCHAR", nullable: false, doc: "negotiationarena/resource_exchange, negotiationarena/ultimatum or negotiationarena/buy_sell; a run directory carries it as its partition instead"},
  file: {name: "file", type: "VARCHAR", doc: "ingest: the game_state.json below the ingested directory"},
  started_ms: {name: "started_ms", type: "BIGINT", doc: "ingest: run_epoch_time_ms"},
  iterations: {name: "iterations", type: "INTEGER", doc: "turn budget: messages in the game (8, 8 and 10 in Tables 1-3)"},
  p1_agent: {name: "p1_agent", type: "VARCHAR", doc: "Player RED (moves first): agent id or model"},
  p2_agent: {name: "p2_agent", type: "VARCHAR", doc: "Player BLUE"},
  p1_name: {name: "p1_name", type: "VARCHAR", doc: "Player RED"},
  p2_name: {name: "p2_name", type: "VARCHAR", doc: "Player BLUE"},
  p1_role: {name: "p1_role", type: "VARCHAR", doc: "buy/sell: seller | buyer"},
  p2_role: {name: "p2_role", type: "VARCHAR"},
  p1_behaviour: {name: "p1_behaviour", type: "VARCHAR", doc: "social behaviour (cunning, desperate, or the logged prompt text); null for none"},
  p2_behaviour: {name: "p2_behaviour", type: "VARCHAR"},
  p1_temperature: {name: "p1_temperature", type: "DOUBLE"},
  p2_temperature: {name: "p2_temperature", type: "DOUBLE"},
  p1_resources: {name: "p1_resources", type: "VARCHAR", doc: "initial resources as JSON, e.g. {\"X\":25,\"Y\":5}"},
  p2_resources: {name: "p2_resources", type: "VARCHAR"},
  // Resource exchange (Table 1; extended variant Fig. 14)
  red_x: {name: "red_x", type: "INTEGER", doc: "resource exchange: RED's initial X"},
  red_y: {name: "red_y", type: "INTEGER"},
  blue_x: {name: "blue_x", type: "INTEGER"},
  blue_y: {name: "blue_y", type: "INTEGER"},
  blue_z: {name: "blue_z", type: "INTEGER", doc: "extended variant: BLUE also holds Z: 10 and W: 7"},
  blue_w: {name: "blue_w", type: "INTEGER"},
  // Ultimatum (Table 2, §5.2)
  stake: {name: "stake", type: "DOUBLE", doc: "ultimatum: dollars RED starts with (100; 10 in the classical variants; up to 1e10)"},
  injected_offer: {name: "injected_offer", type: "DOUBLE", doc: "ultimatum: the amount offered to the decider on the penultimate turn by the game itself (§5.2 acceptance test); null when played"},
  p1_share: {name: "p1_share", type: "DOUBLE", doc: "ultimatum: RED's final dollars / stake (Fig. 10)"},
  // Seller and buyer (Table 3, §5.1)
  seller_cost: {name: "seller_cost", type: "DOUBLE", doc: "buy/sell: the seller's production cost (drawn when valuation_spread > 0)"},
  buyer_value: {name: "buyer_value", type: "DOUBLE", doc: "buy/sell: the buyer's willingness to pay"},
  budget: {name: "budget", type: "DOUBLE", doc: "buy/sell: the buyer's ZUP"},
  valuation_spread: {name: "valuation_spread", type: "DOUBLE", doc: "buy/sell: 0, or s: cost ~ U{cost − s, cost}, value ~ U{value, value + s} (§5.1: s = 20)"},
  denomination: {name: "denomination", type: "DOUBLE", doc: "buy/sell: every amount scaled by X (§5.1: 40X, 60X, 100X)"},
  // Outcome
  final_response: {name: "final_response", type: "VARCHAR", doc: "ACCEPT | REJECT | null when the turns ran out"},
  agreement: {name: "agreement", type: "BOOLEAN", doc: "a trade was executed"},
  price: {name: "price", type: "DOUBLE", doc: "buy/sell: ZUP paid in the accepted trade"},
  first_price: {name: "first_price", type: "DOUBLE", doc: "buy/sell: p₁, the seller's first proposal"},
  p1_final_resources: {name: "p1_final_resources", type: "VARCHAR"},
  p2_final_resources: {name: "p2_final_resources", type: "VARCHAR"},
  p1_payoff: {name: "p1_payoff", type: "DOUBLE", doc: "change in resources (exchange), dollars kept (ultimatum), price − cost or value − price (buy/sell)"},
  p2_payoff: {name: "p2_payoff", type: "DOUBLE"},
  p1_payoff_recorded: {name: "p1_payoff_recorded", type: "DOUBLE", doc: "ingest: summary.player_outcome as the file records it"},
  p2_payoff_recorded: {name: "p2_payoff_recorded", type: "DOUBLE"},
  winner: {name: "winner", type: "VARCHAR", doc: "p1 | p2 | tie: the larger payoff wins (§3); ties are left out of win rates"},
} satisfies Record<string, Column>;

/** players: per seat. */
export const NA_PLAYER = {
  role: {name: "role", type: "VARCHAR", doc: "buy/sell: seller | buyer; ultimatum: proposer (RED) | responder"},
  behaviour: {name: "behaviour", type: "VARCHAR"},
  final_resources: {name: "final_resources", type: "VARCHAR", doc: "JSON"},
  won: {name: "won", type: "BOOLEAN", doc: "null on a tie"},
} satisfies Record<string, Column>;

/** turns: one row per message (rule-break attempts included). */
export const NA_TURN = {
  role: {name: "role", type: "VARCHAR"},
  trade: {name: "trade", type: "VARCHAR", doc: "the newly proposed trade as JSON: {\"RED\": {what RED gives}, \"BLUE\": {what BLUE gives}}"},
  price: {name: "price", type: "DOUBLE", doc: "buy/sell: ZUP in the newly proposed trade"},
  offer: {name: "offer", type: "DOUBLE", doc: "ultimatum: dollars the proposed trade gives BLUE"},
  private_goals: {name: "private_goals", type: "VARCHAR", doc: "<my goals> as the player restated it (never shown to the other player)"},
  private_resources: {name: "private_resources", type: "VARCHAR", doc: "<my resources> as the player restated it"},
  proposal_count: {name: "proposal_count", type: "INTEGER", doc: "proposals the player has made, this one included"},
  made_by_game: {name: "made_by_game", type: "BOOLEAN", doc: "ultimatum: the game made this proposal for the seat (§5.2 acceptance test's injected offer); null for the seats' own moves"},
} satisfies Record<string, Column>;
