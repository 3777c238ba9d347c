/**
 * The game contract every Parley game implements, in the spirit of
 * OpenSpiel's split of game and state.
 *
 * A `GameDef` is the registered definition: an id (`glee/bargaining`,
 * `gamabench/guessing`), a title and the paper it comes from, its seats,
 * whether moves are sequential or simultaneous, its parameters (declared
 * once: type, range, the paper's default and grid, the regression baseline;
 * grid expansion, config validation, storage columns and page labels all read
 * this one declaration) and the game-specific columns of the three tables.
 *
 * A `GameState` is one game in progress. `next()` says who moves now: one
 * seat, several seats at once (a simultaneous round), chance, or nobody (the
 * game is over). `legal(seat)` lists the legal actions as data, so a
 * language agent's answer can be checked (loaders/contract/legal.ts), and
 * `validate` says why an action is illegal (a rule break is data, not an
 * exception). `apply` takes one action per seat that was asked; `observe`
 * gives a seat its structured observation; `result` the outcome columns and
 * each seat's return.
 *
 * Games hold no prompt text: what a language model reads is written by a
 * narrator beside the LLM player (loaders/agents/llm/narrators/). Games know
 * nothing of agents or storage; the runner (loaders/runner/) connects them.
 */
import type {Rng} from "../../src/lib/rng.js";
import type {ActionSpec} from "../../src/lib/actionSpec.js";
import type {Column, ScalarType} from "../io/schema.js";

// Legal actions are data that the browser's move form reads too, so their shape is declared in src/lib.
export type {ActionSpec, NumberSpec} from "../../src/lib/actionSpec.js";

/** Seats are numbered from 0; a game may also name them (GLEE: alice, bob). */
export type Seat = number;

/** A paper, cited in the product by title, first author and year, with the section. */
export interface Citation {
  /** "GLEE (Shapira et al. 2024)". */
  short: string;
  title: string;
  authors: string;
  year: number;
  /** Section or table of the paper the game follows. */
  section: string;
}

export type ParamValue = number | string | boolean;

/**
 * A parameter, declared once. `type`:
 * - "number" / "integer": a finite number in [min, max] (bounds exclusive when
 *   the `exclusive` flag says so);
 * - "boolean";
 * - "choice": one of `values`;
 * - "horizon": a positive integer, or "inf" when `allowInfinite` (a long
 *   horizon the players are not told; stored as NULL).
 * `grid` is the paper's grid (`grid: "full"` in a run config), `default` the
 * vanilla value (a run config that leaves the parameter out).
 */
export interface ParamSpec {
  name: string;
  label: string;
  type: "number" | "integer" | "boolean" | "choice" | "horizon";
  min?: number;
  max?: number;
  exclusiveMin?: boolean;
  exclusiveMax?: boolean;
  values?: readonly ParamValue[];
  allowInfinite?: boolean;
  default: ParamValue;
  grid: readonly ParamValue[];
  /** The regression baseline level, where the paper has one. */
  baseline?: ParamValue;
  doc?: string;
}

export type Params = Record<string, ParamValue>;

/** Who moves now. */
export type Mover = {kind: "seats"; seats: readonly Seat[]} | {kind: "chance"} | {kind: "terminal"};

/** An action as the runner passes it on: a `type` and the spec's fields. */
export interface Action {
  type: string;
  [field: string]: unknown;
}

/** What one seat knows now: structured, game-specific `view`; `legal` is empty when the seat is not to move. */
export interface GameObservation<V = unknown> {
  game: string;
  game_id: string;
  seat: Seat;
  /** The seat's name when the game names seats (GLEE: alice, bob), else null. */
  seat_name: string | null;
  n_seats: number;
  /** 1-based round (or turn, in games that count turns). */
  round: number;
  view: V;
  legal: ActionSpec[];
  /** Set by the runner when it asks again after a rule break. */
  retry?: {attempt: number; error: string};
}

/** The end of a game: outcome columns for the games and players tables, and each seat's return. */
export interface GameResult {
  rounds: number;
  ended_by: string;
  /** Outcome columns of the games row (names from `GameDef.columns.games`). */
  game: Record<string, unknown>;
  /** Per seat: outcome columns of its players row (names from `GameDef.columns.players`). */
  seats: Record<string, unknown>[];
  /** Per seat: its payoff as the paper defines it. */
  returns: number[];
}

