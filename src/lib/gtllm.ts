/**
 * The analyses of Game-theoretic LLM workflows (Hua et al. 2024) §4–5 over
 * Parley's tables of the matrix and tree games (loaders/games/gtllm/): one
 * SQL each, run by DuckDB-WASM on the pages and by native DuckDB in
 * `parley gtllm-stats` and the tests.
 *
 * Rates follow §4.2 ("we measure the ability of the agents to reach Nash
 * Equilibrium. For games where there are multiple Nash Equilibria such as in
 * the game Stag Hunt, we measure the ability of agents to reach the pareto
 * optimal Nash Equilibrium"): `ne_rate`, the share of games whose outcome is a
 * pure Nash equilibrium, for trees the subgame-perfect path (the backward
 * induction of §4.4.2 and the "NE" paths the authors' configuration notes),
 * and `po_ne_rate`, the share that is a Pareto-optimal one. `any_ne_rate`
 * reads "Nash equilibrium" wider: in trees, the outcome of any pure Nash
 * equilibrium of the strategic form (Monopoly's "stay out", Draco's (A2, B1),
 * TriGame's (A1, B2, A2) count too); in matrix games it equals `ne_rate`.
 * A game ended by rule breaks counts as reaching none.
 */

export interface GtllmStatsRow {
  game: string;
  alice_agent: string;
  bob_agent: string;
  negotiation_rounds: number;
  workflow_alice: boolean | null;
  workflow_bob: boolean | null;
  n: number;
  ne_rate: number;
  po_ne_rate: number;
  any_ne_rate: number;
}

/** Rows of `parley gtllm-stats`: per game, ordered pair, talk rounds and workflow use. */
export function gtllmStatsSQL(games = "games"): string {
  return `SELECT game, alice_agent, bob_agent, negotiation_rounds::INTEGER AS negotiation_rounds,
  alice_workflow AS workflow_alice, bob_workflow AS workflow_bob, count(*)::INTEGER AS n,
  avg(is_ne::INTEGER)::DOUBLE AS ne_rate, avg(is_po_ne::INTEGER)::DOUBLE AS po_ne_rate, avg(is_any_ne::INTEGER)::DOUBLE AS any_ne_rate
FROM ${games}
WHERE is_ne IS NOT NULL
GROUP BY ALL
ORDER BY game, alice_agent, bob_agent, negotiation_rounds, workflow_alice, workflow_bob`;
}

/**
 * Tables 5–8 as Parley runs fill them: one row per player playing both
 * seats (a model in self-play: its `model`, else the agent id), talk rounds,
 * and workflow use, with the NE and PO-NE rates per game.
 */
export function gtllmGridSQL(games = "games"): string {
  return `SELECT coalesce(alice_model, alice_agent) AS player, negotiation_rounds::INTEGER AS negotiation_rounds,
  coalesce(alice_workflow, false) AS workflow, game, count(*)::INTEGER AS n,
  avg(is_ne::INTEGER)::DOUBLE AS ne_rate, avg(is_po_ne::INTEGER)::DOUBLE AS po_ne_rate, avg(is_any_ne::INTEGER)::DOUBLE AS any_ne_rate
FROM ${games}
WHERE is_ne IS NOT NULL AND alice_agent = bob_agent
GROUP BY ALL
ORDER BY player, negotiation_rounds, workflow, game`;
}

/**
 * §4.3's Duopoly count: how many of the individual choices (two per game)
 * were the Pareto action, quantity level 2 (choice_2), per self-play player
 * and talk rounds.
 */
export function duopolyParetoSQL(games = "games", game = "gtllm/duopoly"): string {
  return `SELECT coalesce(alice_model, alice_agent) AS player, negotiation_rounds::INTEGER AS negotiation_rounds,
  coalesce(alice_workflow, false) AS workflow, count(*)::INTEGER * 2 AS choices,
  (count(*) FILTER (WHERE alice_choice = 'choice_2') + count(*) FILTER (WHERE bob_choice = 'choice_2'))::INTEGER AS pareto_choices
FROM ${games}
WHERE game = '${game}' AND alice_agent = bob_agent AND is_ne IS NOT NULL
GROUP BY ALL
ORDER BY player, negotiation_rounds, workflow`;
}

/**
 * The adoption meta-game (§5.5.3–5.6, Table 19) from runs: for each model
 * and game, the mean payoffs (u_Alice, u_Bob) of the four pairings of a
 * workflow and a plain player of that model. A model is an LLM's `model`;
 * the built-in game-theory agents share the model "scripted game theory"
 * (workflow-ne / workflow-bi with the workflow, equilibrium /
 * backward-induction without).
 */
export function metaGameSQL(games = "games"): string {
  return `SELECT alice_model AS model, game, alice_workflow AS alice_uses, bob_workflow AS bob_uses, count(*)::INTEGER AS n,
  avg(coalesce(alice_payoff, 0))::DOUBLE AS alice, avg(coalesce(bob_payoff, 0))::DOUBLE AS bob
FROM ${games}
WHERE is_ne IS NOT NULL AND alice_model IS NOT NULL AND alice_model = bob_model
GROUP BY ALL
ORDER BY model, game, alice_uses DESC, bob_uses DESC`;
}

