/**
 * The priced run of issue 38's budget and usage cases: GLEE bargaining,
 * one OpenAI-protocol player on a fake loopback endpoint against
 * `rubinstein`, prices of $1,000 per million input and output tokens, and an
 * endpoint that bills every call 1,000 input and 100 output tokens (the
 * player's max_tokens): $1.10 a call, two calls a game. What the endpoint
 * billed is its count of answered calls × $1.10, whatever the run records.
 */
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {startFakeLlm, type FakeLlmServer, type FakeRequest} from "./fakeLlm.js";
import {gleeBot} from "./gleeBot.js";

export const CALL_USD = 1.1;

export interface PricedGlee {
  dir: string;
  config: string;
  env: NodeJS.ProcessEnv;
  server: FakeLlmServer;
  /** What the endpoint billed so far: answered calls × $1.10 (in whole cents, so sums are exact). */
  billedCents(): number;
}

export interface PricedGleeOptions {
  games: number;
  /** Milliseconds before each answer. */
  delayMs?: number;
  /** The usage object the endpoint sends instead of its counts (a hostile endpoint's), per request. */
  usage?: (request: FakeRequest) => unknown;
}

/** Starts the endpoint and writes the run config and price table into `dir`; `keep` closes the server with the test file. */
export async function pricedGlee(dir: string, keep: (server: FakeLlmServer) => void, options: PricedGleeOptions): Promise<PricedGlee> {
  const bot = gleeBot({delayMs: options.delayMs ?? 0});
  const server = await startFakeLlm("openai", async (request) => ({
    ...(await bot(request)),
    inputTokens: 1000,
    outputTokens: 100,
    ...(options.usage && {usage: options.usage(request)}),
  }) as Awaited<ReturnType<typeof bot>>);
  keep(server);
  const settings = join(dir, "parley.config.json");
  writeFileSync(settings, JSON.stringify({prices: {"openai/fake-openai": {input_per_million: 1000, output_per_million: 1000, as_of: "2026-11-28"}}}));
  const config = join(dir, "run.json");
  writeFileSync(config, JSON.stringify({
    family: "bargaining",
    grid: {delta_a: [0.9], delta_b: [0.9], money: [100], horizon: [12], complete_information: [true], messages: [true]},
    players: [{id: "oa", provider: "openai", model: "fake-openai", base_url: server.baseURL, api_key_env: "PARLEY_FAKE_KEY", max_tokens: 100}, "rubinstein"],
    pairs: [["oa", "rubinstein"]],
    games_per_pair: options.games,
    seed: 1,
  }));
  const env = {PARLEY_FAKE_KEY: "sk-parley-" + "pr1ced0000".repeat(4), PARLEY_CONFIG: settings};
  return {dir, config, env, server, billedCents: () => server.answered.length * 110};
}
