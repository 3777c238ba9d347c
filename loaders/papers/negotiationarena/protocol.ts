/**
 * NegotiationArena's common protocol (NegotiationArena (Bianchi et al. 2024)
 * §2, Appendix E.1; the authors' alternating_game.py): two players, Player
 * RED (seat 0, moves first) and Player BLUE (seat 1), strict alternation, one
 * message per turn and a budget of `iterations` messages. Every message
 * carries a public part (the message text, the answer ACCEPT / REJECT / NONE
 * / PROPOSAL, the newly proposed trade) that the other player sees; the
 * private part (resources, goal, reasoning) is recorded and never shown.
 *
 * ACCEPT executes the trade the other player proposed in the previous
 * message (there must be one: accepting with nothing on the table is a rule
 * break); REJECT ends the game with no trade where the scenario has it; a
 * PROPOSAL puts a new trade on the table; NONE waits. A trade says what each
 * side gives, in whole units, and nobody may give more than it holds. Each
 * player may make at most `proposalLimit` proposals (the repository's
 * iterations // 2 − 1 in resource exchange and buy/sell). In the ultimatum
 * the player holding the last move may only ACCEPT or REJECT on it.
 *
 * Scenarios (resourceExchange.ts, ultimatum.ts, buySell.ts) give the rules'
 * numbers and payoffs as an `ArenaRules`; this file holds no prompt text
 * (narrators/negotiationarena.ts writes the paper's tags).
 *
 * Actions: `{type, message?, red_<resource>?, blue_<resource>?}`: a
 * PROPOSAL's `red_X: 10, blue_Y: 3` reads "Player RED Gives X: 10 | Player
 * BLUE Gives Y: 3"; absent amounts are 0. Fields `private_resources`,
 * `private_goals` (what the player restated in its private tags) are stored
 * on the turns row and ignored by the game; `answer_written` (the answer as
 * a model wrote it, "PROPOSE") and explicit zero amounts only change how the
 * other player is shown the message.
 */
import type {Action, ActionSpec, GameMove, GameObservation, GameResult, GameState, Mover, NumberSpec, Seat} from "../../contract/game.js";
import {checkAction} from "../../contract/legal.js";

export type Answer = "ACCEPT" | "REJECT" | "NONE" | "PROPOSAL";
export type Holdings = Record<string, number>;
/** What each side gives. */
export interface Trade {
  red: Holdings;
  blue: Holdings;
}

export const SEAT_NAMES = ["red", "blue"] as const;
export const PLAYER_NAMES = ["Player RED", "Player BLUE"] as const;
const SIDE = ["red", "blue"] as const;

/** The public part of a message: what the other player sees. */
export interface PublicMessage {
  turn: number;
  seat: Seat;
  answer: Answer;
  trade: Trade | null;
  /**
   * The trade as its proposer wrote it, zero amounts included ("Player RED
   * Gives X: 5, Y: 0 | ..."), when it names any: the other player reads it so
   * (the repository's Trade keeps what was written). Absent otherwise.
   */
  written?: Trade;
  /** The answer as its writer wrote it ("PROPOSE", "accept"), when that is not the answer's own name. Absent otherwise. */
  written_answer?: string;
  message: string;
}

/** What a seat is after (the goal tag's content, as data). */
export type ArenaGoal =
  | {kind: "maximise"}
  | {kind: "split"}
  | {kind: "sell"; cost: number}
  | {kind: "buy"; value: number};

export type Scenario = "resource_exchange" | "ultimatum" | "buy_sell";

export interface ArenaView {
  scenario: Scenario;
  /** "Player RED" or "Player BLUE". */
  name: string;
  other: string;
  /** 1-based turn now, and the budget. */
  turn: number;
  iterations: number;
  /** This seat's resources at the start (resources stay put until a trade is executed at the end). */
  resources: Holdings;
  /** Every resource in the game (resource exchange: "Resources available in the game"). */
  resources_in_game: string[];
  /** Ultimatum: what RED starts with ({Dollars: 100}). */
  red_resources: Holdings;
  goal: ArenaGoal;
  /** This seat's moves so far and in all (ultimatum: "RED has 4 moves while BLUE has 4 moves"). */
  moves_made: number;
  moves: [number, number];
  proposals_made: number;
  /** null: no limit but the moves (ultimatum). */
  proposal_limit: number | null;
  /** The other player's trade that ACCEPT would execute now, if any. */
  standing: Trade | null;
  /** Ultimatum: this seat holds the last move and may only ACCEPT or REJECT on it. */
  final_move_decides: string | null;
  history: PublicMessage[];
}

