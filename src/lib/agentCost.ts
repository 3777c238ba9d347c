/**
 * What an agent's games cost: its seats' recorded token counts (turns
 * `input_tokens`, `output_tokens`) at the configured price table
 * (parley.config.json "prices", loaders/runner/cost.ts), per game played. For
 * the /ratings page's rating-against-cost view; the prices reach the page
 * through a data loader (src/data/prices.json.ts). Pure.
 */

export interface AgentTokens {
  agent: string;
  /** Seats the agent held, and those with any token count recorded. */
  games: number;
  games_with_tokens: number;
  input_tokens: number;
  output_tokens: number;
}

export interface Price {
  input_per_million: number;
  output_per_million: number;
  as_of: string | null;
}

export interface AgentCost extends AgentTokens {
  /** US dollars per game played, null with the reason when there is none. */
  cost_per_game: number | null;
  price_key: string | null;
  no_cost: string | null;
}

const tokenColumns = `sum(input_tokens)::DOUBLE AS input_tokens, sum(output_tokens)::DOUBLE AS output_tokens, (count(input_tokens) + count(output_tokens) > 0) AS counted`;
const perAgent = `SELECT s.agent, count(*)::INTEGER AS games, count(*) FILTER (WHERE t.counted)::INTEGER AS games_with_tokens,
  coalesce(sum(t.input_tokens), 0)::DOUBLE AS input_tokens, coalesce(sum(t.output_tokens), 0)::DOUBLE AS output_tokens`;

/** Tokens per agent of the common tables (players with seats, turns with seats). */
export function commonTokensSQL(players = "players", turns = "turns"): string {
  return `WITH t AS (SELECT game_id, seat, ${tokenColumns} FROM ${turns} GROUP BY game_id, seat)
${perAgent} FROM ${players} s LEFT JOIN t USING (game_id, seat) WHERE s.agent IS NOT NULL GROUP BY s.agent ORDER BY s.agent`;
}

/** Tokens per agent of the flat GLEE tables (games with alice_agent and bob_agent, turns by `player`). */
export function gleeTokensSQL(games = "games", turns = "turns"): string {
  return `WITH t AS (SELECT game_id, player, ${tokenColumns} FROM ${turns} GROUP BY game_id, player),
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

/** Cost per game of every agent: (input × input price + output × output price) / 10⁶ / games played; none without tokens or price. */
export function agentCosts(tokens: readonly AgentTokens[], prices: Record<string, Price>): AgentCost[] {
  return tokens.map((t) => {
    const found = priceOf(t.agent, prices);
    const noCost = t.games_with_tokens === 0 ? "no token counts recorded: a scripted agent, or logs without them" : !found ? "no price in parley.config.json" : null;
    const cost = noCost ? null : (t.input_tokens * found!.price.input_per_million + t.output_tokens * found!.price.output_per_million) / 1e6 / t.games;
    return {...t, cost_per_game: cost, price_key: found?.key ?? null, no_cost: noCost};
  });
}

/** Tokens of agents that appear under several sources, added up (the page pools sources). */
export function poolTokens(lists: readonly (readonly AgentTokens[])[]): AgentTokens[] {
  const by = new Map<string, AgentTokens>();
  for (const t of lists.flat()) {
    const a = by.get(t.agent);
    if (!a) by.set(t.agent, {...t});
    else for (const k of ["games", "games_with_tokens", "input_tokens", "output_tokens"] as const) a[k] += t[k];
  }
  return [...by.values()].sort((x, y) => (x.agent < y.agent ? -1 : 1));
}

