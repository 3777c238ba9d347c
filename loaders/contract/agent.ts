/**
 * The agent contract: what sits in a seat. Agents are registered apart from
 * games (loaders/registry/agents.ts) and act only on observations, so one
 * runner seats scripted strategies, language models and recorded humans alike.
 */
import type {Rng} from "../../src/lib/rng.js";
import type {GameObservation, GameResult, Params, Seat} from "./game.js";

/** Token counts and latency of one model call; all optional, and a count null when the endpoint sent one that is not a count (loaders/llm/usage.ts). */
export interface Usage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  /** Of input_tokens, those billed at the provider's cached-input rate. */
  cached_input_tokens?: number | null;
  /** Of input_tokens, those written to the provider's prompt cache (billed at its cache-write price). */
  cache_write_tokens?: number | null;
  /** Of output_tokens, the model's thinking. */
  reasoning_tokens?: number | null;
  latency_ms?: number;
}

/**
 * What an agent answers. `action` may be anything (an LLM's parsed JSON);
 * the runner validates it against the game's legal actions. `reasoning` is
 * private (never shown to another seat); `raw` is the unparsed response;
 * `message` is free text the game lets the seat send (kept in turns.message).
 * A `parse_error` marks an answer that could not be read at all (the runner
 * records it as a rule break with that reason).
 */
export interface AgentReply {
  action: unknown;
  reasoning?: string;
  raw?: string;
  usage?: Usage;
  parse_error?: string;
  /** The agent's own facts for this decision's turns row, kept where the game declares the column (a workflow's belief). */
  record?: Record<string, unknown>;
  /** Model calls made before the answer (a workflow's sub-questions), each recorded as its own turns row. */
  calls?: SubCall[];
}

/**
 * One auxiliary model call of a decision (a workflow sub-question). It is
 * stored as a turns row before the decision's row, with `action` as its
 * action (default "workflow") and `record`'s fields where the game declares
 * those columns; an answer the workflow could not read (`error`) is a rule
 * break of that row (the decision itself goes on).
 */
export interface SubCall {
  raw: string;
  usage?: Usage;
  action?: string;
  error?: string | null;
  record?: Record<string, unknown>;
}

/** One seat at one game. Created fresh for every game, so it may keep state. */
export interface Agent<V = unknown> {
  act(observation: GameObservation<V>, rng: Rng): AgentReply | Promise<AgentReply>;
  /**
   * Facts about who plays (an LLM's `model`, whether it uses a `workflow`),
   * written to the games row as `<seat name>_<trait>` where the game declares
   * such a column.
   */
  traits?: Record<string, unknown>;
  /** Answers this seat may give to one decision before the game's fallback, when the agent sets its own (an LLM player's `retries` + 1); else the run's max_attempts. */
  maxAttempts?: number;
  /** Called once when the game ends (e.g. to close a conversation). */
  finish?(result: GameResult): void | Promise<void>;
}

/**
 * Every field of the agent contract, checked by the compiler against Agent:
 * a field added there does not compile here until it is listed, and
 * `withAct` then passes it through. (A wrapper that listed the fields it
 * passed on once dropped `maxAttempts`, and runs ignored `retries`.)
 */
export const AGENT_FIELDS = {act: true, traits: true, maxAttempts: true, finish: true} as const satisfies Record<keyof Agent, true>;

/** `agent` with its `act` replaced; every other field of the contract passes through (methods bound to `agent`). */
export function withAct(agent: Agent, act: Agent["act"]): Agent {
  const wrapped: Record<string, unknown> = {act};
  for (const field of Object.keys(AGENT_FIELDS) as (keyof Agent)[]) {
    const value = agent[field];
    if (field === "act" || value === undefined) continue;
    wrapped[field] = typeof value === "function" ? value.bind(agent) : value;
  }
  return wrapped as unknown as Agent;
}

/** Where an agent sits. */
export interface SeatContext {
  game: string;
  gameId: string;
  seat: Seat;
  seatName: string | null;
  nSeats: number;
  params: Params;
}

/** An entry of the agent registry (`parley agents`). */
export interface AgentDef {
  id: string;
  /** Game ids it plays ("gamabench/guessing"), or a family prefix ending in "/*" ("glee/*"). */
  games: readonly string[];
  /** Whether it can take `seat` of `game` (default: any seat of a game it plays). */
  canSit?(game: string, seat: Seat, nSeats: number): boolean;
  description: string;
  /** Where the strategy comes from (paper, section; or a textbook name). */
  source: string;
  create(context: SeatContext): Agent;
}

/** Whether `def` plays `game` (by id or "family/*" prefix). */
export function playsGame(def: Pick<AgentDef, "games">, game: string): boolean {
  return def.games.some((g) => g === game || (g.endsWith("/*") && game.startsWith(g.slice(0, -1))));
}
