/**
 * What else differed between two seats of a game, for the controlled
 * ranking (controlledRatings.ts): per seat, covariates read from the turns
 * table (SQL shared by native DuckDB in `parley ratings` and DuckDB-WASM on
 * /ratings) and from the run's manifest (each LLM player's settings and
 * harness, loaders/runner/manifest.ts). Pure: no DOM, no Node API.
 *
 * Covariates (`CONTROLS`):
 * - from the turns, varying game by game: `tokens_per_turn` (output
 *   tokens per turn, a reasoning model's thinking left out where the API
 *   counted it: the length of what the seat said, a chain-of-thought
 *   player's written reasoning included), `reasoning_tokens_per_turn`
 *   (a reasoning model's thinking, 0 where output was counted and thinking
 *   was not), and `rule_break_rate` (rule breaks over attempts). The
 *   reasoning text itself is not read: the site's archive of a run keeps
 *   its token counts, not its text, and the command line reads what the
 *   page reads;
 * - from the manifest, fixed for an LLM player within a run:
 *   `chain_of_thought` (asked to reason step by step before answering),
 *   `reasoning_effort` and `persona` and `personality` (levels against
 *   "none set"), and the harness factors `legal_moves`,
 *   `structured_output`, `retries`, `votes` and `prompt_layout` (a level
 *   against "authors", the papers' own layout; a manifest written before
 *   the factor existed recorded no layout, and its runs used the authors':
 *   loaders/llm/harness.ts).
 *
 * Encoding: a numeric covariate is standardised over the seats that have
 * it (mean 0, standard deviation 1: its coefficient is per standard
 * deviation, as Chatbot Arena's style control standardises its features);
 * a binary one is 0 / 1; a level is one 0 / 1 column per level seen.
 * Missing values: a seat whose turns lack a value that its agent's other
 * seats of the same source have (a game without turns in a log) takes the
 * agent's mean there, since a gap in the logs is not a style; a seat whose
 * agent has no value at all (a scripted strategy has no tokens and no
 * harness; logs may not count tokens) takes 0: the pooled mean of a numeric
 * covariate, the baseline of the others, so its agent is not adjusted for
 * what it does not have. A covariate that takes one value on every seat is
 * left out (nothing to control for).
 */
import {ratedGames, type SeatRow} from "./ratingsData.js";
import type {RatedGame} from "./ratings.js";
import {sqlString} from "./sqlText.js";

export const CONTROLS = ["tokens_per_turn", "reasoning_tokens_per_turn", "rule_break_rate", "chain_of_thought", "reasoning_effort", "persona", "personality", "legal_moves", "structured_output", "retries", "votes", "prompt_layout"] as const;
export type Control = (typeof CONTROLS)[number];

const KIND: Record<Control, "numeric" | "binary" | "level"> = {
  tokens_per_turn: "numeric",
  reasoning_tokens_per_turn: "numeric",
  rule_break_rate: "numeric",
  chain_of_thought: "binary",
  reasoning_effort: "level",
  persona: "level",
  personality: "level",
  legal_moves: "binary",
  structured_output: "binary",
  retries: "numeric",
  votes: "numeric",
  prompt_layout: "level",
};

/** A seat's sums from its turns (seatTurnsSQL). */
export interface SeatTurns {
  game_id: string;
  seat: number;
  tokens_per_turn: number | null;
  reasoning_tokens_per_turn: number | null;
  attempts: number | null;
  rule_breaks: number | null;
}

/** An LLM player's settings as its run's manifest records them (null: not recorded). */
export interface AgentSettings {
  /** provider/model as requested: the entrant when the controlled ranking ranks models. */
  model: string | null;
  chain_of_thought: boolean | null;
  reasoning_effort: string | null;
  persona: string | null;
  personality: string | null;
  legal_moves: boolean | null;
  structured_output: boolean | null;
  retries: number | null;
  votes: number | null;
  prompt_layout: string | null;
}

/**
 * Per seat of the turns table `turns` whose columns are `columns` (a
 * table may lack the token, attempt or rule-break columns: older runs and
 * ingested logs), the sums SeatTurns holds. `form` "glee": the flat GLEE
 * turns table, seats named by `player` (alice 0, bob 1). `prefix` as the
 * seat SQL's (ratingsData.ts), so game ids match.
 */
