/**
 * The state of a gamma-Bench simultaneous game (Guess 2/3, El Farol, Divide
 * the Dollar, Public Goods, Diner's Dilemma, Sealed-Bid Auction): K rounds,
 * every seat acts in every round, the round is resolved by the game's pure
 * payoff function, and each seat is told its round result (Appendix C).
 *
 * A game supplies its legal actions, how a round resolves, the view and the
 * settled facts; this class does the bookkeeping the six share (rounds,
 * validation, rule-break ending, returns, settled()).
 *
 * Rule breaks: when the runner gives up on a seat (`abort`), the game ends
 * with ended_by "rule_break" after the rounds completed so far; the round in
 * progress is dropped (no seat's action of that round is applied) and returns
 * count the completed rounds only.
 */
import type {Action, ActionSpec, GameObservation, GameResult, GameState, Mover, Seat} from "../../contract/game.js";
import {checkAction} from "../../contract/legal.js";
import type {SettledResult} from "./views.js";
import {totals} from "./paper.js";

/** A resolved round: at least each seat's payoff. */
export interface RoundRecord {
  payoffs: number[];
}

export abstract class RepeatedGame<R extends RoundRecord, V> implements GameState<V> {
  protected readonly history: R[] = [];
  private aborted: {seat: Seat; reason: string} | null = null;

  constructor(
    readonly gameIdOf: string,
    readonly game: string,
    readonly nSeats: number,
    readonly rounds: number,
  ) {}

  /** The action type every seat answers with (for settled()). */
  protected abstract readonly actionType: string;
  /** Legal actions of `seat` in the current round (the game is not over). */
  protected abstract specs(seat: Seat): ActionSpec[];
  /** Resolves the round from one legal action per seat (in seat order). */
  protected abstract resolve(actions: readonly Action[]): R;
  /** Called after a round is recorded and the game goes on (e.g. draw the next valuations). */
  protected nextRound(): void {}
  protected abstract view(seat: Seat): V;
  /** Per-seat facts of a resolved round besides the payoff. */
  protected settledFacts(_record: R, _seat: Seat): {won?: boolean} {
    return {};
  }
  /** Outcome and parameter columns of the games row (without rounds/ended_by). */
  protected abstract gameColumns(): Record<string, unknown>;

  get over(): boolean {
    return this.aborted !== null || this.history.length >= this.rounds;
  }

  /** The current round, 1-based. */
  get round(): number {
    return this.history.length + 1;
  }

  next(): Mover {
    if (this.over) return {kind: "terminal"};
    return {kind: "seats", seats: Array.from({length: this.nSeats}, (_, i) => i)};
  }

  legal(seat: Seat): ActionSpec[] {
    if (this.over || !Number.isInteger(seat) || seat < 0 || seat >= this.nSeats) return [];
    return this.specs(seat);
  }

  validate(seat: Seat, action: unknown): string | null {
    if (this.over) return "the game is over";
    if (!Number.isInteger(seat) || seat < 0 || seat >= this.nSeats) return `seat ${seat} is not in this game (seats 0..${this.nSeats - 1})`;
    return checkAction(this.specs(seat), action);
  }

  apply(actions: readonly Action[]): void {
    if (this.over) throw new Error(`${this.gameIdOf}: the game is over`);
    if (actions.length !== this.nSeats) throw new Error(`${this.gameIdOf}: round ${this.round} needs one action per seat (${this.nSeats}), got ${actions.length}`);
    actions.forEach((a, seat) => {
      const error = this.validate(seat, a);
      if (error) throw new Error(`${this.gameIdOf}: seat ${seat}, round ${this.round}: ${error}`);
    });
    this.history.push(this.resolve(actions));
    if (!this.over) this.nextRound();
  }

  observe(seat: Seat): GameObservation<V> {
    return {game: this.game, game_id: this.gameIdOf, seat, seat_name: null, n_seats: this.nSeats, round: this.round, view: this.view(seat), legal: this.legal(seat)};
  }

  abort(seat: Seat, reason: string): void {
    if (!this.over) this.aborted = {seat, reason};
  }

  /**
   * Each resolved round's result per seat, rounds in order, seats in order
   * (all rounds so far: call it at any time, e.g. once at the end).
   */
  settled(): SettledResult[] {
    const out: SettledResult[] = [];
    this.history.forEach((r, j) => {
      for (let seat = 0; seat < this.nSeats; seat++) out.push({round: j + 1, seat, action: this.actionType, payoff: r.payoffs[seat], ...this.settledFacts(r, seat)});
    });
    return out;
  }

  result(): GameResult {
    return {
      rounds: this.history.length,
      ended_by: this.aborted ? "rule_break" : this.over ? "completed" : "unfinished",
      game: this.gameColumns(),
      seats: Array.from({length: this.nSeats}, () => ({})),
      returns: totals(this.nSeats, this.history),
    };
  }
}

/** The value of a legal action's numeric field. */
export const amountOf = (a: Action, field = "amount"): number => a[field] as number;
/** The value of a legal action's choice field. */
export const choiceOf = <C extends string>(a: Action, field = "choice"): C => a[field] as C;
/** 0..n−1. */
export const seatsOf = (n: number): number[] => Array.from({length: n}, (_, i) => i);
