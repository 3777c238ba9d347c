/**
 * The common `games` and `turns` tables of the three GLEE families (GLEE (Shapira et al. 2024)
 * §2, Table 1). Simulated tournaments (`parley run`), ingested human-vs-LLM
 * GLEE logs and LLM runs all write exactly these columns, so one metric SQL
 * (src/lib/gleeMetrics.ts) reads them all. A column that does not apply to a
 * family is null (e.g. delta_a in negotiation).
 */
import type {TableSchema} from "../../io/schema.js";

export const GLEE_GAMES: TableSchema = {
  name: "games",
  key: ["game_id"],
  columns: [
    // identity
    {name: "game_id", type: "VARCHAR", nullable: false},
    {name: "source", type: "VARCHAR", nullable: false, doc: "simulated | glee-human | ... (who produced the log)"},
    {name: "family", type: "VARCHAR", nullable: false, doc: "bargaining | negotiation | persuasion"},
    {name: "run_id", type: "VARCHAR", doc: "name of the run config"},
    {name: "seed", type: "BIGINT", doc: "run seed the game's randomness derives from"},
    {name: "config_id", type: "INTEGER", doc: "index of the parameter configuration within the family grid"},
    {name: "repetition", type: "INTEGER", doc: "0-based game number for this configuration and pair"},
    {name: "alice_agent", type: "VARCHAR", doc: "agent id or model name playing Alice (moves first; seller in negotiation and persuasion)"},
    {name: "bob_agent", type: "VARCHAR"},
    // parameters (Table 1)
    {name: "money", type: "DOUBLE", doc: "M: sum to divide / price scale"},
    {name: "horizon", type: "INTEGER", doc: "T; null when T = ∞ (long and not told to the players)"},
    {name: "horizon_cap", type: "INTEGER", doc: "stage limit actually used: T, or the cap standing in for ∞"},
    {name: "complete_information", type: "BOOLEAN"},
    {name: "messages", type: "BOOLEAN", doc: "bargaining/negotiation: free-text messages allowed (MA); persuasion: message_type = text"},
    {name: "delta_a", type: "DOUBLE", doc: "bargaining: Alice's discount factor"},
    {name: "delta_b", type: "DOUBLE"},
    {name: "factor_a", type: "DOUBLE", doc: "negotiation: F_A (V_A = M·F_A)"},
    {name: "factor_b", type: "DOUBLE"},
    {name: "value_a", type: "DOUBLE", doc: "negotiation: V_A"},
    {name: "value_b", type: "DOUBLE", doc: "negotiation: V_B"},
    {name: "prior", type: "DOUBLE", doc: "persuasion: p, prior of high quality"},
    {name: "value_high", type: "DOUBLE", doc: "persuasion: v, Bob's value of high quality (price 1)"},
    {name: "message_type", type: "VARCHAR", doc: "persuasion: binary | text"},
    {name: "buyer_type", type: "VARCHAR", doc: "persuasion: long_living | myopic"},
    // outcome
    {name: "rounds", type: "INTEGER", doc: "stages played (t_ev when agreed)"},
    {name: "ended_by", type: "VARCHAR", doc: "agreement | horizon | rule_break | completed (persuasion) | outside_option (negotiation)"},
    {name: "agreement", type: "BOOLEAN", doc: "bargaining/negotiation: a proposal was accepted"},
    {name: "alice_share", type: "DOUBLE", doc: "bargaining: p_ev, Alice's undiscounted share of M"},
    {name: "alice_gain", type: "DOUBLE", doc: "bargaining: amount agreed for Alice (undiscounted)"},
    {name: "bob_gain", type: "DOUBLE"},
    {name: "price", type: "DOUBLE", doc: "negotiation: agreed price"},
    {name: "alice_utility", type: "DOUBLE", doc: "utility per §2 (bargaining discounted; 0 without a deal)"},
    {name: "bob_utility", type: "DOUBLE"},
    {name: "high_quality", type: "BOOLEAN[]", doc: "persuasion: quality of each round was high"},
    {name: "purchased", type: "BOOLEAN[]", doc: "persuasion: Bob bought in each round"},
    {name: "n_high", type: "INTEGER", doc: "persuasion: n_ev, rounds of high quality"},
    {name: "k_high_bought", type: "INTEGER", doc: "persuasion: k_ev, high-quality rounds bought"},
    {name: "r_low_rejected", type: "INTEGER", doc: "persuasion: r_ev, low-quality rounds not bought"},
    {name: "sales", type: "INTEGER", doc: "persuasion: rounds bought"},
  ],
};

export const GLEE_TURNS: TableSchema = {
  name: "turns",
  key: ["game_id", "turn"],
  columns: [
    {name: "game_id", type: "VARCHAR", nullable: false},
    {name: "turn", type: "INTEGER", nullable: false, doc: "0-based order within the game, rule-break attempts included"},
    {name: "round", type: "INTEGER", nullable: false, doc: "1-based stage"},
    {name: "player", type: "VARCHAR", nullable: false, doc: "alice | bob"},
    {name: "role", type: "VARCHAR", doc: "proposer | responder | seller | buyer"},
    {name: "action", type: "VARCHAR", doc: "offer | decision | message (the attempted type; null if unreadable)"},
    {name: "alice_gain", type: "DOUBLE", doc: "bargaining offer: Alice's part"},
    {name: "bob_gain", type: "DOUBLE"},
    {name: "price", type: "DOUBLE", doc: "negotiation offer"},
    {name: "claim", type: "VARCHAR", doc: "persuasion: high | low, what Alice's message states (binary, or declared by a scripted sender)"},
    {name: "quality", type: "VARCHAR", doc: "persuasion: the round's true quality (on Alice's row; only she sees it)"},
    {name: "message", type: "VARCHAR", doc: "free text sent to the other player"},
    {name: "decision", type: "VARCHAR", doc: "accept | reject (persuasion: accept = buy)"},
    {name: "reasoning", type: "VARCHAR", doc: "private reasoning, never shown to the other player"},
    {name: "raw", type: "VARCHAR", doc: "unparsed response of a language agent"},
    {name: "rule_break", type: "BOOLEAN", doc: "the attempt was illegal and not applied"},
    {name: "rule_break_reason", type: "VARCHAR"},
    {name: "attempt", type: "INTEGER", doc: "1 for the first try of this decision, 2... after rule breaks"},
    {name: "input_tokens", type: "INTEGER"},
    {name: "output_tokens", type: "INTEGER"},
    {name: "latency_ms", type: "DOUBLE"},
    {name: "cached_input_tokens", type: "INTEGER", doc: "of input_tokens, those billed at the cached-input price"},
    {name: "reasoning_tokens", type: "INTEGER", doc: "of output_tokens, the model's thinking"},
    {name: "cache_write_tokens", type: "INTEGER", doc: "of input_tokens, those written to the provider's prompt cache"},
  ],
};

/** A games row: column name -> value (see GLEE_GAMES). */
export type GameRow = Record<string, unknown> & {game_id: string; family: string};
/** A turns row (see GLEE_TURNS). */
export type TurnRow = Record<string, unknown> & {game_id: string; turn: number; round: number; player: string};