/** The ten games of §4.1 in the paper's order (Tables 5–8), with the names the tables print. */
export const GTLLM_GAMES = [
  ["gtllm/prisoners_dilemma", "Prisoner's Dilemma"],
  ["gtllm/stag_hunt", "Stag Hunt"],
  ["gtllm/battle_of_sexes", "Battle of Sexes"],
  ["gtllm/wait_go", "Wait-Go Game"],
  ["gtllm/duopoly", "Duopolistic competition"],
  ["gtllm/escalation", "Escalation Game"],
  ["gtllm/monopoly", "Monopoly Game"],
  ["gtllm/hot_cold", "Hot-cold Game"],
  ["gtllm/draco", "Draco Game"],
  ["gtllm/trigame", "Trigame"],
] as const;

export const PAPER_MODELS = ["Claude-3.5 Sonnet", "GPT-4o", "Claude-3 Opus", "o1"] as const;

/**
 * Tables 5–8 as printed: per game, the NE rate of each model (Sonnet,
 * GPT-4o, Opus, o1), and the PO-NE rate where it differs (only Table 5's
 * Stag Hunt and Duopoly rows). `average` is the printed average row;
 * `PAPER_AVERAGE_NOTES` says where it is not the mean of the rows.
 */
export const PAPER_TABLES: Record<"5" | "6" | "7" | "8", {title: string; negotiation_rounds: number; workflow: boolean; ne: number[][]; po_ne?: Record<number, number[]>; average: number[]; average_po?: number[]}> = {
  "5": {
    title: "Table 5: no workflow, no negotiation", negotiation_rounds: 0, workflow: false,
    ne: [[1, 0.9, 0.9, 1], [0.6, 0.8, 0.9, 0.4], [0.3, 0.2, 0.6, 0.5], [0.4, 0.5, 0.7, 0.3], [0.3, 0.2, 0.1, 0.7], [0, 0.2, 0.2, 1], [1, 0.4, 1, 1], [0.9, 0.1, 0.7, 1], [0.3, 0, 0.7, 0.9], [0, 0, 0.1, 1]],
    po_ne: {1: [0.3, 0.4, 0, 0.1], 4: [0.2, 0.2, 0.1, 0.7]},
    average: [0.45, 0.32, 0.59, 0.78], average_po: [0.44, 0.28, 0.5, 0.75],
  },
  "6": {
    title: "Table 6: no workflow, 4 rounds of negotiation", negotiation_rounds: 4, workflow: false,
    ne: [[0, 0.1, 0, 0.9], [1, 0.9, 1, 0.9], [0.7, 0.9, 0.7, 0.8], [1, 0.8, 0.4, 0.8], [0.1, 0.1, 0, 0.5], [0.6, 0.4, 0.6, 1], [1, 0.9, 1, 1], [0.7, 0.2, 0.7, 0.4], [1, 0.8, 1, 1], [0.2, 0.5, 0.6, 1]],
    average: [0.63, 0.56, 0.6, 0.83],
  },
  "7": {
    title: "Table 7: workflow, no negotiation", negotiation_rounds: 0, workflow: true,
    ne: [[1, 1, 1, 1], [1, 1, 1, 1], [0.3, 0.3, 0.4, 0.5], [0.2, 0.6, 0.1, 0.3], [1, 0.5, 0.6, 0.3], [0.5, 0.2, 0.3, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [0.6, 0.9, 0.7, 1]],
    average: [0.76, 0.69, 0.71, 0.81],
  },
  "8": {
    title: "Table 8: workflow, 4 rounds of negotiation", negotiation_rounds: 4, workflow: true,
    ne: [[1, 0.9, 0.9, 1], [1, 1, 1, 1], [0.7, 0.8, 1, 0.8], [0.9, 0.7, 0.6, 0.7], [0.6, 0.7, 0.6, 0.3], [0.3, 0.2, 0.4, 1], [1, 1, 1, 1], [0.7, 0.8, 1, 1], [0.8, 1, 0.9, 1], [0.3, 0.8, 0.9, 1]],
    average: [0.73, 0.78, 0.83, 0.88],
  },
};

/** Mean of a printed table's rows per model (to set beside its printed average). */
export function columnMeans(rows: readonly number[][]): number[] {
  return rows[0].map((_, k) => rows.reduce((s, r) => s + r[k], 0) / rows.length);
}

/** §4.3's printed Duopoly counts: Pareto-action choices out of 20, without → with negotiation. */
export const PAPER_DUOPOLY_PARETO: Record<(typeof PAPER_MODELS)[number], [number, number]> = {
  "Claude-3.5 Sonnet": [5, 11], "GPT-4o": [0, 8], "Claude-3 Opus": [4, 16], o1: [4, 5],
};
