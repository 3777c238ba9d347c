/**
 * The game loop, one for every game: asks the seats the state names (one
 * seat, or several at once in a simultaneous round, each asked concurrently),
 * validates every answer, records every attempt as a turns row (rule breaks
 * included), and applies the round's actions once every seat asked has a
 * legal one; chance nodes are resolved from the game's chance stream. After
 * `maxAttempts` illegal answers to one decision the state's `abort` applies
 * the game's documented fallback (GLEE: the game ends without a deal;
 * gamma-Bench: the game ends after the rounds completed), or, in a game with
 * `forfeit`, the seat sits that decision out and the game goes on.
 *
 * Randomness comes from the game's streams (runner/chance.ts): what the game
 * draws, by key, and one stream per seat, derived from the run seed and
 * either the game id (per-game) or the game's configuration and repetition
 * (common), so a game replays identically however the run is scheduled.
 */
import type {Rng} from "../../src/lib/rng.js";
import type {Action, GameDef, GameObservation, GameResult, GameState, Params, Seat} from "../contract/game.js";
import {seatName} from "../contract/game.js";
import type {Agent, AgentReply, SubCall} from "../contract/agent.js";
import {LlmCallError} from "../llm/types.js";
import {valueFits, type ColumnType} from "../io/schema.js";
import {perGameStreams, type GameStreams} from "./chance.js";

export interface PlayOptions {
  seed: number;
  /** The game's random streams (runner/chance.ts `gameStreams`); default the per-game ones of (seed, game id). */
  streams?: GameStreams;
  maxAttempts?: number;
  /**
   * Called once with the game's state as soon as it starts, before any seat
   * is asked: a seat that checks its answer before giving it (a person's,
   * loaders/study/session.ts) validates against it. Never changes the rows.
   */
  onState?: (state: GameState) => void;
}

export type TurnRow = Record<string, unknown> & {game_id: string; turn: number; round: number; seat: number};

export interface PlayedGame {
  result: GameResult;
  turns: TurnRow[];
}

/** Plays one game to the end; deterministic for its streams (by default those of (seed, gameId)) when the agents are. */
export async function playGame(def: GameDef, params: Params, gameId: string, agents: readonly Agent[], {seed, streams, maxAttempts = 3, onState}: PlayOptions): Promise<PlayedGame> {
  const game = new GameInPlay(def, params, gameId, agents, streams ?? perGameStreams(seed, gameId, agents.map((_, s) => seatName(def, s))), maxAttempts);
  const {state, turns} = game;
  onState?.(state);
  for (;;) {
    const mover = state.next();
    if (mover.kind === "terminal") break;
    if (mover.kind === "chance") {
      state.chance!(game.chanceNodes);
      continue;
    }
    const seats = mover.seats;
    if (seats.length === 1) {
      const d = game.decide(seats[0]);
      game.collectOne(seats[0], d instanceof Promise ? await d : d);
    } else {
      // A simultaneous round: every seat is asked at once (LLM calls run concurrently).
      const pending = seats.map((seat) => game.decide(seat));
      game.collect(seats, pending.some((d) => d instanceof Promise) ? await allAnswered(pending) : (pending as Decision[]));
    }
  }
  const settled = state.settled?.() ?? [];
  if (settled.length) {
    const legal = new Map<string, TurnRow>();
    // A forfeited decision has no legal row: its result goes on the seat's last attempt of that round.
    const last = new Map<string, TurnRow>();
    for (const t of turns) {
      if (!t.rule_break && typeof t.action === "string") legal.set(`${t.round}/${t.seat}/${t.action}`, t);
      last.set(`${t.round}/${t.seat}`, t);
    }
    for (const {round, seat, action, ...fields} of settled) {
      const row = legal.get(`${round}/${seat}/${action}`) ?? (state.forfeit ? last.get(`${round}/${seat}`) : undefined);
      if (row) for (const k in fields) if (fields[k] !== undefined && fields[k] !== null) row[k] = fields[k];
    }
  }
  const result = state.result();
  await Promise.all(agents.map((a) => a.finish?.(result)));
  return {result, turns};
}

/**
 * Every seat's decision of a simultaneous round; when one fails (a call the
 * budget refuses, an aborted run), the first failure, but only once the other
 * seats' calls have ended: a call left in flight would settle its cost after
 * the run has closed its spend record (runner/budget.ts), where it counts at
 * its reservation rather than at what the endpoint billed.
 */
async function allAnswered(pending: readonly (Decision | Promise<Decision>)[]): Promise<Decision[]> {
  const outcomes = await Promise.allSettled(pending);
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (failed) throw failed.reason;
  return outcomes.map((o) => (o as PromiseFulfilledResult<Decision>).value);
}

/** One seat's decision: its attempts' rows and the legal action, or null after `maxAttempts` rule breaks. */
interface Decision {
  rows: TurnRow[];
  action: Action | null;
  error: string | null;
}

