/**
 * An Economics Arena session as one game on the contract: `runs` runs of a
 * one-shot game with the same configuration (Economics Arena (Guo et al.
 * 2024) §4.3: "6 runs per session", history experiments only; every other
 * environment is a session of one run). Each run is resolved on its own;
 * from run 2 on a seat's view holds the last `history_window` runs.
 *
 * Mapping onto the runner: a game's rounds are the session's decisions (one
 * per run in the sealed-bid games, one per clock price in the English
 * auction), so the runner's checkpoints, resume and response cache work per
 * session, and `turns.run` says which run a decision belongs to. A session's
 * per-run results (payoff, equilibrium payoff, won, the seat's choice) are
 * settled onto each seat's last decision row of that run.
 *
 * Rule breaks: the paper keeps playing when a model breaks the rules and
 * deducts an "entrance fee" (Appendix A.2). So a seat that gave no legal
 * answer after the run's `max_attempts` forfeits that run (`forfeit`): it is
 * left out of the run (its number does not enter the average, its bid is not
 * in the auction), pays the fee, and the session goes on.
 */
import type {Action, ActionSpec, GameObservation, GameResult, GameState, Mover, Seat, Settled} from "../../contract/game.js";
import {checkAction} from "../../contract/legal.js";
import type {SessionSettings} from "./paper.js";
import type {SessionTold} from "./views.js";

/** One finished run, per seat. */
export interface RunOutcome {
  /** The seat's choice in the game's units (null: forfeited). */
  strategy: (number | null)[];
  /** ρ: the seat's payoff this run. */
  payoffs: number[];
  /** ρ had everyone played the equilibrium. */
  eqPayoffs: number[];
  won: boolean[];
  forfeited: boolean[];
  /** The round (decision number) of each seat's last decision this run. */
  decidedAt: number[];
}

/** The action the runner passes for a seat that kept breaking the rules. */
export const FORFEIT = "forfeit";

export abstract class SessionGame<R extends RunOutcome, V extends SessionTold> implements GameState<V> {
  protected readonly done: R[] = [];
  /** 1-based decision number within the session (the observation's round). */
  protected step = 1;
  private aborted = false;

  constructor(
    readonly gameIdOf: string,
    readonly game: string,
    readonly nSeats: number,
    readonly session: SessionSettings,
  ) {}

  /** Seats asked now (the run is not over). */
  protected abstract movers(): readonly Seat[];
  /** Legal actions of a seat that is asked now. */
  protected abstract specs(seat: Seat): ActionSpec[];
  /** Takes one decision of the seats asked (forfeits as FORFEIT actions); the run's outcome when the run is over, else null. */
  protected abstract play(seats: readonly Seat[], actions: readonly Action[]): R | null;
  protected abstract view(seat: Seat): V;
  /** The action type of the decision rows results are settled onto. */
  protected abstract readonly actionType: string;
  /** Outcome and parameter columns of the games row. */
  protected abstract gameColumns(): Record<string, unknown>;
  /** The seat's payoff in a run as the paper reports it (players.return is its mean over the runs). */
  protected abstract reported(r: R, seat: Seat): number;
  /** Per-seat settled facts besides the common ones (the run's target, price). */
  protected runFacts(_r: R, _seat: Seat): Record<string, unknown> {
    return {};
  }

  get over(): boolean {
    return this.aborted || this.done.length >= this.session.runs;
  }

  /** The current run, 1-based. */
  get run(): number {
    return this.done.length + 1;
  }

  /** What every view starts with. */
  protected told(): SessionTold {
    const {environment, runs, history_window} = this.session;
    return {
      n_players: this.nSeats, environment, told_rational: environment === "rational" || environment === "cot", chain_of_thought: environment === "cot",
      runs, run: this.run, history_window,
    };
  }

  /** The runs a view shows: the last `history_window` finished ones, with their 1-based numbers. */
  protected shown(): {run: number; record: R}[] {
    const w = Math.min(this.session.history_window, this.done.length);
    return this.done.slice(this.done.length - w).map((record, k) => ({run: this.done.length - w + k + 1, record}));
  }

  private memo: {step: number; value: unknown} | null = null;
  /**
   * What every seat is shown at this decision, built once per decision
   * (views are asked for every seat and every attempt; the history is the same for all).
   */
  protected shared<T>(build: () => T): T {
    if (this.memo?.step !== this.step) this.memo = {step: this.step, value: build()};
    return this.memo.value as T;
  }

  next(): Mover {
    return this.over ? {kind: "terminal"} : {kind: "seats", seats: this.movers()};
  }

  legal(seat: Seat): ActionSpec[] {
    return this.over || !this.movers().includes(seat) ? [] : this.specs(seat);
  }

  validate(seat: Seat, action: unknown): string | null {
    if (this.over) return "the session is over";
    if (!this.movers().includes(seat)) return `seat ${seat} is not asked now`;
    return checkAction(this.specs(seat), action);
  }

  apply(actions: readonly Action[]): void {
    if (this.over) throw new Error(`${this.gameIdOf}: the session is over`);
    const seats = this.movers();
    if (actions.length !== seats.length) throw new Error(`${this.gameIdOf}: expected one action for each of seats ${seats.join(", ")}, got ${actions.length}`);
    actions.forEach((a, i) => {
      const error = a.type === FORFEIT ? null : this.validate(seats[i], a);
      if (error) throw new Error(`${this.gameIdOf}: seat ${seats[i]}, run ${this.run}: ${error}`);
    });
    const outcome = this.play(seats, actions);
    this.step++;
    if (outcome) this.done.push(outcome);
  }

  forfeit(_seat: Seat, reason: string): Action {
    return {type: FORFEIT, reason};
  }

  observe(seat: Seat): GameObservation<V> {
    return {game: this.game, game_id: this.gameIdOf, seat, seat_name: null, n_seats: this.nSeats, round: this.step, view: this.view(seat), legal: this.legal(seat)};
  }

  turnInfo(_seat: Seat): Record<string, unknown> {
    return {run: this.run};
  }

  /** Only reached by a runner without `forfeit`: the session ends with the runs finished. */
  abort(): void {
    this.aborted = true;
  }

  settled(): Settled[] {
    const out: Settled[] = [];
    this.done.forEach((r, j) => {
      for (let seat = 0; seat < this.nSeats; seat++) {
        const row: Settled = {
          round: r.decidedAt[seat], seat, action: this.actionType, run: j + 1,
          strategy: r.strategy[seat], payoff: r.payoffs[seat], eq_payoff: r.eqPayoffs[seat], won: r.won[seat], forfeited: r.forfeited[seat],
        };
        out.push(Object.assign(row, this.runFacts(r, seat)));
      }
    });
    return out;
  }

  result(): GameResult {
    const n = this.done.length;
    return {
      rounds: this.step - 1,
      ended_by: this.aborted ? "rule_break" : this.over ? "completed" : "unfinished",
      game: this.gameColumns(),
      seats: Array.from({length: this.nSeats}, () => ({})),
      returns: Array.from({length: this.nSeats}, (_, seat) => (n ? this.done.reduce((s, r) => s + this.reported(r, seat), 0) / n : 0)),
    };
  }
}

/** 0..n−1. */
export const allSeats = (n: number): Seat[] => Array.from({length: n}, (_, i) => i);
