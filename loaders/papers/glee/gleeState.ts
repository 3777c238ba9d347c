/**
 * What the three GLEE families share on the game contract
 * (loaders/contract/game.ts): two seats, Alice (seat 0) and Bob (seat 1),
 * one of whom moves at a time; the turns-row facts of a decision (player,
 * role, and in persuasion the quality Alice saw); and the games-row outcome
 * with each seat's utility as its return (GLEE (Shapira et al. 2024) §2).
 * Each family supplies its rules: who moves, the legal actions, how an
 * action changes the state, what a player sees, and the outcome.
 */
import {checkAction} from "../../contract/legal.js";
import type {Action, ActionSpec, GameObservation, GameResult, GameState, Mover, Seat} from "../../contract/game.js";
import type {EndReason, Family, GleeAction, GleeView, Outcome, Player, Quality, Role} from "./types.js";
import {PLAYERS, playerAt} from "./types.js";

// Shared, never mutated: next() and turnInfo() run once per turn of every game.
const TERMINAL: Mover = {kind: "terminal"};
const ALICE_MOVES: Mover = {kind: "seats", seats: [0]};
const BOB_MOVES: Mover = {kind: "seats", seats: [1]};
const TURN_INFO = new Map<string, Readonly<Record<string, unknown>>>();

export abstract class GleeState implements GameState<GleeView> {
  readonly nSeats = 2;
  /** "glee/<family>", the game id observations carry. */
  private readonly game: string;

  constructor(readonly family: Family, readonly gameId: string) {
    this.game = `glee/${family}`;
  }

  /** The player to move, or null when the game is over. */
  abstract currentPlayer(): Player | null;
  /** Legal actions of the player to move (none when the game is over). */
  protected abstract legalActions(): ActionSpec[];
  /** Applies a legal action of the player to move. */
  protected abstract play(player: Player, action: GleeAction): void;
  /** What `player` sees now (legal actions only when it is to move) and the round. */
  protected abstract view(player: Player): {view: GleeView; round: number};
  /** The player's role now (for the turns row). */
  protected abstract roleOf(player: Player): Role;
  /** The quality Alice sees this round (persuasion), else null. */
  protected qualitySeen(_player: Player): Quality | null {
    return null;
  }
  /** Ends the game now, as `reason` says (a rule break). */
  protected abstract end(reason: EndReason): void;
  /** The outcome columns as GLEE defines them; asked only once the game is over. */
  abstract outcome(): Outcome;

  isTerminal(): boolean {
    return this.currentPlayer() === null;
  }

  next(): Mover {
    const p = this.currentPlayer();
    return p === null ? TERMINAL : p === "alice" ? ALICE_MOVES : BOB_MOVES;
  }

  legal(seat: Seat): ActionSpec[] {
    return this.currentPlayer() === PLAYERS[seat] ? this.legalActions() : [];
  }

  validate(seat: Seat, action: unknown): string | null {
    if (this.currentPlayer() !== PLAYERS[seat]) return `it is not ${PLAYERS[seat]}'s turn`;
    return checkAction(this.legalActions(), action);
  }

  apply(actions: readonly Action[]): void {
    const player = this.currentPlayer();
    const action = actions[0];
    const error = player === null ? "the game is over" : checkAction(this.legalActions(), action);
    if (error) throw new Error(`${this.gameId}: illegal action (${error})`);
    this.play(player!, action as GleeAction);
  }

  observe(seat: Seat): GameObservation<GleeView> {
    const player = playerAt(seat);
    const {view, round} = this.view(player);
    return {game: this.game, game_id: this.gameId, seat, seat_name: player, n_seats: 2, round, view, legal: this.currentPlayer() === player ? this.legalActions() : []};
  }

  turnInfo(seat: Seat): Record<string, unknown> {
    const player = playerAt(seat);
    const role = this.roleOf(player);
    const quality = this.qualitySeen(player) ?? "";
    // A handful of distinct values (seat × role × quality), shared: this runs once per turn of every game.
    const key = `${seat}|${role}|${quality}`;
    let info = TURN_INFO.get(key);
    if (!info) {
      info = Object.freeze({player, role, ...(quality && {quality})});
      TURN_INFO.set(key, info);
    }
    return info;
  }

  abort(_seat: Seat, _reason: string): void {
    if (!this.isTerminal()) this.end("rule_break");
  }

  result(): GameResult {
    const o = this.outcome();
    const game: Record<string, unknown> = {};
    for (const k in o) {
      const v = o[k as keyof Outcome];
      if (v !== null && v !== undefined && k !== "rounds" && k !== "ended_by") game[k] = v;
    }
    return {rounds: o.rounds, ended_by: o.ended_by, game, seats: [{}, {}], returns: [o.alice_utility ?? 0, o.bob_utility ?? 0]};
  }
}
