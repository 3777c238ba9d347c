/**
 * The game loop, one for every game: asks the seats the state names (one
 * seat, or several at once in a simultaneous round, each asked concurrently),
 * validates every answer, records every attempt as a turns row (rule breaks
 * included), and applies the round's actions once every seat asked has a
 * legal one; chance nodes are resolved from the game's chance stream. After
 * `maxAttempts` illegal answers to one decision the state's `abort` applies
 * the game's documented fallback (GLEE: the game ends without a deal;
 * gamma-Bench: the game ends after the rounds completed).
 *
 * Randomness is derived from the run seed and the game id: the game's chance
 * stream (`<game_id>/chance`) and one stream per seat (`<game_id>/<seat
 * name>`), so a game replays identically however the run is scheduled.
 */
import {deriveRng, type Rng} from "../../src/lib/rng.js";
import type {Action, GameDef, GameObservation, GameResult, Params, Seat} from "../games/contract.js";
import {seatName} from "../games/contract.js";
import type {Agent, AgentReply} from "../agents/contract.js";
import {LlmCallError} from "../agents/llm/types.js";

export interface PlayOptions {
  seed: number;
  maxAttempts?: number;
}

export type TurnRow = Record<string, unknown> & {game_id: string; turn: number; round: number; seat: number};

export interface PlayedGame {
  result: GameResult;
  turns: TurnRow[];
}

/** Plays one game to the end; deterministic for (seed, gameId) when the agents are. */
export async function playGame(def: GameDef, params: Params, gameId: string, agents: readonly Agent[], {seed, maxAttempts = 3}: PlayOptions): Promise<PlayedGame> {
  const nSeats = agents.length;
  const state = def.start(params, {gameId, nSeats, rng: deriveRng(seed, `${gameId}/chance`)});
  const chanceRng = deriveRng(seed, `${gameId}/chance-nodes`);
  const rngs = agents.map((_, s) => deriveRng(seed, `${gameId}/${seatName(def, s)}`));
  const turnColumns = def.columns.turns;
  const turns: TurnRow[] = [];

  /** Asks `seat` until it answers legally or runs out of attempts; returns its attempts' rows and the legal action, if any. */
  const decide = async (seat: Seat): Promise<{rows: TurnRow[]; action: Action | null; error: string | null}> => {
    const rows: TurnRow[] = [];
    let retry: GameObservation["retry"];
    for (let attempt = 1; ; attempt++) {
      const obs = state.observe(seat);
      if (retry) obs.retry = retry;
      const reply = await ask(agents[seat], obs, rngs[seat]);
      const error = reply.parse_error ?? state.validate(seat, reply.action);
      rows.push(turnRow(gameId, obs, reply, attempt, error, turnColumns, state.turnInfo?.(seat)));
      if (error === null) return {rows, action: reply.action as Action, error: null};
      if (attempt >= maxAttempts) return {rows, action: null, error};
      retry = {attempt: attempt + 1, error};
    }
  };

  for (;;) {
    const mover = state.next();
    if (mover.kind === "terminal") break;
    if (mover.kind === "chance") {
      state.chance!(chanceRng);
      continue;
    }
    const seats = mover.seats;
    // One seat: no Promise.all (it costs a microtask round per turn in full-grid runs of scripted agents).
    const decisions = seats.length === 1 ? [await decide(seats[0])] : await Promise.all(seats.map(decide));
    for (const d of decisions) {
      for (const row of d.rows) {
        row.turn = turns.length;
        turns.push(row);
      }
    }
    const failed = decisions.findIndex((d) => d.action === null);
    if (failed >= 0) state.abort(seats[failed], decisions[failed].error!);
    else state.apply(decisions.map((d) => d.action!));
  }
  const settled = state.settled?.() ?? [];
  if (settled.length) {
    const legal = new Map<string, TurnRow>();
    for (const t of turns) if (!t.rule_break && typeof t.action === "string") legal.set(`${t.round}/${t.seat}/${t.action}`, t);
    for (const {round, seat, action, ...fields} of settled) {
      const row = legal.get(`${round}/${seat}/${action}`);
      if (row) for (const k in fields) if (fields[k] !== undefined && fields[k] !== null) row[k] = fields[k];
    }
  }
  const result = state.result();
  await Promise.all(agents.map((a) => a.finish?.(result)));
  return {result, turns};
}

async function ask(agent: Agent, obs: GameObservation, rng: Rng): Promise<AgentReply> {
  try {
    const answer = agent.act(obs, rng);
    return answer instanceof Promise ? await answer : answer;
  } catch (error) {
    // An LLM call that failed for good (endpoint down, not a bad answer) is not the seat's rule
    // break: the game stops unrecorded and a re-run plays it again (see run/resume.ts).
    if (error instanceof LlmCallError) throw error;
    return {action: null, parse_error: `agent failed: ${(error as Error).message}`};
  }
}

function fits(type: string, v: unknown): boolean {
  switch (type) {
    case "VARCHAR":
      return typeof v === "string";
    case "BOOLEAN":
      return typeof v === "boolean";
    case "DOUBLE":
      return typeof v === "number" && Number.isFinite(v);
    case "INTEGER":
    case "BIGINT":
      return typeof v === "number" && Number.isInteger(v);
    default: {
      const item = type.slice(0, -2);
      return Array.isArray(v) && v.every((x) => x === null || fits(item, x));
    }
  }
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
  const row: TurnRow = {game_id: gameId, turn: 0, round: obs.round, seat: obs.seat, ...info, rule_break: error !== null, attempt};
  if (typeof a.type === "string") row.action = a.type;
  for (const c of columns) {
    const v = a[c.name];
    if (v !== undefined && v !== null && !(c.name in row) && fits(c.type, v)) row[c.name] = v;
  }
  const text = typeof a.message === "string" ? a.message : typeof a.text === "string" ? a.text : undefined;
  if (text) row.message = text;
  if (error !== null) row.rule_break_reason = error;
  if (reply.reasoning) row.reasoning = reply.reasoning;
  if (reply.raw !== undefined) row.raw = reply.raw;
  if (reply.usage?.input_tokens !== undefined) row.input_tokens = reply.usage.input_tokens;
  if (reply.usage?.output_tokens !== undefined) row.output_tokens = reply.usage.output_tokens;
  if (reply.usage?.latency_ms !== undefined) row.latency_ms = reply.usage.latency_ms;
  return row;
}