/** The numbers and payoffs of one scenario. */
export interface ArenaRules {
  scenario: Scenario;
  game: string;
  iterations: number;
  initial: [Holdings, Holdings];
  goals: [ArenaGoal, ArenaGoal];
  roles: [string | null, string | null];
  /** What each seat's side of a proposal may hold: resource -> allowed amounts. Sides are [RED gives, BLUE gives]. */
  tradeFields: Record<string, NumberSpec>;
  /** Trade fields every proposal must give (buy/sell: RED gives the object). */
  required?: readonly string[];
  /** NONE (wait) is an answer. */
  wait: boolean;
  /** REJECT is an answer (it ends the game with no trade). */
  reject: boolean;
  /** Proposals each player may make (Infinity: only the moves limit them). */
  proposalLimit: number;
  /** The seat whose last move may only ACCEPT or REJECT (ultimatum), else null. */
  finalDecider: Seat | null;
  /** A proposal the game makes itself on a turn (ultimatum §5.2 acceptance test). */
  injected?: {turn: number; trade: Trade};
  /** Per-seat payoff from final holdings, given whether a trade was executed. */
  payoffs(final: [Holdings, Holdings], agreed: boolean, trade: Trade | null): [number, number];
  /** Scenario-specific outcome columns of the games row. */
  outcome(state: {agreed: boolean; trade: Trade | null; history: readonly PublicMessage[]; payoffs: [number, number]}): Record<string, unknown>;
  /** How a proposal's trade is summarised on its turns row (price, offer). */
  turnColumns(trade: Trade): Record<string, unknown>;
}

/** A trade from an action's red_* / blue_* fields. */
export function tradeOf(action: Record<string, unknown>): Trade {
  const trade: Trade = {red: {}, blue: {}};
  for (const key in action) {
    const m = /^(red|blue)_(.+)$/.exec(key);
    if (m && typeof action[key] === "number" && action[key] !== 0) trade[m[1] as "red" | "blue"][m[2]] = action[key] as number;
  }
  return trade;
}

/** The trade an action wrote, zero amounts included, or undefined when it names no zero amount. */
export function writtenTradeOf(action: Record<string, unknown>): Trade | undefined {
  const trade: Trade = {red: {}, blue: {}};
  let zero = false;
  for (const key in action) {
    const m = /^(red|blue)_(.+)$/.exec(key);
    if (m && typeof action[key] === "number") {
      trade[m[1] as "red" | "blue"][m[2]] = action[key] as number;
      zero ||= action[key] === 0;
    }
  }
  return zero ? trade : undefined;
}

/** The action fields of a trade (inverse of tradeOf). */
export function tradeFieldsOf(trade: Trade): Record<string, number> {
  const out: Record<string, number> = {};
  for (const side of SIDE) for (const r in trade[side]) out[`${side}_${r}`] = trade[side][r];
  return out;
}

/** Holdings after executing `trade`. */
export function settle(initial: readonly [Holdings, Holdings], trade: Trade): [Holdings, Holdings] {
  const out: [Holdings, Holdings] = [{...initial[0]}, {...initial[1]}];
  const move = (from: number, to: number, gives: Holdings) => {
    for (const r in gives) {
      out[from][r] = (out[from][r] ?? 0) - gives[r];
      out[to][r] = (out[to][r] ?? 0) + gives[r];
    }
  };
  move(0, 1, trade.red);
  move(1, 0, trade.blue);
  return out;
}

export const total = (h: Holdings): number => Object.values(h).reduce((a, b) => a + b, 0);

/** The winner by payoffs (§3: one agent gets more than the other; equal is a tie). */
export const winnerOf = ([a, b]: readonly [number, number]): "p1" | "p2" | "tie" => (a > b ? "p1" : b > a ? "p2" : "tie");

const MESSAGE_TEXT = {field: "message", required: false} as const;

export class ArenaState implements GameState<ArenaView> {
  readonly nSeats = 2;
  private readonly history: PublicMessage[] = [];
  private readonly proposals = [0, 0];
  /** The game's own moves not yet handed to the runner (takeGameMoves). */
  private gameMoves: GameMove[] = [];
  private endedBy: "accepted" | "rejected" | "turns" | "rule_break" | null = null;
  private executed: Trade | null = null;
  /** Seats' moves in all: RED moves on odd turns. */
  private readonly moves: [number, number];

  constructor(
    private readonly gameId: string,
    private readonly rules: ArenaRules,
  ) {
    const n = rules.iterations;
    this.moves = [Math.ceil(n / 2), Math.floor(n / 2)];
    this.inject();
  }

  private get turn(): number {
    return this.history.length + 1;
  }

  private mover(): Seat {
    return (this.turn - 1) % 2;
  }

