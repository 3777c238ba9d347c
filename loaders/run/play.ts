/**
 * The game loop: seats two agents at a game, asks the player to move for an
 * action, validates it, records every attempt as a turns row (rule breaks
 * included) and applies legal actions, until the game ends. After
 * `maxAttempts` illegal answers to one decision the game is aborted
 * (ended_by = "rule_break", no deal). Agents may answer synchronously or
 * with a Promise.
 */
import {deriveRng} from "../../src/lib/rng.js";
import {gameFamily} from "../games/index.js";
import type {Agent, AgentReply, Family, GameState, Observation, Outcome, ParamsOf, Player} from "../games/types.js";
import type {TurnRow} from "../games/schema.js";
import {LlmCallError} from "../agents/llm/types.js";

export interface PlayOptions {
  seed: number;
  maxAttempts?: number;
}

export interface PlayedGame {
  outcome: Outcome;
  turns: TurnRow[];
}

/** Plays one game to the end; deterministic for (seed, gameId) when the agents are. */
export async function playGame<F extends Family>(
  family: F,
  params: ParamsOf<F>,
  gameId: string,
  agents: Record<Player, Agent>,
  {seed, maxAttempts = 3}: PlayOptions,
): Promise<PlayedGame> {
  const state = gameFamily(family).start(params, gameId, deriveRng(seed, `${gameId}/chance`)) as unknown as GameState;
  const rngs = {alice: deriveRng(seed, `${gameId}/alice`), bob: deriveRng(seed, `${gameId}/bob`)};
  const turns: TurnRow[] = [];
  let attempt = 1;
  let retry: Observation["retry"];
  while (!state.isTerminal()) {
    const player = state.currentPlayer()!;
    const obs = state.observe(player);
    if (retry) obs.retry = retry;
    let reply: AgentReply;
    try {
      const answer = agents[player].act(obs, rngs[player]);
      reply = answer instanceof Promise ? await answer : answer;
    } catch (error) {
      // An LLM call that failed for good (endpoint down, not a bad answer) is not the player's rule
      // break: the game stops unrecorded and a re-run plays it again (see run/resume.ts).
      if (error instanceof LlmCallError) throw error;
      reply = {action: null, parse_error: `agent failed: ${(error as Error).message}`};
    }
    const error = reply.parse_error ?? state.validate(reply.action);
    turns.push(turnRow(gameId, turns.length, obs, reply, attempt, error));
    if (error === null) {
      state.apply(reply.action as never);
      attempt = 1;
      retry = undefined;
    } else if (attempt >= maxAttempts) {
      state.abort(player, error);
    } else {
      attempt++;
      retry = {attempt, error};
    }
  }
  const outcome = state.outcome();
  await Promise.all((["alice", "bob"] as const).map((p) => agents[p].finish?.(outcome)));
  return {outcome, turns};
}

const num = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : undefined);
const str = (x: unknown) => (typeof x === "string" ? x : undefined);

/** A turns row for one attempt; fields that do not apply are left out (null in Parquet). */
export function turnRow(gameId: string, turn: number, obs: Observation, reply: AgentReply, attempt: number, error: string | null): TurnRow {
  const a = (reply.action && typeof reply.action === "object" ? reply.action : {}) as Record<string, unknown>;
  const row: TurnRow = {game_id: gameId, turn, round: obs.round, player: obs.player, role: obs.role, rule_break: error !== null, attempt};
  const type = str(a.type);
  if (type) row.action = type;
  if (num(a.alice_gain) !== undefined) row.alice_gain = a.alice_gain;
  if (num(a.bob_gain) !== undefined) row.bob_gain = a.bob_gain;
  if (num(a.price) !== undefined) row.price = a.price;
  if (a.claim === "high" || a.claim === "low") row.claim = a.claim;
  const text = str(a.message) ?? str(a.text);
  if (text) row.message = text;
  if (str(a.decision)) row.decision = a.decision;
  if (obs.family === "persuasion" && obs.player === "alice") {
    const quality = (obs.view as {quality: string | null}).quality;
    if (quality) row.quality = quality;
  }
  if (error !== null) row.rule_break_reason = error;
  if (reply.reasoning) row.reasoning = reply.reasoning;
  if (reply.raw !== undefined) row.raw = reply.raw;
  if (reply.usage?.input_tokens !== undefined) row.input_tokens = reply.usage.input_tokens;
  if (reply.usage?.output_tokens !== undefined) row.output_tokens = reply.usage.output_tokens;
  if (reply.usage?.latency_ms !== undefined) row.latency_ms = reply.usage.latency_ms;
  return row;
}