/**
 * A game being played. Methods rather than closures: this runs for every
 * turn of full-grid runs, where creating functions per turn (and naming them,
 * as the TypeScript loader does) cost more than the turn itself.
 */
class GameInPlay {
  readonly state: GameState;
  readonly chanceNodes: GameStreams["chanceNodes"];
  readonly turns: TurnRow[] = [];
  private readonly rngs: Rng[];

  constructor(
    readonly def: GameDef,
    params: Params,
    readonly gameId: string,
    private readonly agents: readonly Agent[],
    streams: GameStreams,
    private readonly maxAttempts: number,
  ) {
    this.state = def.start(params, {gameId, nSeats: agents.length, chance: streams.chance});
    this.chanceNodes = streams.chanceNodes;
    this.rngs = streams.seats;
    this.recordGameMoves();
  }

  /** Turns rows for the moves the game made itself since last asked (GameState.takeGameMoves). */
  private recordGameMoves(): void {
    const moves = this.state.takeGameMoves?.();
    if (!moves) return;
    for (const {round, seat, action, ...fields} of moves) this.turns.push({game_id: this.gameId, turn: this.turns.length, round, seat, action, rule_break: false, ...fields});
  }

  /** Applies a round's actions, then records the moves the game made in answer. */
  private apply(actions: readonly Action[]): void {
    this.state.apply(actions);
    this.recordGameMoves();
  }

  private observe(seat: Seat, retry: GameObservation["retry"]): GameObservation {
    const obs = this.state.observe(seat);
    if (retry) obs.retry = retry;
    return obs;
  }

  /** Records one answer; returns the decision when it is final, else null (ask again). */
  private record(seat: Seat, rows: TurnRow[], obs: GameObservation, reply: AgentReply, attempt: number): Decision | null {
    const error = reply.parse_error ?? this.state.validate(seat, reply.action);
    if (reply.calls) for (const call of reply.calls) rows.push(subCallRow(this.gameId, obs, call, attempt, this.def.columns.turns));
    rows.push(turnRow(this.gameId, obs, reply, attempt, error, this.def.columns.turns, this.state.turnInfo?.(seat)));
    if (error === null) return {rows, action: reply.action as Action, error: null};
    if (attempt >= (this.agents[seat].maxAttempts ?? this.maxAttempts)) return {rows, action: null, error};
    return null;
  }

  /**
   * Asks `seat` until it answers legally or runs out of attempts. Stays
   * synchronous while the agent answers synchronously (scripted agents).
   */
  decide(seat: Seat): Decision | Promise<Decision> {
    const rows: TurnRow[] = [];
    let retry: GameObservation["retry"];
    for (let attempt = 1; ; attempt++) {
      const obs = this.observe(seat, retry);
      const answer = ask(this.agents[seat], obs, this.rngs[seat]);
      if (answer instanceof Promise) return this.decideAsync(seat, rows, obs, answer, attempt);
      const done = this.record(seat, rows, obs, answer, attempt);
      if (done) return done;
      retry = {attempt: attempt + 1, error: rows[rows.length - 1].rule_break_reason as string};
    }
  }

  /** The rest of a decision once the agent answers asynchronously (an LLM). */
  private async decideAsync(seat: Seat, rows: TurnRow[], obs: GameObservation, answer: Promise<AgentReply>, attempt: number): Promise<Decision> {
    let reply = await answer;
    for (let n = attempt; ; n++) {
      const done = this.record(seat, rows, obs, reply, n);
      if (done) return done;
      obs = this.observe(seat, {attempt: n + 1, error: rows[rows.length - 1].rule_break_reason as string});
      reply = await ask(this.agents[seat], obs, this.rngs[seat]);
    }
  }

  /** `collect` for one seat, without the arrays (this is every turn of a sequential game). */
  collectOne(seat: Seat, d: Decision): void {
    for (const row of d.rows) {
      row.turn = this.turns.length;
      this.turns.push(row);
    }
    if (d.action !== null) this.apply([d.action]);
    else if (this.state.forfeit) this.apply([this.state.forfeit(seat, d.error!)]);
    else this.state.abort(seat, d.error!);
  }

  /** Numbers the round's rows and applies its actions, or the game's fallback for a seat that kept breaking the rules. */
  collect(seats: readonly Seat[], decisions: Decision[]): void {
    for (const d of decisions) {
      for (const row of d.rows) {
        row.turn = this.turns.length;
        this.turns.push(row);
      }
    }
    const failed = decisions.findIndex((d) => d.action === null);
    if (failed < 0) this.apply(decisions.map((d) => d.action!));
    else if (this.state.forfeit) this.apply(decisions.map((d, i) => d.action ?? this.state.forfeit!(seats[i], d.error!)));
    else this.state.abort(seats[failed], decisions[failed].error!);
  }
}

/**
 * An agent's answer (a Promise only when the agent answers asynchronously).
 * An agent that throws has given no usable answer: a rule break, except an
 * LLM call that failed for good (endpoint down, not a bad answer), which
 * stops the game unrecorded so that a re-run plays it again (run/resume.ts).
 */
