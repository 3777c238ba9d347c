/**
 * Deal or No Deal as a playable game (Game-theoretic LLM: Agent Workflow for
 * Negotiation Games (Hua et al. 2024) §5, Def. 9; the protocol of the
 * authors' repository): Alice and Bob divide books, hats and balls (counts c)
 * that each values privately (integers with Σ c_k v_k = 10).
 *
 * 1. Talk: a round is a message from Alice then one from Bob, free text. A
 *    message may carry a structured proposal (the speaker's own share), which
 *    scripted agents use; LLM players write text only. Either side may halt
 *    (the paper's `<s>halt negotiation</s>`). After `max_rounds` rounds (the
 *    repository caps it at 20) the talk ends as if halted.
 * 2. Deal: each side privately writes the deal it believes was agreed, as its
 *    own share, or writes that there is no deal. The deal holds when the two
 *    are compatible (alice_k + bob_k ≤ c_k for every k, the repository's
 *    `check_deal_match`); each side then scores its own written share.
 *    Otherwise both score 0 ("neither of you will obtain any reward").
 *
 * A seat that keeps breaking the rules ends the game without a deal
 * (`ended_by = "rule_break"`, both 0). The points are the 50 hard ones of
 * §5.3 (data/dond/hard50.json, read by games/dond.ts), chosen by the `point` parameter.
 *
 * The games table has the columns of the ingested human dialogues
 * (loaders/papers/gtllm/dond/ingest.ts), so one SQL (src/lib/dond.ts) scores both.
 */
import type {Action, ActionSpec, GameDef, GameObservation, GameResult, GameState, Mover, Params, Seat, StartContext} from "../../../contract/game.js";
import {checkAction} from "../../../contract/legal.js";
import {hasEnvyFree, ITEMS, value} from "../../../../src/lib/dondAllocation.js";
import {DOND_GAMES} from "./tables.js";
import type {Column, TableSchema} from "../../../io/schema.js";

/** `schema`'s columns with these names, in this order. */
const pickColumns = (schema: TableSchema, names: readonly string[]): Column[] => names.map((n) => schema.columns.find((c) => c.name === n)!);

export interface DondPoint {
  id: number;
  counts: number[];
  values_a: number[];
  values_b: number[];
  /** Alice's items in the human dialogue of this point (null: no agreement). */
  human_alloc_a: number[] | null;
}

export const DOND_ID = "dond/negotiation";

export const SEAT_NAMES = ["alice", "bob"] as const;

/** One message of the talk as both seats see it. */
export interface DondMessage {
  seat: Seat;
  speaker: "alice" | "bob";
  round: number;
  message: string;
  /** The speaker's own share, when the message carries a structured proposal. */
  proposal: number[] | null;
  halt: boolean;
}

/** What a seat knows. */
export interface DondView {
  point: number;
  counts: number[];
  /** This seat's own values (the other's are private). */
  values: number[];
  max_rounds: number;
  phase: "talk" | "deal";
  log: DondMessage[];
  /** Who ended the talk (null: the round cap did). */
  halted_by: "alice" | "bob" | null;
}

const share = (a: Record<string, unknown>): number[] | null =>
  ITEMS.every((k) => typeof a[k] === "number") ? ITEMS.map((k) => a[k] as number) : null;

class DondState implements GameState<DondView> {
  readonly nSeats = 2;
  private readonly log: DondMessage[] = [];
  private phase: "talk" | "deal" | "over" = "talk";
  private haltedBy: Seat | null = null;
  private deals: (number[] | null)[] | null = null;
  private aborted: string | null = null;

  constructor(
    private readonly gameId: string,
    private readonly point: DondPoint,
    private readonly maxRounds: number,
  ) {}

  next(): Mover {
    if (this.phase === "over") return {kind: "terminal"};
    if (this.phase === "deal") return {kind: "seats", seats: [0, 1]};
    return {kind: "seats", seats: [this.log.length % 2]};
  }

  private items(): Record<string, {min: number; max: number; integer: boolean}> {
    const c = this.point.counts;
    return {book: {min: 0, max: c[0], integer: true}, hat: {min: 0, max: c[1], integer: true}, ball: {min: 0, max: c[2], integer: true}};
  }

  legal(seat: Seat): ActionSpec[] {
    if (this.next().kind !== "seats" || !(this.next() as {seats: readonly Seat[]}).seats.includes(seat)) return [];
    if (this.phase === "talk") {
      return [
        {type: "message", text: {field: "message", required: true}, numbers: this.items(), optional: [...ITEMS]},
        {type: "halt", text: {field: "message", required: false}},
      ];
    }
    return [{type: "deal", numbers: this.items()}, {type: "no_deal"}];
  }

  validate(seat: Seat, action: unknown): string | null {
    const error = checkAction(this.legal(seat), action);
    if (error) return error;
    const a = action as Record<string, unknown>;
    if (a.type === "message") {
      const given = ITEMS.filter((k) => a[k] !== undefined);
      if (given.length && given.length < 3) return `a proposal names all of ${ITEMS.join(", ")} (got only ${given.join(", ")})`;
    }
    return null;
  }

