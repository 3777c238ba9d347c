/**
 * GLEE's three families on the game contract (Shapira et al. 2024, "GLEE: A
 * Unified Framework and Benchmark for Language-based Economic
 * Environments", §2 and Table 1): `glee/bargaining`, `glee/negotiation`,
 * `glee/persuasion`.
 *
 * Seat 0 is Alice (moves first; seller in negotiation and persuasion), seat 1
 * Bob. The rules stay in the family modules (bargaining.ts, negotiation.ts,
 * persuasion.ts, alternating.ts); this file declares their parameters once
 * (Table 1 grids, the paper's defaults, Table 8's regression baselines) and
 * adapts their two-player states to the contract. A seat's `view` is the
 * family's own observation (types.ts `Observation`), which GLEE's scripted
 * agents and its narrator read. Games rows keep GLEE's familiar columns
 * (family, alice_agent, bob_agent, alice_utility, ...; schema.ts), so the
 * GLEE metrics, regressions and pages read Parley runs as before.
 */
import type {Column} from "../../io/schema.js";
import {GLEE_GAMES, GLEE_TURNS} from "./tables.js";
import {gameFamily} from "./families.js";
import {valuations} from "./negotiation.js";
import type {Action, GameDef, ParamValue, GameObservation, GameResult, GameState, Mover, ParamSpec, Params, Seat} from "../../contract/game.js";
import type {Family, GameState as FamilyState, Observation, Params as FamilyParams, Player} from "./types.js";

export const GLEE_CITATION = {
  short: "GLEE (Shapira et al. 2024)",
  title: "GLEE: A Unified Framework and Benchmark for Language-based Economic Environments",
  authors: "Shapira, Madmon, Reinman, Amouyal, Reichart, Tennenholtz",
  year: 2024,
  section: "§2, Table 1",
};

const SEATS: readonly Player[] = ["alice", "bob"];

// horizon, rounds and turn are INTEGER columns, and a game keeps its turns in memory until it ends.
const horizon = (grid: readonly (number | "inf")[], def: number | "inf", allowInfinite: boolean): ParamSpec => ({
  name: "horizon", label: "T, number of rounds", type: "horizon", allowInfinite, min: 1, max: 10_000, default: def, grid, baseline: def,
  doc: allowInfinite ? '"inf": a long horizon the players are not told (played up to the family\'s cap)' : undefined,
});
const bool = (name: string, label: string, baseline: boolean): ParamSpec => ({name, label, type: "boolean", default: baseline, grid: [true, false], baseline});
const delta = (name: string, label: string): ParamSpec => ({name, label, type: "number", min: 0, max: 1, exclusiveMin: true, default: 0.9, grid: [0.8, 0.9, 0.95, 1], baseline: 0.9});
/**
 * M. Prompts show amounts to the cent: up to 1e12 every cent is exact in a
 * double (2^53 ≈ 9.0e15 cents) and amounts print as digits (toFixed switches
 * to exponent notation at 1e21, which broke the prompts); persuasion's
 * utilities M·(k(v−1) − low) stay finite.
 */
const money: ParamSpec = {name: "money", label: "M, money", type: "number", min: 0.01, max: 1e12, default: 1e4, grid: [1e2, 1e4, 1e6], baseline: 1e4};

const PARAMS: Record<Family, readonly ParamSpec[]> = {
  bargaining: [
    delta("delta_a", "δ_A, Alice's discount factor"),
    delta("delta_b", "δ_B, Bob's discount factor"),
    money,
    horizon([12, "inf"], "inf", true),
    bool("complete_information", "complete information", true),
    bool("messages", "free-text messages", false),
  ],
  negotiation: [
    {name: "factor_a", label: "F_A, seller's valuation factor", type: "number", min: 0, max: 1000, exclusiveMin: true, default: 1, grid: [0.8, 1, 1.2, 1.5], baseline: 1}, // M·F stays ≤ 1e15, exact to the cent
    {name: "factor_b", label: "F_B, buyer's valuation factor", type: "number", min: 0, max: 1000, exclusiveMin: true, default: 1, grid: [0.8, 1, 1.2, 1.5], baseline: 1},
    money,
    horizon([1, 10, "inf"], 1, true),
    bool("complete_information", "complete information", true),
    bool("messages", "free-text messages", false),
  ],
  persuasion: [
    {name: "prior", label: "p, prior of high quality", type: "number", min: 0, max: 1, exclusiveMin: true, exclusiveMax: true, default: 0.5, grid: [], baseline: 0.5},
    {name: "value_high", label: "v, buyer's value of high quality", type: "number", min: 1, max: 1000, exclusiveMin: true, default: 1.25, grid: [], baseline: 1.25},
    money,
    horizon([20], 20, false),
    bool("complete_information", "complete information", true),
    {name: "message_type", label: "message type", type: "choice", values: ["binary", "text"], default: "binary", grid: ["binary", "text"], baseline: "binary"},
    {name: "buyer_type", label: "buyer type", type: "choice", values: ["long_living", "myopic"], default: "long_living", grid: ["long_living", "myopic"], baseline: "long_living"},
  ],
};

/** Columns a GLEE games row carries beyond the common ones (the familiar wide GLEE table). */
const GAME_COLUMNS: readonly Column[] = GLEE_GAMES.columns.filter((c) => !["game_id", "source", "run_id", "seed", "config_id", "repetition", "rounds", "ended_by"].includes(c.name));
const TURN_COLUMNS: readonly Column[] = GLEE_TURNS.columns.filter((c) => !["game_id", "turn", "round", "message", "reasoning", "raw", "rule_break", "rule_break_reason", "attempt", "input_tokens", "output_tokens", "latency_ms"].includes(c.name));