  /** The other player's trade on the table: the previous message's, when it was a proposal. */
  private standing(seat: Seat): Trade | null {
    const last = this.history.at(-1);
    return last && last.seat !== seat && last.answer === "PROPOSAL" ? last.trade : null;
  }

  next(): Mover {
    return this.endedBy ? {kind: "terminal"} : {kind: "seats", seats: [this.mover()]};
  }

  private decidesOnly(seat: Seat): boolean {
    return this.rules.finalDecider === seat && this.turn === this.rules.iterations;
  }

  legal(seat: Seat): ActionSpec[] {
    if (this.endedBy || seat !== this.mover()) return [];
    const specs: ActionSpec[] = [];
    if (this.standing(seat)) {
      specs.push({type: "ACCEPT", text: MESSAGE_TEXT});
      if (this.rules.reject) specs.push({type: "REJECT", text: MESSAGE_TEXT});
    }
    if (!this.decidesOnly(seat) && this.proposals[seat] < this.rules.proposalLimit) {
      const numbers: Record<string, NumberSpec> = {};
      for (const f in this.rules.tradeFields) numbers[f] = this.rules.tradeFields[f];
      const optional = Object.keys(numbers).filter((f) => !this.rules.required?.includes(f));
      specs.push({type: "PROPOSAL", numbers, optional, text: MESSAGE_TEXT});
    }
    if (this.rules.wait || !specs.length) specs.push({type: "NONE", text: MESSAGE_TEXT});
    return specs;
  }

  validate(seat: Seat, action: unknown): string | null {
    if (this.endedBy) return "the game is over";
    if (seat !== this.mover()) return `${PLAYER_NAMES[this.mover()]} moves now, not ${PLAYER_NAMES[seat]}`;
    const a = (action && typeof action === "object" ? action : {}) as Record<string, unknown>;
    const specs = this.legal(seat);
    if (!specs.some((s) => s.type === a.type)) {
      if ((a.type === "ACCEPT" || a.type === "REJECT") && !this.standing(seat) && (a.type === "ACCEPT" || this.rules.reject)) {
        return `${a.type} with nothing on the table: ${PLAYER_NAMES[1 - seat]} has no proposal standing`;
      }
      if (a.type === "PROPOSAL" && this.decidesOnly(seat)) return `no new proposal on the last move: ${PLAYER_NAMES[seat]} may only ACCEPT or REJECT now`;
      if (a.type === "PROPOSAL") return `proposal limit reached: ${PLAYER_NAMES[seat]} has made ${this.proposals[seat]} of ${this.rules.proposalLimit} proposals and may only ${specs.map((s) => s.type).join(" or ")} now`;
    }
    if (a.type === "PROPOSAL") {
      for (const key in a) {
        const m = /^(red|blue)_(.+)$/.exec(key);
        if (m && !(key in this.rules.tradeFields) && a[key] !== 0) return `${PLAYER_NAMES[m[1] === "red" ? 0 : 1]} cannot give ${m[2]} in this game (it holds none to trade)`;
      }
      for (const key in this.rules.tradeFields) {
        const v = a[key];
        const max = this.rules.tradeFields[key].max;
        if (typeof v === "number" && max !== undefined && v > max) {
          const [side, resource] = [key.slice(0, key.indexOf("_")), key.slice(key.indexOf("_") + 1)];
          return `proposal over budget: ${PLAYER_NAMES[side === "red" ? 0 : 1]} cannot give ${resource}: ${v}, it holds ${max}`;
        }
      }
    }
    return checkAction(specs, action);
  }

  apply(actions: readonly Action[]): void {
    const seat = this.mover();
    const a = actions[0];
    const error = this.validate(seat, a);
    if (error) throw new Error(`${this.gameId}: ${PLAYER_NAMES[seat]}, turn ${this.turn}: ${error}`);
    const said = {
      ...(a.type === "PROPOSAL" && {written: writtenTradeOf(a)}),
      ...(typeof a.answer_written === "string" && {written_answer: a.answer_written}),
    };
    this.post(seat, a.type as Answer, a.type === "PROPOSAL" ? tradeOf(a) : null, typeof a.message === "string" ? a.message : "", said);
    this.inject();
  }

  private post(seat: Seat, answer: Answer, trade: Trade | null, message: string, said: Pick<PublicMessage, "written" | "written_answer"> = {}): void {
    const standing = this.standing(seat);
    if (answer === "PROPOSAL") this.proposals[seat]++;
    this.history.push({turn: this.turn, seat, answer, trade, message, ...(said.written && {written: said.written}), ...(said.written_answer !== undefined && {written_answer: said.written_answer})});
    if (answer === "ACCEPT") {
      this.executed = standing;
      this.endedBy = "accepted";
    } else if (answer === "REJECT") this.endedBy = "rejected";
    else if (this.history.length >= this.rules.iterations) this.endedBy = "turns";
  }