function ask(agent: Agent, obs: GameObservation, rng: Rng): AgentReply | Promise<AgentReply> {
  try {
    const answer = agent.act(obs, rng);
    return answer instanceof Promise ? answer.catch(agentFailed) : answer;
  } catch (error) {
    return agentFailed(error);
  }
}

function agentFailed(error: unknown): AgentReply {
  if (error instanceof LlmCallError) throw error;
  return {action: null, parse_error: `agent failed: ${(error as Error).message}`};
}

/** Turns columns of a game by name, built once per game definition. */
const turnColumnTypes = new WeakMap<GameDef["columns"]["turns"], Map<string, ColumnType>>();

function columnTypes(columns: GameDef["columns"]["turns"]): Map<string, ColumnType> {
  let types = turnColumnTypes.get(columns);
  if (!types) turnColumnTypes.set(columns, (types = new Map(columns.map((c) => [c.name, c.type]))));
  return types;
}

/**
 * A turns row for one attempt: the common columns, the action's fields that
 * the game declares as turns columns (when their values fit the column; an
 * attempt's misfit field is left out, its reason is in rule_break_reason),
 * the message (`message` or `text`), and the state's hidden facts for the seat.
 */
export function turnRow(
  gameId: string,
  obs: GameObservation,
  reply: AgentReply,
  attempt: number,
  error: string | null,
  columns: GameDef["columns"]["turns"],
  info?: Record<string, unknown>,
): TurnRow {
  const a = (reply.action && typeof reply.action === "object" ? reply.action : {}) as Record<string, unknown>;
  const row: TurnRow = {game_id: gameId, turn: 0, round: obs.round, seat: obs.seat};
  if (info) for (const k in info) row[k] = info[k];
  if (reply.record) recordFields(row, reply.record, columns);
  row.rule_break = error !== null;
  row.attempt = attempt;
  if (typeof a.type === "string") row.action = a.type;
  // The action's own fields (a few) against the game's columns, not every column against the action.
  const types = columnTypes(columns);
  for (const k in a) {
    const type = types.get(k);
    const v = a[k];
    if (type !== undefined && v !== undefined && v !== null && !(k in row) && valueFits(type, v)) row[k] = v;
  }
  const text = typeof a.message === "string" ? a.message : typeof a.text === "string" ? a.text : undefined;
  if (text) row.message = text;
  if (error !== null) row.rule_break_reason = error;
  if (reply.reasoning) row.reasoning = reply.reasoning;
  if (reply.raw !== undefined) row.raw = reply.raw;
  if (reply.usage?.input_tokens !== undefined) row.input_tokens = reply.usage.input_tokens;
  if (reply.usage?.output_tokens !== undefined) row.output_tokens = reply.usage.output_tokens;
  if (reply.usage?.cached_input_tokens !== undefined) row.cached_input_tokens = reply.usage.cached_input_tokens;
  if (reply.usage?.cache_write_tokens !== undefined) row.cache_write_tokens = reply.usage.cache_write_tokens;
  if (reply.usage?.reasoning_tokens !== undefined) row.reasoning_tokens = reply.usage.reasoning_tokens;
  if (reply.usage?.latency_ms !== undefined) row.latency_ms = reply.usage.latency_ms;
  return row;
}

/** The agent's own facts (`AgentReply.record`) that the game declares as turns columns and that fit them. */
function recordFields(row: TurnRow, record: Record<string, unknown>, columns: GameDef["columns"]["turns"]): void {
  const types = columnTypes(columns);
  for (const k in record) {
    const type = types.get(k);
    const v = record[k];
    if (type !== undefined && v !== undefined && v !== null && valueFits(type, v)) row[k] = v;
  }
}

/** A turns row for a workflow sub-call made before a decision's answer: action "workflow", a rule break when the workflow could not read it. */
export function subCallRow(gameId: string, obs: GameObservation, call: SubCall, attempt: number, columns: GameDef["columns"]["turns"]): TurnRow {
  const row: TurnRow = {game_id: gameId, turn: 0, round: obs.round, seat: obs.seat, action: call.action ?? "workflow"};
  if (call.record) recordFields(row, call.record, columns);
  row.rule_break = !!call.error;
  row.attempt = attempt;
  if (call.error) row.rule_break_reason = `workflow: ${call.error}`;
  row.raw = call.raw;
  if (call.usage?.input_tokens !== undefined) row.input_tokens = call.usage.input_tokens;
  if (call.usage?.output_tokens !== undefined) row.output_tokens = call.usage.output_tokens;
  if (call.usage?.cached_input_tokens !== undefined) row.cached_input_tokens = call.usage.cached_input_tokens;
  if (call.usage?.cache_write_tokens !== undefined) row.cache_write_tokens = call.usage.cache_write_tokens;
  if (call.usage?.reasoning_tokens !== undefined) row.reasoning_tokens = call.usage.reasoning_tokens;
  if (call.usage?.latency_ms !== undefined) row.latency_ms = call.usage.latency_ms;
  return row;
}
