/**
 * SQL used by the three GLEE family pages, kept out of the Markdown so each
 * page stays prose plus short cells. Parameter and metric names are checked
 * against fixed lists before they reach SQL.
 */
import {GLEE_METRICS, GLEE_PARAMETERS, gleeMetricsSQL, type GleeFamily, type GleeMetric} from "../lib/gleeMetrics.js";

const checkMetric = (m: string): GleeMetric => {
  if (!(GLEE_METRICS as readonly string[]).includes(m)) throw new Error(`unknown metric ${m}`);
  return m as GleeMetric;
};

/** Per-game metrics of one family joined to the game's parameters. */
export function familyMetricsSQL(family: GleeFamily): string {
  return `SELECT m.*, g.* EXCLUDE (game_id, family, alice_agent, bob_agent)
FROM (${gleeMetricsSQL("games")}) m JOIN games g USING (game_id)
WHERE m.family = '${family}'`;
}

/** agent (in `seat`) and the metric's value per game, for box plots. */
export function metricValuesSQL(family: GleeFamily, metric: string, seat: "alice" | "bob"): string {
  const m = checkMetric(metric);
  return `SELECT ${seat}_agent AS agent, ${m} AS value FROM (${familyMetricsSQL(family)}) WHERE ${m} IS NOT NULL`;
}

/** Mean metric by parameter value and agent in `seat`; values as text ('∞' for a null horizon), in parameter order. */
export function parameterImpactSQL(family: GleeFamily, parameter: string, metric: string, seat: "alice" | "bob"): string {
  const m = checkMetric(metric);
  if (!GLEE_PARAMETERS[family].some((p) => p.column === parameter)) throw new Error(`unknown ${family} parameter ${parameter}`);
  return `SELECT coalesce(CAST(${parameter} AS VARCHAR), '∞') AS value, ${seat}_agent AS agent,
       avg(${m})::DOUBLE AS mean, count(${m})::INTEGER AS n, min(${parameter}) AS sort_key
FROM (${familyMetricsSQL(family)})
WHERE ${m} IS NOT NULL
GROUP BY ALL
ORDER BY sort_key NULLS LAST, agent`;
}

/** Distinct agents that sat in `seat` in this family, sorted. */
export function seatAgentsSQL(family: GleeFamily, seat: "alice" | "bob"): string {
  return `SELECT DISTINCT ${seat === "alice" ? "alice_agent" : "bob_agent"} AS agent FROM games WHERE family = '${family}' AND ${seat}_agent IS NOT NULL ORDER BY agent`;
}

/** Games of one ordered pair (bind alice, bob as parameters), with a one-line label. */
export function pairGamesSQL(family: GleeFamily): string {
  const params = GLEE_PARAMETERS[family].map((p) => `'${p.column}=' || coalesce(CAST(${p.column} AS VARCHAR), '∞')`).join(" || ', ' || ");
  return `SELECT game_id, ${params} AS parameters, rounds, ended_by, agreement, alice_share, price, sales
FROM games WHERE family = '${family}' AND alice_agent = ? AND bob_agent = ?
ORDER BY config_id, repetition, game_id LIMIT 2000`;
}

export interface GleeTurn {
  turn: number;
  round: number;
  player: string;
  action: string | null;
  alice_gain: number | null;
  bob_gain: number | null;
  price: number | null;
  claim: string | null;
  quality: string | null;
  message: string | null;
  decision: string | null;
  reasoning: string | null;
  rule_break: boolean | null;
  rule_break_reason: string | null;
}

const amount = (x: number) => (Math.round(x * 100) / 100).toLocaleString("en-US");

/**
 * Turns as transcript lines: what was done (offer, decision, claim) followed
 * by the free-text message. The text is shown by Transcript with textContent.
 */
export function transcriptLines(turns: GleeTurn[], family: GleeFamily): {turn: number; player: string; action: string; text: string; reasoning: string | null}[] {
  return turns.map((t) => {
    let what = "";
    if (t.rule_break) what = `[rule break${t.rule_break_reason ? `: ${t.rule_break_reason}` : ""}] `;
    if (t.action === "offer" && family === "bargaining") what += `round ${t.round}: offers Alice ${amount(t.alice_gain ?? NaN)}, Bob ${amount(t.bob_gain ?? NaN)}`;
    else if (t.action === "offer") what += `round ${t.round}: offers a price of ${amount(t.price ?? NaN)}`;
    else if (t.action === "decision" && family === "persuasion") what += `round ${t.round}: ${t.decision === "accept" ? "buys" : "does not buy"}`;
    else if (t.action === "decision") what += `round ${t.round}: ${t.decision ?? "?"}s`;
    else if (t.action === "message") what += `round ${t.round}${t.quality ? ` (quality ${t.quality})` : ""}: ${t.claim ? `claims ${t.claim} quality` : "sends a message"}`;
    else what += `round ${t.round}: ${t.action ?? "unreadable answer"}`;
    return {turn: t.turn, player: t.player, action: t.action ?? "", text: t.message ? `${what} — “${t.message}”` : what, reasoning: t.reasoning};
  });
}