export function seatTurnsSQL(turns: string, columns: ReadonlySet<string>, {form = "common", prefix = ""}: {form?: "common" | "glee"; prefix?: string} = {}): string {
  const has = (c: string) => columns.has(c);
  const output = has("output_tokens") ? "output_tokens" : "NULL::DOUBLE";
  const reasoning = has("reasoning_tokens") ? "coalesce(reasoning_tokens, 0)" : "0";
  const seat = form === "glee" ? "CASE player WHEN 'alice' THEN 0 WHEN 'bob' THEN 1 END" : "CAST(seat AS INTEGER)";
  const id = prefix ? `${sqlString(prefix + "/")} || game_id` : "game_id";
  return `SELECT ${id} AS game_id, ${seat} AS seat,
  avg(${output} - ${reasoning})::DOUBLE AS tokens_per_turn,
  avg(CASE WHEN ${output} IS NULL THEN NULL ELSE ${reasoning} END)::DOUBLE AS reasoning_tokens_per_turn,
  ${has("attempt") ? "count(*) FILTER (WHERE attempt IS NOT NULL)::INTEGER" : "NULL::INTEGER"} AS attempts,
  ${has("rule_break") ? "count(*) FILTER (WHERE CAST(rule_break AS BOOLEAN))::INTEGER" : "NULL::INTEGER"} AS rule_breaks
FROM ${turns} GROUP BY ALL ORDER BY game_id, seat`;
}

const record = (v: unknown): Record<string, unknown> | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const text = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
const flag = (v: unknown): boolean | null => (typeof v === "boolean" ? v : null);
const count = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * Each LLM player's settings from a run's manifest (manifest.json as
 * `parley run` writes it): the player objects of its config (`players`,
 * as given) and the harness recorded per player (`llm_players[].harness`,
 * every factor spelled out). Agents it does not name (built-in strategies)
 * are absent. Anything not a manifest gives an empty map.
 */
export function agentSettings(manifest: unknown): Map<string, AgentSettings> {
  const out = new Map<string, AgentSettings>();
  const m = record(manifest);
  const config = record(m?.config);
  const specs = [...(Array.isArray(config?.players) ? config.players : []), ...(Array.isArray(config?.llm_players) ? config.llm_players : [])].map(record).filter((p) => p && typeof p.id === "string");
  const recorded = new Map((Array.isArray(m?.llm_players) ? m.llm_players : []).map(record).filter((p) => p && typeof p.id === "string").map((p) => [p!.id as string, p!]));
  for (const spec of specs as Record<string, unknown>[]) {
    const id = spec.id as string;
    const seen = recorded.get(id);
    const harness = record(seen?.harness);
    const provider = text(spec.provider) ?? text(seen?.provider);
    const model = text(spec.model) ?? text(seen?.model_requested);
    out.set(id, {
      model: model ? (provider ? `${provider}/${model}` : model) : null,
      chain_of_thought: flag(spec.chain_of_thought) ?? false,
      reasoning_effort: text(spec.reasoning_effort),
      persona: text(spec.persona),
      personality: text(spec.personality),
      legal_moves: flag(harness?.legal_moves) ?? flag(spec.legal_moves),
      structured_output: flag(harness?.structured_output) ?? flag(spec.structured_output),
      retries: count(harness?.retries) ?? count(spec.retries),
      votes: count(harness?.votes) ?? count(spec.votes),
      prompt_layout: text(harness?.prompt_layout) ?? text(spec.prompt_layout) ?? "authors",
    });
  }
  return out;
}

/** A seat's raw covariate values: numbers, a level's name, or null. */
export type SeatValues = Record<Control, number | string | null>;

/** The values read from a seat's turns. */
export type TurnValues = Pick<SeatValues, "tokens_per_turn" | "reasoning_tokens_per_turn" | "rule_break_rate">;

/** The values a seat's turns give (all null without turns). */
export function turnValues(turns: SeatTurns | undefined): TurnValues {
  const attempts = turns?.attempts ?? null;
  return {
    tokens_per_turn: turns?.tokens_per_turn ?? null,
    reasoning_tokens_per_turn: turns?.reasoning_tokens_per_turn ?? null,
    rule_break_rate: attempts ? (turns!.rule_breaks ?? 0) / attempts : null,
  };
}

/** The raw values of one seat from its turns and its agent's settings (either may be missing). */
export function seatValues(turns: SeatTurns | undefined, settings: AgentSettings | undefined): SeatValues {
  const bit = (b: boolean | null | undefined) => (b === null || b === undefined ? null : b ? 1 : 0);
  return {
    ...turnValues(turns),
    chain_of_thought: bit(settings?.chain_of_thought),
    reasoning_effort: settings?.reasoning_effort ?? (settings ? "none set" : null),
    persona: settings?.persona ?? (settings ? "none set" : null),
    personality: settings?.personality ?? (settings ? "none set" : null),
    legal_moves: bit(settings?.legal_moves),
    structured_output: bit(settings?.structured_output),
    retries: settings?.retries ?? null,
    votes: settings?.votes ?? null,
    prompt_layout: settings?.prompt_layout ?? null,
  };
}