/** The typed parameter columns of a GLEE games row (schema.ts), nulls left out. */
export function gleeParamColumns(params: FamilyParams, horizonCap: number): Record<string, unknown> {
  // Built in place (no spreads): this runs once per game of full-grid runs.
  const row: Record<string, unknown> = {family: params.family, money: params.money};
  if (params.horizon !== "inf") row.horizon = params.horizon;
  row.horizon_cap = horizonCap;
  row.complete_information = params.complete_information;
  switch (params.family) {
    case "bargaining":
      row.messages = params.messages;
      row.delta_a = params.delta_a;
      row.delta_b = params.delta_b;
      break;
    case "negotiation": {
      row.messages = params.messages;
      row.factor_a = params.factor_a;
      row.factor_b = params.factor_b;
      const v = valuations(params);
      row.value_a = v.value_a;
      row.value_b = v.value_b;
      break;
    }
    case "persuasion":
      row.messages = params.message_type === "text";
      row.prior = params.prior;
      row.value_high = params.value_high;
      row.message_type = params.message_type;
      row.buyer_type = params.buyer_type;
  }
  return row;
}

// Shared, never mutated: next() and turnInfo() run once per turn of every game.
const TURN_INFO = new Map<string, Readonly<Record<string, unknown>>>();
const TERMINAL: Mover = {kind: "terminal"};
const ALICE_MOVES: Mover = {kind: "seats", seats: [0]};
const BOB_MOVES: Mover = {kind: "seats", seats: [1]};

/** A family's two-player state as a contract state. */
class GleeState implements GameState<Observation> {
  readonly nSeats = 2;
  /** The last observation made for each seat, for turnInfo (role, quality). */
  private last: (Observation | null)[] = [null, null];

  constructor(private readonly game: string, private readonly state: FamilyState) {}

  next(): Mover {
    const p = this.state.currentPlayer();
    return p === null ? TERMINAL : p === "alice" ? ALICE_MOVES : BOB_MOVES;
  }

  private toMove(seat: Seat): boolean {
    return this.state.currentPlayer() === SEATS[seat];
  }

  legal(seat: Seat) {
    return this.toMove(seat) ? this.state.legalActions() : [];
  }

  validate(seat: Seat, action: unknown): string | null {
    if (!this.toMove(seat)) return `it is not ${SEATS[seat]}'s turn`;
    return this.state.validate(action);
  }

  apply(actions: readonly Action[]): void {
    this.state.apply(actions[0] as never);
  }

  observe(seat: Seat): GameObservation<Observation> {
    const view = this.state.observe(SEATS[seat]);
    this.last[seat] = view;
    return {game: this.game, game_id: this.state.gameId, seat, seat_name: SEATS[seat], n_seats: 2, round: view.round, view, legal: view.legal};
  }

  turnInfo(seat: Seat): Record<string, unknown> {
    const obs = this.last[seat];
    const role = obs?.role ?? "";
    const quality = obs && obs.family === "persuasion" && seat === 0 ? ((obs.view as {quality: string | null}).quality ?? "") : "";
    // A handful of distinct values (seat × role × quality), shared: this runs once per turn of every game.
    const key = `${seat}|${role}|${quality}`;
    let info = TURN_INFO.get(key);
    if (!info) {
      info = Object.freeze({player: SEATS[seat], ...(role && {role}), ...(quality && {quality})});
      TURN_INFO.set(key, info);
    }
    return info;
  }

  abort(seat: Seat, reason: string): void {
    this.state.abort(SEATS[seat], reason);
  }

  result(): GameResult {
    const o = this.state.outcome() as unknown as Record<string, unknown>;
    const game: Record<string, unknown> = {};
    for (const k in o) if (o[k] !== null && o[k] !== undefined && k !== "rounds" && k !== "ended_by") game[k] = o[k];
    return {rounds: o.rounds as number, ended_by: o.ended_by as string, game, seats: [{}, {}], returns: [(o.alice_utility as number | null) ?? 0, (o.bob_utility as number | null) ?? 0]};
  }
}

function gleeDef(family: Family, title: string, section: string, description: string): GameDef {
  const fam = gameFamily(family);
  const cap = (params: Params) => (params.horizon === "inf" ? fam.infiniteCap : (params.horizon as number));
  return {
    id: `glee/${family}`,
    title,
    citation: {...GLEE_CITATION, section},
    seats: {min: 2, max: 2, default: 2, names: SEATS},
    moves: "sequential",
    description,
    // Table 1's grids, in the family's order (config ids depend on it), live once in the family module.
    params: PARAMS[family].map((spec) => ({...spec, grid: (fam.grid as Record<string, readonly ParamValue[]>)[spec.name]})),
    columns: {games: GAME_COLUMNS, players: [], turns: TURN_COLUMNS},
    paramColumns: (params) => gleeParamColumns({family, ...params} as FamilyParams, cap(params)),
    idStem: () => family,
    start: (params, {gameId, rng}) => new GleeState(`glee/${family}`, fam.start({family, ...params} as never, gameId, rng) as unknown as FamilyState),
  };
}

export const gleeGames: GameDef[] = [
  gleeDef("bargaining", "Bargaining (alternating offers)", "§2.1, Table 1", "Alice and Bob divide M by alternating offers; each discounts money by its δ every round (Rubinstein)."),
  gleeDef("negotiation", "Negotiation (seller and buyer)", "§2.2, Table 1", "A seller valuing the product at F_A·M and a buyer valuing it at F_B·M alternate price offers."),
  gleeDef("persuasion", "Persuasion (repeated cheap talk)", "§2.3, Table 1", "Over 20 rounds a seller who sees each product's quality sends a message; the buyer decides to buy at price M."),
];

/** `family` (a run config's GLEE alias) -> game id. */
export const gleeGameId = (family: Family): string => `glee/${family}`;
