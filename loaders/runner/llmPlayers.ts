/**
 * LLM players of a run: turns the config's player objects (agents/llm/spec.ts)
 * into agent registry entries that share one `complete` per player (so one
 * endpoint limiter, one cache), and an agent factory that the tournament
 * uses in place of the built-in registry lookup.
 */
import {agentDef} from "../registry/agents.js";
import type {Agent, AgentDef, SeatContext} from "../contract/agent.js";
import {ResponseCache} from "../llm/cache.js";
import {completerForSpec, type CompleterOptions} from "../llm/complete.js";
import {llmPlayerDef} from "../llm/llmPlayer.js";
import type {LlmPlayerSpec} from "../llm/playerSpec.js";
import {redactUrl} from "../io/printable.js";

export interface LlmSeats {
  specs: Map<string, AgentDef>;
  /** Built-in agents by id, LLM players by their config id. */
  factory: (id: string, context: SeatContext) => Agent;
}

/**
 * Builds the LLM players of a run. Reads each player's key from the
 * environment now, so a missing variable fails before any game starts.
 * `seed` becomes part of every cache sample key (see LlmAgent).
 */
export function llmSeats(players: readonly LlmPlayerSpec[], cacheDir: string | null, seed: number, extra: Partial<CompleterOptions> = {}): LlmSeats {
  checkSharedLimits(players);
  const cache = cacheDir ? new ResponseCache(cacheDir) : null;
  const specs = new Map<string, AgentDef>();
  for (const p of players) specs.set(p.id, llmPlayerDef(p, completerForSpec(p, cache, extra), `${seed}/`));
  return {
    specs,
    factory: (id, context) => (specs.get(id) ?? agentDef(id)).create(context),
  };
}

/** The fields of a player that change its answers (what a run fingerprint must cover); limits and timeouts do not. */
export function answerDefining(p: LlmPlayerSpec): Partial<LlmPlayerSpec> {
  const {timeout_ms: _t, max_retries: _r, max_concurrency: _c, requests_per_minute: _q, api_key_env: _k, max_response_bytes: _b, max_retry_wait_ms: _w, ...rest} = p;
  return rest;
}

/**
 * Players on one endpoint (provider + base_url) share its limiter, so they
 * must not ask for different limits; throws naming both players. A limit
 * given on any of them is copied to the first, whose settings create the
 * shared limiter.
 */
export function checkSharedLimits(players: readonly LlmPlayerSpec[]): void {
  const seen = new Map<string, LlmPlayerSpec>();
  for (const p of players) {
    const endpoint = `${p.provider} ${p.base_url ?? "default"}`;
    const first = seen.get(endpoint);
    if (!first) {
      seen.set(endpoint, p);
      continue;
    }
    for (const field of ["max_concurrency", "requests_per_minute"] as const) {
      if (p[field] !== null && first[field] !== null && p[field] !== first[field]) {
        throw new Error(`players ${first.id} and ${p.id} share the endpoint ${p.provider} ${p.base_url ? redactUrl(p.base_url) : "default"} but ask for different ${field} (${first[field]} and ${p[field]}); give it once`);
      }
      if (p[field] !== null && first[field] === null) first[field] = p[field];
    }
  }
}