/** One column of the controlled fit's design. */
export interface CovariateColumn {
  /** `tokens_per_turn`, or `persona=cunning` for a level. */
  name: string;
  control: Control;
  kind: "numeric" | "binary" | "level";
  /** Over the seats with a value: a numeric covariate's mean and standard deviation (its unit), a binary or level column's share of 1s. */
  mean: number;
  sd: number | null;
  /** Seats with a value. */
  seats: number;
}

/**
 * The design columns of `values` (one per seat) for the covariates
 * `controls`, and each seat's encoded vector (see the module comment); the
 * covariates left out, with why.
 */
export function encodeCovariates(values: readonly SeatValues[], controls: readonly Control[] = CONTROLS): {columns: CovariateColumn[]; x: number[][]; left_out: {name: string; reason: string}[]} {
  const columns: CovariateColumn[] = [];
  const encoders: ((v: SeatValues) => number)[] = [];
  const leftOut: {name: string; reason: string}[] = [];
  for (const control of controls) {
    const present = values.map((v) => v[control]).filter((v) => v !== null);
    if (!present.length) {
      leftOut.push({name: control, reason: "not recorded for any seat"});
      continue;
    }
    if (new Set(present).size < 2) {
      leftOut.push({name: control, reason: `the same on every seat that has it: ${present[0]}`});
      continue;
    }
    if (KIND[control] === "level") {
      // "none set" (or the authors' prompt layout) is the baseline when it occurs, else the first level in order.
      const levels = [...new Set(present as string[])].sort();
      const baseline = levels.find((l) => l === "none set" || l === "authors") ?? levels[0];
      for (const level of levels.filter((l) => l !== baseline)) {
        const ones = present.filter((v) => v === level).length;
        columns.push({name: `${control}=${level}`, control, kind: "level", mean: ones / present.length, sd: null, seats: present.length});
        encoders.push((v) => (v[control] === level ? 1 : 0));
      }
      continue;
    }
    const nums = present as number[];
    const mean = nums.reduce((t, v) => t + v, 0) / nums.length;
    if (KIND[control] === "binary") {
      columns.push({name: control, control, kind: "binary", mean, sd: null, seats: nums.length});
      encoders.push((v) => (v[control] === null ? 0 : (v[control] as number)));
      continue;
    }
    const sd = Math.sqrt(nums.reduce((t, v) => t + (v - mean) ** 2, 0) / nums.length);
    columns.push({name: control, control, kind: "numeric", mean, sd, seats: nums.length});
    encoders.push((v) => (v[control] === null ? 0 : ((v[control] as number) - mean) / sd));
  }
  return {columns, x: values.map((v) => encoders.map((e) => e(v))), left_out: leftOut};
}

/** Seat rows of one source (a run or ingest directory, a dataset) with what the covariates are read from. */
export interface CovariateSource {
  rows: readonly SeatRow[];
  /** Per seat (seatTurnsSQL), game ids as the rows have them. */
  turns: readonly SeatTurns[];
  /** Per agent, from the source's manifest (agentSettings). */
  settings: ReadonlyMap<string, AgentSettings>;
}

const seatKey = (gameId: string, seat: number) => `${gameId}\u0000${Number(seat)}`;

/**
 * The seat rows of every source with their encoded covariates `x` and
 * entrants (`by` "model": an LLM player's provider/model, see
 * controlledRatings.ts), the design's columns, and the covariates left out
 * (encodeCovariates): what ratedGames and controlledRatings read.
 */
export function withCovariates(sources: readonly CovariateSource[], controls: readonly Control[] = CONTROLS, by: "agent" | "model" = "agent"): {rows: SeatRow[]; columns: CovariateColumn[]; left_out: {name: string; reason: string}[]} {
  const rows = sources.flatMap(({rows, settings}) => rows.map((r) => ({...r, entrant: entrantOf(r.agent, settings, by)})));
  const values = sources.flatMap(({rows, turns, settings}) => sourceValues(rows, turns, settings));
  const {columns, x, left_out} = encodeCovariates(values, controls);
  rows.forEach((r, n) => (r.x = x[n]));
  return {rows, columns, left_out};
}

const entrantOf = (agent: string, settings: ReadonlyMap<string, AgentSettings>, by: "agent" | "model") => (by === "model" && settings.get(agent)?.model) || agent;

const TURN_CONTROLS = ["tokens_per_turn", "reasoning_tokens_per_turn", "rule_break_rate"] as const;

/**
 * The raw values of a source's seats (`rows`, in order): seatValues, then a
 * turn value a seat lacks and its agent's other seats have is their mean
 * (see the module comment).
 */