  apply(actions: readonly Action[]): void {
    if (this.phase === "deal") {
      this.deals = actions.map((a) => (a.type === "deal" ? share(a) : null));
      this.phase = "over";
      return;
    }
    const a = actions[0];
    const seat = this.log.length % 2;
    const halt = a.type === "halt";
    this.log.push({
      seat,
      speaker: SEAT_NAMES[seat],
      round: Math.floor(this.log.length / 2) + 1,
      message: typeof a.message === "string" ? a.message : "",
      proposal: halt ? null : share(a),
      halt,
    });
    if (halt) this.haltedBy = seat;
    if (halt || this.log.length >= 2 * this.maxRounds) this.phase = "deal";
  }

  get rounds(): number {
    return Math.ceil(this.log.length / 2);
  }

  observe(seat: Seat): GameObservation<DondView> {
    return {
      game: DOND_ID,
      game_id: this.gameId,
      seat,
      seat_name: SEAT_NAMES[seat],
      n_seats: 2,
      // The deal is written in the round after the talk.
      round: this.phase === "talk" ? Math.floor(this.log.length / 2) + 1 : this.rounds + 1,
      view: {
        point: this.point.id,
        counts: [...this.point.counts],
        values: [...(seat === 0 ? this.point.values_a : this.point.values_b)],
        max_rounds: this.maxRounds,
        phase: this.phase === "talk" ? "talk" : "deal",
        log: this.log.map((m) => ({...m, proposal: m.proposal && [...m.proposal]})),
        halted_by: this.haltedBy === null ? null : SEAT_NAMES[this.haltedBy],
      },
      legal: this.legal(seat),
    };
  }

  abort(_seat: Seat, reason: string): void {
    this.aborted = reason;
    this.phase = "over";
  }

  result(): GameResult {
    const {counts, values_a, values_b} = this.point;
    const [da, db] = this.deals ?? [null, null];
    const agreement = !this.aborted && !!da && !!db && counts.every((c, k) => da[k] + db[k] <= c);
    const scores = agreement ? [value(values_a, da!), value(values_b, db!)] : [0, 0];
    return {
      rounds: this.rounds,
      ended_by: this.aborted ? "rule_break" : this.haltedBy !== null ? "halt" : "cap",
      game: {
        family: "dond",
        counts: [...counts],
        values_a: [...values_a],
        values_b: [...values_b],
        ef_feasible: hasEnvyFree(counts, values_a, values_b),
        outcome: this.aborted ? "rule_break" : agreement ? "agreement" : "disagree",
        agreement,
        alloc_a: agreement ? da : null,
        alloc_b: agreement ? db : null,
        deal_a: da,
        deal_b: db,
        messages: this.log.length,
        selection_by: this.haltedBy === null ? null : SEAT_NAMES[this.haltedBy],
      },
      seats: [{}, {}],
      returns: scores,
    };
  }
}

const integerParam = (params: Params, name: string, fallback: number): number => (typeof params[name] === "number" ? (params[name] as number) : fallback);

/** The game, reading its points from `points` when a game starts (from disk in Node, games/dond.ts; bundled in the browser). */
export const dondGame = (points: () => readonly DondPoint[]): GameDef => ({
  id: DOND_ID,
  title: "Deal or No Deal",
  citation: {short: "Game-theoretic LLM workflows (Hua et al. 2024)", title: "Game-theoretic LLM: Agent Workflow for Negotiation Games", authors: "Hua et al.", year: 2024, section: "§5, Def. 9; the 50 points of §5.3"},
  seats: {min: 2, max: 2, default: 2, names: SEAT_NAMES},
  moves: "sequential",
  description: "Alice and Bob divide books, hats and balls they value privately: free-text rounds, then each writes the deal it believes was agreed; 0 for both without agreement.",
  params: [
    {name: "point", label: "Point of the 50 hard ones (§5.3)", type: "integer", min: 0, max: 49, default: 0, grid: Array.from({length: 50}, (_, i) => i), doc: "row of data/dond/hard50.json"},
    {name: "max_rounds", label: "Round cap", type: "integer", min: 1, max: 100, default: 20, grid: [20], doc: "the authors' repository stops the talk after 20 rounds"},
  ],
  columns: {
    // The columns of the ingested human dialogues, so one SQL scores both.
    games: pickColumns(DOND_GAMES, ["family", "alice_agent", "bob_agent", "point", "counts", "values_a", "values_b", "ef_feasible", "outcome", "agreement", "alloc_a", "alloc_b", "deal_a", "deal_b", "messages", "selection_by"]).concat([
      {name: "max_rounds", type: "INTEGER"},
    ]),
    players: [],
    turns: [
      {name: "book", type: "INTEGER", doc: "proposed or written share of books (the speaker's own)"},
      {name: "hat", type: "INTEGER"},
      {name: "ball", type: "INTEGER"},
      {name: "belief", type: "VARCHAR[]", doc: "belief workflow: opponent valuations still possible (\"book,hat,ball\")"},
    ],
  },
  paramColumns(params: Params) {
    return {point: integerParam(params, "point", 0), max_rounds: integerParam(params, "max_rounds", 20)};
  },
  start(params: Params, context: StartContext) {
    const point = points()[integerParam(params, "point", 0)];
    return new DondState(context.gameId, point, integerParam(params, "max_rounds", 20));
  },
});
