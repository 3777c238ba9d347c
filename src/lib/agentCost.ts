/**
 * What an agent's games cost: its seats' recorded token counts (turns
 * `input_tokens`, `output_tokens`, and of those `cached_input_tokens` and
 * `reasoning_tokens` where recorded) at the configured price table
 * (parley.config.json "prices", loaders/runner/cost.ts), per game played. For
 * the /ratings page's rating-against-cost view; the prices reach the page
 * through a data loader (src/data/prices.json.ts). Pure.
 *
 * The arithmetic of one call, or of any sum of calls (`tokenCost`): the
 * uncached input at the input price, the cached input at the cached-input
 * price, the input written to the cache at the cache-write price (each the
 * input price when the table has none), and all output,
 * reasoning included, at the output price (every provider bills thinking
 * as output).
 */

export interface AgentTokens {
  agent: string;
  /** Seats the agent held, and those with any token count recorded. */
  games: number;
  games_with_tokens: number;
  input_tokens: number;
  output_tokens: number;
  /** Of input_tokens, billed at the cached rate; of output_tokens, thinking (0 where not recorded). */
  cached_input_tokens?: number;
  reasoning_tokens?: number;
  cache_write_tokens?: number;
}

export interface Price {
  input_per_million: number;
  output_per_million: number;
  /** US dollars per million input tokens read from the provider's prompt cache; null or absent: the input price. */
  cached_input_per_million?: number | null;
  /** US dollars per million input tokens written to the provider's prompt cache (Anthropic: 1.25 times the input price for 5 minutes); null or absent: the input price. */
  cache_write_per_million?: number | null;
  as_of: string | null;
}

/** Token counts of one call or a sum of calls, as the turns columns hold them. */
export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens?: number | null;
  cache_write_tokens?: number | null;
}

/** US dollars for `tokens` at `price` (see the file's comment). */
export function tokenCost(price: Price, tokens: TokenCounts): number {
  const cached = Math.min(tokens.cached_input_tokens ?? 0, tokens.input_tokens);
  const written = Math.min(tokens.cache_write_tokens ?? 0, tokens.input_tokens - cached);
  const cachedRate = price.cached_input_per_million ?? price.input_per_million;
  const writeRate = price.cache_write_per_million ?? price.input_per_million;
  return ((tokens.input_tokens - cached - written) * price.input_per_million + cached * cachedRate + written * writeRate + tokens.output_tokens * price.output_per_million) / 1e6;
}

export interface AgentCost extends AgentTokens {
  /** US dollars per game played, null with the reason when there is none. */
  cost_per_game: number | null;
  price_key: string | null;
  no_cost: string | null;
}

/** The turns columns the token sums read: the cached and reasoning counts only where the table has them (runs before they were kept, and ingested logs, have not). */
const tokenColumns = (turnColumns: ReadonlySet<string> | null) => {
  const sum = (c: string) => (turnColumns === null || turnColumns.has(c) ? `sum(${c})::DOUBLE` : "0::DOUBLE");
  return `sum(input_tokens)::DOUBLE AS input_tokens, sum(output_tokens)::DOUBLE AS output_tokens, ${sum("cached_input_tokens")} AS cached_input_tokens, ${sum("reasoning_tokens")} AS reasoning_tokens, ${sum("cache_write_tokens")} AS cache_write_tokens, (count(input_tokens) + count(output_tokens) > 0) AS counted`;
};
const perAgent = `SELECT s.agent, count(*)::INTEGER AS games, count(*) FILTER (WHERE t.counted)::INTEGER AS games_with_tokens,
  coalesce(sum(t.input_tokens), 0)::DOUBLE AS input_tokens, coalesce(sum(t.output_tokens), 0)::DOUBLE AS output_tokens,
  coalesce(sum(t.cached_input_tokens), 0)::DOUBLE AS cached_input_tokens, coalesce(sum(t.reasoning_tokens), 0)::DOUBLE AS reasoning_tokens, coalesce(sum(t.cache_write_tokens), 0)::DOUBLE AS cache_write_tokens`;

/** Tokens per agent of the common tables (players with seats, turns with seats); `turnColumns`: the turns table's columns, null when it has them all. */
export function commonTokensSQL(players = "players", turns = "turns", turnColumns: ReadonlySet<string> | null = null): string {
  return `WITH t AS (SELECT game_id, seat, ${tokenColumns(turnColumns)} FROM ${turns} GROUP BY game_id, seat)
${perAgent} FROM ${players} s LEFT JOIN t USING (game_id, seat) WHERE s.agent IS NOT NULL GROUP BY s.agent ORDER BY s.agent`;
}

/** Tokens per agent of the flat GLEE tables (games with alice_agent and bob_agent, turns by `player`). */
export function gleeTokensSQL(games = "games", turns = "turns", turnColumns: ReadonlySet<string> | null = null): string {
  return `WITH t AS (SELECT game_id, player, ${tokenColumns(turnColumns)} FROM ${turns} GROUP BY game_id, player),
s AS (SELECT game_id, 'alice' AS player, alice_agent AS agent FROM ${games} UNION ALL SELECT game_id, 'bob' AS player, bob_agent AS agent FROM ${games})
${perAgent} FROM s LEFT JOIN t USING (game_id, player) WHERE s.agent IS NOT NULL GROUP BY s.agent ORDER BY s.agent`;
}

/**
 * The price of an agent: the table's entry named exactly as the agent (a
 * table may key an LLM player's id), else the one entry `<provider>/<agent>`
 * (ingested logs name their agents by model).
 */
export function priceOf(agent: string, prices: Record<string, Price>): {key: string; price: Price} | null {
  if (prices[agent]) return {key: agent, price: prices[agent]};
  const keys = Object.keys(prices).filter((k) => k.slice(k.indexOf("/") + 1) === agent);
  return keys.length === 1 ? {key: keys[0], price: prices[keys[0]]} : null;
}

/** Cost per game of every agent: `tokenCost` of its tokens / games played; none without tokens or price. */
export function agentCosts(tokens: readonly AgentTokens[], prices: Record<string, Price>): AgentCost[] {
  return tokens.map((t) => {
    const found = priceOf(t.agent, prices);
    const noCost = t.games_with_tokens === 0 ? "no token counts recorded: a scripted agent, or logs without them" : !found ? "no price in parley.config.json" : null;
    const cost = noCost ? null : tokenCost(found!.price, t) / t.games;
    return {...t, cost_per_game: cost, price_key: found?.key ?? null, no_cost: noCost};
  });
}

/** Tokens of agents that appear under several sources, added up (the page pools sources). */
export function poolTokens(lists: readonly (readonly AgentTokens[])[]): AgentTokens[] {
  const by = new Map<string, AgentTokens>();
  for (const t of lists.flat()) {
    const a = by.get(t.agent);
    if (!a) by.set(t.agent, {...t});
    else {
      for (const k of ["games", "games_with_tokens", "input_tokens", "output_tokens"] as const) a[k] += t[k];
      for (const k of ["cached_input_tokens", "reasoning_tokens", "cache_write_tokens"] as const) a[k] = (a[k] ?? 0) + (t[k] ?? 0);
    }
  }
  return [...by.values()].sort((x, y) => (x.agent < y.agent ? -1 : 1));
}