  /** The game's own proposal on its turn (ultimatum §5.2), posted for whoever would move. */
  private inject(): void {
    const injected = this.rules.injected;
    if (!injected || this.endedBy || this.turn !== injected.turn) return;
    const seat = this.mover();
    this.gameMoves.push({round: this.turn, seat, action: "PROPOSAL", made_by_game: true, role: this.rules.roles[seat]});
    this.post(seat, "PROPOSAL", injected.trade, "");
  }

  /** The injected offer, once, as the proposer's turn (its trade and offer follow from settled()). */
  takeGameMoves(): GameMove[] {
    const moves = this.gameMoves;
    this.gameMoves = [];
    return moves;
  }

  observe(seat: Seat): GameObservation<ArenaView> {
    const r = this.rules;
    const view: ArenaView = {
      scenario: r.scenario,
      name: PLAYER_NAMES[seat],
      other: PLAYER_NAMES[1 - seat],
      turn: this.turn,
      iterations: r.iterations,
      resources: {...r.initial[seat]},
      resources_in_game: [...new Set([...Object.keys(r.initial[0]), ...Object.keys(r.initial[1])])],
      red_resources: {...r.initial[0]},
      goal: r.goals[seat],
      moves_made: this.history.filter((m) => m.seat === seat).length,
      moves: [...this.moves],
      proposals_made: this.proposals[seat],
      proposal_limit: Number.isFinite(r.proposalLimit) ? r.proposalLimit : null,
      standing: this.endedBy ? null : this.standing(seat),
      final_move_decides: r.finalDecider === null ? null : PLAYER_NAMES[r.finalDecider],
      history: this.history.map((m) => ({...m})),
    };
    return {game: r.game, game_id: this.gameId, seat, seat_name: SEAT_NAMES[seat], n_seats: 2, round: this.turn, view, legal: this.legal(seat)};
  }

  turnInfo(seat: Seat): Record<string, unknown> {
    return {role: this.rules.roles[seat]};
  }

  /** Each message's trade (and its price or offer) and the proposal count, onto the turns row that sent it. */
  settled() {
    const count = [0, 0];
    return this.history.map((m) => {
      const row: {round: number; seat: Seat; action: string; [k: string]: unknown} = {round: m.turn, seat: m.seat, action: m.answer};
      if (m.trade) Object.assign(row, {trade: JSON.stringify({RED: m.trade.red, BLUE: m.trade.blue}), proposal_count: ++count[m.seat]}, this.rules.turnColumns(m.trade));
      return row;
    });
  }

  abort(): void {
    if (!this.endedBy) this.endedBy = "rule_break";
  }

  result(): GameResult {
    const r = this.rules;
    const agreed = this.executed !== null;
    const final = agreed ? settle(r.initial, this.executed!) : ([{...r.initial[0]}, {...r.initial[1]}] as [Holdings, Holdings]);
    const payoffs = r.payoffs(final, agreed, this.executed);
    const winner = winnerOf(payoffs);
    const last = this.history.at(-1);
    return {
      rounds: this.history.length,
      ended_by: this.endedBy ?? "unfinished",
      game: {
        final_response: last && (last.answer === "ACCEPT" || last.answer === "REJECT") ? last.answer : null,
        agreement: agreed,
        p1_final_resources: JSON.stringify(final[0]),
        p2_final_resources: JSON.stringify(final[1]),
        p1_payoff: payoffs[0],
        p2_payoff: payoffs[1],
        winner,
        p1_resources: JSON.stringify(r.initial[0]),
        p2_resources: JSON.stringify(r.initial[1]),
        p1_name: PLAYER_NAMES[0],
        p2_name: PLAYER_NAMES[1],
        p1_role: r.roles[0],
        p2_role: r.roles[1],
        ...r.outcome({agreed, trade: this.executed, history: this.history, payoffs}),
      },
      seats: [0, 1].map((s) => ({role: r.roles[s], final_resources: JSON.stringify(final[s]), won: winner === "tie" ? null : winner === `p${s + 1}`})),
      returns: payoffs,
    };
  }
}

/** The paper, cited in the product by title, first author and year. */
export const NEGOTIATIONARENA_PAPER = {
  short: "NegotiationArena (Bianchi et al. 2024)",
  title: "How Well Can LLMs Negotiate? NegotiationArena Platform and Analysis",
  authors: "Federico Bianchi, Patrick John Chia, Mert Yuksekgonul, Jacopo Tagliabue, Dan Jurafsky, James Zou",
  year: 2024,
} as const;
