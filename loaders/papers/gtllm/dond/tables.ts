/**
 * The games and turns tables of Deal or No Deal: the human dialogues
 * (ingest/dond.ts) and played games (games/dondGame.ts) share them, so one
 * SQL (src/lib/dond.ts) scores both. Pure, for the browser's play engine.
 */
import type {TableSchema} from "../../../io/schema.js";

export const DOND_GAMES: TableSchema = {
  name: "games",
  key: ["game_id"],
  columns: [
    {name: "game_id", type: "VARCHAR", nullable: false},
    {name: "source", type: "VARCHAR", nullable: false},
    {name: "family", type: "VARCHAR", nullable: false},
    {name: "file", type: "VARCHAR", doc: "input file name"},
    {name: "line_a", type: "INTEGER", doc: "line seen from Alice's side (1-based), null if absent"},
    {name: "line_b", type: "INTEGER", doc: "line seen from Bob's side"},
    {name: "alice_agent", type: "VARCHAR"},
    {name: "bob_agent", type: "VARCHAR"},
    {name: "counts", type: "INTEGER[]", doc: "item counts: books, hats, balls"},
    {name: "values_a", type: "INTEGER[]"},
    {name: "values_b", type: "INTEGER[]"},
    {name: "outcome", type: "VARCHAR", doc: "agreement | disagree | no_agreement | disconnect"},
    {name: "agreement", type: "BOOLEAN"},
    {name: "alloc_a", type: "INTEGER[]", doc: "Alice's items when agreed"},
    {name: "alloc_b", type: "INTEGER[]"},
    {name: "messages", type: "INTEGER"},
    {name: "selection_by", type: "VARCHAR", doc: "who ended the chat by pressing selection (played games: who halted the talk)"},
    // Played games (dond/negotiation, loaders/papers/gtllm/dond/hardPoints.ts) and the human outcomes of the 50 hard points.
    {name: "point", type: "INTEGER", doc: "row of the 50 hard points (Hua et al. 2024 §5.3)"},
    {name: "run_id", type: "VARCHAR"},
    {name: "rounds", type: "INTEGER", doc: "played games: rounds of talk"},
    {name: "ended_by", type: "VARCHAR", doc: "played games: halt | cap | rule_break"},
    {name: "ef_feasible", type: "BOOLEAN", doc: "some allocation is envy free for both"},
    {name: "deal_a", type: "INTEGER[]", doc: "played games: the deal Alice wrote"},
    {name: "deal_b", type: "INTEGER[]"},
  ],
};

export const DOND_TURNS: TableSchema = {
  name: "turns",
  key: ["game_id", "turn"],
  columns: [
    {name: "game_id", type: "VARCHAR", nullable: false},
    {name: "turn", type: "INTEGER", nullable: false, doc: "0-based order within the dialogue"},
    {name: "player", type: "VARCHAR", doc: "alice | bob"},
    {name: "action", type: "VARCHAR", doc: "message | selection; played games: message | halt | deal | no_deal | workflow"},
    {name: "text", type: "VARCHAR"},
    {name: "round", type: "INTEGER", doc: "played games: 1-based round"},
    {name: "rule_break", type: "BOOLEAN"},
    {name: "rule_break_reason", type: "VARCHAR"},
    {name: "proposal", type: "INTEGER[]", doc: "played games: the share the speaker proposed or wrote"},
    {name: "belief", type: "VARCHAR[]", doc: "belief workflow: opponent valuations still possible"},
  ],
};