export function sourceValues(rows: readonly SeatRow[], turns: readonly SeatTurns[], settings: ReadonlyMap<string, AgentSettings>): SeatValues[] {
  const byId = new Map(turns.map((t) => [seatKey(t.game_id, t.seat), t]));
  const values = rows.map((r) => seatValues(byId.get(seatKey(r.game_id, r.seat)), settings.get(r.agent)));
  const sums = new Map<string, {sum: number; n: number; first: number; same: boolean}>();
  values.forEach((v, n) => {
    for (const c of TURN_CONTROLS) {
      if (v[c] === null) continue;
      const key = `${rows[n].agent}\u0000${c}`;
      const s = sums.get(key) ?? {sum: 0, n: 0, first: v[c] as number, same: true};
      s.sum += v[c] as number;
      s.n++;
      s.same &&= v[c] === s.first;
      sums.set(key, s);
    }
  });
  return values.map((v, n) => {
    const filled = {...v};
    for (const c of TURN_CONTROLS) {
      const s = sums.get(`${rows[n].agent}\u0000${c}`);
      // One value throughout is that value exactly (a sum divided back could differ in the last bit).
      if (filled[c] === null && s) filled[c] = s.same ? s.first : s.sum / s.n;
    }
    return filled;
  });
}

/**
 * A source's turn values in the smallest form that keeps them exactly (what
 * /ratings ships for a dataset): when every seat of each agent has the same
 * values once gaps are filled (sourceValues: scripted strategies that never
 * break a rule, logs without token counts), one entry per agent with its
 * seat count; otherwise null (the seat rows and their turns are needed).
 */
export function valuesPerAgent(rows: readonly SeatRow[], turns: readonly SeatTurns[]): {agent: string; seats: number; values: TurnValues}[] | null {
  const all = sourceValues(rows, turns, new Map());
  const agents = new Map<string, {agent: string; seats: number; values: TurnValues; key: string}>();
  for (const [n, r] of rows.entries()) {
    const values = Object.fromEntries(TURN_CONTROLS.map((c) => [c, all[n][c]])) as TurnValues;
    const key = JSON.stringify(values);
    const seen = agents.get(r.agent);
    if (!seen) agents.set(r.agent, {agent: r.agent, seats: 1, values, key});
    else if (seen.key !== key) return null;
    else seen.seats++;
  }
  return [...agents.values()].map(({agent, seats, values}) => ({agent, seats, values}));
}

/** One pooled source of /ratings: its rated games, and its turn values per agent (valuesPerAgent) or per seat (rows and turns). */
export interface PooledCovariateSource {
  games: readonly RatedGame[];
  perAgent: {agent: string; seats: number; values: TurnValues}[] | null;
  rows: readonly SeatRow[] | null;
  turns: readonly SeatTurns[] | null;
  settings: ReadonlyMap<string, AgentSettings>;
}

/**
 * The games of the controlled ranking over pooled sources: a source with
 * values per seat is rated from its seat rows (ratedGames), one with values
 * per agent keeps its games and gives every seat its agent's vector; both
 * encoded together (each seat counted once, as withCovariates counts them).
 */
export function pooledControlGames(sources: readonly PooledCovariateSource[], controls: readonly Control[] = CONTROLS, by: "agent" | "model" = "agent"): {games: RatedGame[]; columns: CovariateColumn[]; left_out: {name: string; reason: string}[]} {
  const values: SeatValues[] = [];
  const plans = sources.map((s) => {
    if (s.perAgent) {
      const at = new Map<string, number>();
      for (const a of s.perAgent) {
        at.set(a.agent, values.length);
        const v = {...seatValues(undefined, s.settings.get(a.agent)), ...a.values};
        for (let n = 0; n < a.seats; n++) values.push(v);
      }
      return {kind: "agents" as const, at};
    }
    const start = values.length;
    values.push(...sourceValues(s.rows ?? [], s.turns ?? [], s.settings));
    return {kind: "rows" as const, start};
  });
  const {columns, x, left_out} = encodeCovariates(values, controls);
  const games = sources.flatMap((s, i) => {
    const plan = plans[i];
    if (plan.kind === "rows") return ratedGames((s.rows ?? []).map((r, n) => ({...r, x: x[plan.start + n], entrant: entrantOf(r.agent, s.settings, by)})));
    return s.games.map((g) => ({...g, seats: g.seats.map((seat) => ({...seat, x: x[plan.at.get(seat.agent)!] ?? columns.map(() => 0), entrant: entrantOf(seat.agent, s.settings, by)}))}));
  });
  return {games, columns, left_out};
}

/** The controls a comma-separated list names ("all" and "none" too), or the first name that is not one. */
export function parseControls(text: string): Control[] | {unknown: string} {
  if (text === "all") return [...CONTROLS];
  if (text === "none") return [];
  const names = text.split(",").map((t) => t.trim()).filter(Boolean);
  const unknown = names.find((n) => !(CONTROLS as readonly string[]).includes(n));
  return unknown !== undefined ? {unknown} : (names as Control[]);
}