export interface GameState<V = unknown> {
  readonly nSeats: number;
  next(): Mover;
  /** Legal actions of `seat` now (empty when it is not to move). */
  legal(seat: Seat): ActionSpec[];
  /** null when `action` is legal for `seat` now, else why not (names the field). */
  validate(seat: Seat, action: unknown): string | null;
  /** Applies one legal action for every seat `next()` named (in that order). */
  apply(actions: readonly Action[]): void;
  /** Resolves a chance node (only when `next()` says chance), drawing from `chance` by the node's key (see `Chance`). */
  chance?(chance: Chance): void;
  observe(seat: Seat): GameObservation<V>;
  /** Hidden facts of this turn to record on `seat`'s turns row (e.g. its private valuation). */
  turnInfo?(seat: Seat): Record<string, unknown>;
  /**
   * Results of resolved rounds that belong on the turns rows of the decisions
   * they settle (a round's payoff, who won, whether a shot hit): one entry per
   * (round, seat, action type), merged by the runner onto that decision's
   * legal attempt. Asked once, when the game has ended.
   */
  settled?(): Settled[];
  /**
   * Moves the game made itself since it was last asked, not any seat's
   * answer (NegotiationArena's injected offer, §5.2), in order: the runner
   * asks after the start and after every apply, and writes each as a turns
   * row of the seat it is made for, so a transcript reads as the game went.
   */
  takeGameMoves?(): GameMove[];
  /** `seat` kept breaking the rules: the game applies its documented fallback. */
  abort(seat: Seat, reason: string): void;
  /**
   * Optional, instead of `abort` for games where a seat that kept breaking
   * the rules only sits this decision out (Economics Arena: it pays an
   * entrance fee and the run is resolved without it): the action that stands
   * for the seat, which `apply` then takes in its place. Games without it end
   * by `abort`.
   */
  forfeit?(seat: Seat, reason: string): Action;
  result(): GameResult;
}

/** A move the game made for a seat (GameState.takeGameMoves): its round, seat, action type and the turns columns it fills. */
export interface GameMove {
  round: number;
  seat: Seat;
  action: string;
  [column: string]: unknown;
}

/** A settled result: which decision it belongs to, and the turns columns it fills. */
export interface Settled {
  round: number;
  seat: Seat;
  action: string;
  [column: string]: unknown;
}

/**
 * The game's chance, by what is drawn: `chance("values/round-3")` is the
 * stream of round 3's private values. A key names the draw by its place in
 * the game (what is drawn, the round, the seat or shot), never by how many
 * draws came before, so that games of one configuration that take different
 * paths still draw the same numbers at the same place: under the run's
 * common scheme (loaders/runner/chance.ts) every key has its own stream,
 * derived from the run seed, the game, its configuration and repetition,
 * never from who sits. Asking for a key again continues its stream. Under
 * the per-game scheme (the built-in run configs) every key returns one
 * stream of the game, taken in sequence, as before keys existed.
 */
export type Chance = (key: string) => Rng;

export interface StartContext {
  gameId: string;
  nSeats: number;
  /** What the game draws (values, qualities, costs, types, a round's draws), by key: see `Chance`. */
  chance: Chance;
}

/** Game-specific columns of the three tables (the common ones are in loaders/contract/tables.ts). */
export interface GameColumns {
  /** Parameter and outcome columns of the games row (parameter columns are derived from `params` unless listed here). */
  games: readonly Column[];
  /** Per-seat outcome columns of the players row. */
  players: readonly Column[];
  /** Action fields (and hidden per-turn facts) of the turns row. */
  turns: readonly Column[];
}

export interface GameDef<P extends Params = Params> {
  id: string;
  title: string;
  citation: Citation;
  /** Seats: min..max; `default` when a run config does not say; names when the paper names them. */
  seats: {min: number; max: number; default: number; names?: readonly string[]};
  moves: "sequential" | "simultaneous";
  /** What the game is about, in a sentence (for `parley games`). */
  description: string;
  params: readonly ParamSpec[];
  /** Cross-parameter constraints (null when the combination is playable). */
  checkParams?(params: P, nSeats: number): string | null;
  columns: GameColumns;
  /** Columns of the games row derived from the parameters (default: each parameter under its name). */
  paramColumns?(params: P): Record<string, unknown>;
  start(params: P, context: StartContext): GameState;
  /** Games-row columns that depend on who played (gamma-Bench: `model`, the lineup; `run`, the repetition). */
  lineupColumns?(lineup: readonly string[], repetition: number): Record<string, unknown>;
  /**
   * The game-id stem of a planned game (default: the id with "/" as "."),
   * GLEE keeps its family name so existing ids and seeds stay as they were.
   */
  idStem?(params: P): string;
}

/** The storage type of a parameter's column. */
export function paramColumnType(spec: ParamSpec): ScalarType {
  switch (spec.type) {
    case "integer":
    case "horizon":
      return "INTEGER";
    case "number":
      return "DOUBLE";
    case "boolean":
      return "BOOLEAN";
    case "choice":
      return spec.values!.every((v) => typeof v === "number") ? "DOUBLE" : "VARCHAR";
  }
}

/** A seat's name: the game's own, else "seat<i>" (used in ids and seeds). */
export const seatName = (def: Pick<GameDef, "seats">, seat: Seat): string => def.seats.names?.[seat] ?? `seat${seat}`;

/** The game-id stem of a game with these parameters (GameDef.idStem, default the id with "/" as "."). */
export const idStem = (def: GameDef, params: Params): string => def.idStem?.(params) ?? def.id.replace(/\//g, ".");
