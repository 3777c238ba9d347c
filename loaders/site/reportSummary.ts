/**
 * What a report's front page says about the study, computed once when the
 * report is built (native DuckDB over the runs' own tables): what was played
 * (each game with its parameter grid as played), which agents and models,
 * how many games, rule breaks, tokens and cost when known, and headline
 * results from the same SQL as the analysis pages and the CLI (GLEE's
 * metrics per agent, `src/lib/gleeMetrics.ts`; gamma-Bench's overall score,
 * src/analyses/gamabench.ts's measure `scores`).
 */
import {join} from "node:path";
import {withRunViews} from "../io/parquet.js";
import {runTableFiles} from "../io/runTables.js";
import {gameDef} from "../registry/games.js";
import {agents as agentDefs} from "../registry/agents.js";
import {gleeMetricsSQL} from "../../src/lib/gleeMetrics.js";
import {answerOverRuns} from "../analyses/overRuns.js";
import {gamabenchAnalysis} from "../../src/analyses/gamabench.js";
import type {ScoreSummary} from "../../src/lib/gamabench.js";
import {queryParquet} from "../io/parquet.js";
import type {Db} from "../io/duckdb.js";
import type {StudyRun} from "./reportRuns.js";
import type {RunManifestInfo} from "../ownRuns/describe.js";
import type {StudySummary, StudyGame, StudyAgent, StudyRunSummary} from "../../src/lib/studySummary.js";
import {summarizeParticipants, type ParticipantRow} from "../../src/lib/studyParticipants.js";
import {existsSync} from "node:fs";
import {sqlString} from "../io/duckdb.js";

const num = (v: unknown): number => Number(v ?? 0);

const builtIn = new Set(agentDefs.map((a) => a.id));

async function columnsOf(db: Db, table: string): Promise<Set<string>> {
  return new Set((await db.query<{column_name: string}>(`SELECT column_name FROM (DESCRIBE SELECT * FROM ${table})`)).map((r) => r.column_name));
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** One run's games, agents, rule breaks and tokens, by game. */
async function runFacts(run: StudyRun): Promise<{games: StudyGame[]; agents: StudyAgent[]; turns: number; ruleBreaks: number; inputTokens: number | null; outputTokens: number | null}> {
  const tables = ["games", "players", "turns"].filter((t) => runTableFiles(run.dir, t).files.length > 0);
  return withRunViews(run.dir, tables, undefined, async (db) => {
    const gameCols = await columnsOf(db, "games");
    // Flat ingests of GLEE's human games name only the family (as runs/describe.ts reads them).
    const gameExpr = gameCols.has("game") ? (gameCols.has("family") ? `coalesce(game, 'glee/' || family)` : "game") : gameCols.has("family") ? `'glee/' || family` : "'unknown'";
    const counts = await db.query<{game: string; n: number}>(`SELECT ${gameExpr} AS game, count(*) AS n FROM games GROUP BY ALL ORDER BY game`);
    const games: StudyGame[] = [];
    for (const {game, n} of counts) {
      let def;
      try {
        def = gameDef(game);
      } catch {
        def = null;
      }
      const params = [];
      for (const p of def?.params ?? []) {
        if (!gameCols.has(p.name)) continue;
        const values = (await db.query<{v: unknown}>(`SELECT DISTINCT ${quote(p.name)} AS v FROM games WHERE ${gameExpr} = ? ORDER BY v NULLS FIRST`, [game])).map((r) => (r.v === null ? null : r.v as string | number | boolean));
        params.push({name: p.name, label: p.label ?? p.name, values});
      }
      games.push({game, title: def?.title ?? game, citation: def ? `${def.citation.short}${def.citation.section ? ` ${def.citation.section}` : ""}` : null, games: num(n), ruleBreaks: 0, params});
    }
    let turns = 0, ruleBreaks = 0, inputTokens: number | null = null, outputTokens: number | null = null;
    if (tables.includes("turns")) {
      const cols = await columnsOf(db, "turns");
      const turnGame = cols.has("game") ? "game" : "'unknown'";
      const tokens = cols.has("input_tokens") && cols.has("output_tokens");
      const rows = await db.query<{game: string; turns: number; breaks: number; input: number | null; output: number | null}>(
        `SELECT ${turnGame} AS game, count(*) AS turns, ${cols.has("rule_break") ? "count(*) FILTER (WHERE rule_break)" : "0"} AS breaks,
                ${tokens ? "sum(input_tokens)" : "NULL"} AS input, ${tokens ? "sum(output_tokens)" : "NULL"} AS output
         FROM turns GROUP BY ALL`,
      );
      for (const r of rows) {
        turns += num(r.turns);
        ruleBreaks += num(r.breaks);
        if (r.input !== null) inputTokens = (inputTokens ?? 0) + num(r.input);
        if (r.output !== null) outputTokens = (outputTokens ?? 0) + num(r.output);
        const g = games.find((x) => x.game === r.game);
        if (g) g.ruleBreaks = num(r.breaks);
      }
    }
    let agents: StudyAgent[] = [];
    if (tables.includes("players") && (await columnsOf(db, "players")).has("agent")) {
      agents = (await db.query<{agent: string; games: number}>(`SELECT agent, count(DISTINCT game_id) AS games FROM players GROUP BY agent ORDER BY agent`)).map((r) => ({agent: r.agent, kind: "data" as const, model: null, provider: null, games: num(r.games)}));
    } else if (gameCols.has("alice_agent")) {
      agents = (await db.query<{agent: string; games: number}>(`SELECT agent, count(DISTINCT game_id) AS games FROM (SELECT game_id, alice_agent AS agent FROM games UNION ALL SELECT game_id, bob_agent FROM games) GROUP BY agent ORDER BY agent`)).map((r) => ({agent: r.agent, kind: "data" as const, model: null, provider: null, games: num(r.games)}));
    }
    return {games, agents, turns, ruleBreaks, inputTokens, outputTokens};
  });
}

/** The LLM players its manifests name, by id. */
function llmPlayers(run: StudyRun): Map<string, RunManifestInfo["llm_players"][number]> {
  return new Map(run.manifests.flatMap((m) => m.llm_players).reverse().map((p) => [p.id, p]));
}

function add(a: number | null, b: number | null): number | null {
  return a === null && b === null ? null : (a ?? 0) + (b ?? 0);
}

/**
 * The study summary. `datasets` maps each report dataset id to the directory
 * its flat tables were written to (studyData.ts), which the headlines read.
 */
/**
 * The participants of the runs that are human studies (`parley play` writes
 * `<out>/participants.parquet`), one list over the runs, each game id as the
 * report's tables name it: prefixed with its run's name when `prefixed`
 * (reportData.ts prefixes ids when rows come from more than one source).
 */
export async function studyParticipants(runs: StudyRun[], prefixed: boolean): Promise<ParticipantRow[]> {
  const rows: ParticipantRow[] = [];
  for (const run of runs) {
    const file = join(run.dir, "participants.parquet");
    if (!existsSync(file)) continue;
    const read = (await queryParquet({participants: file},
      `SELECT participant_id, condition, game_id, step, game_finished, excluded, exclusion_reason, assigned_at, consented_at, completed_at FROM participants ORDER BY assigned_at, participant_id`)) as unknown as ParticipantRow[];
    rows.push(...read.map((r) => ({...r, game_id: r.game_id === null ? null : prefixed ? `${run.name}/${r.game_id}` : r.game_id})));
  }
  return rows;
}

export async function studySummary(title: string, runs: StudyRun[], datasets: Record<string, string>, pages: {path: string; name: string}[], {prefixed = false}: {prefixed?: boolean} = {}): Promise<StudySummary> {
  const runSummaries: StudyRunSummary[] = [];
  const games = new Map<string, StudyGame>();
  const agents = new Map<string, StudyAgent>();
  const totals = {runs: runs.length, games: 0, turns: 0, ruleBreaks: 0, inputTokens: null as number | null, outputTokens: null as number | null, costUsd: null as number | null};
  for (const run of runs) {
    const facts = await runFacts(run);
    const players = llmPlayers(run);
    const manifest = run.manifests[0];
    const config = (manifest?.config ?? {}) as {description?: unknown; run_id?: unknown};
    const n = facts.games.reduce((s, g) => s + g.games, 0);
    runSummaries.push({
      name: run.name, description: typeof config.description === "string" ? config.description : null, runId: typeof config.run_id === "string" ? config.run_id : null,
      started: manifest?.started ?? null, finished: manifest?.finished ?? null, games: n, costUsd: run.spendUsd,
      llmPlayers: [...players.values()],
    });
    totals.games += n;
    totals.turns += facts.turns;
    totals.ruleBreaks += facts.ruleBreaks;
    totals.inputTokens = add(totals.inputTokens, facts.inputTokens);
    totals.outputTokens = add(totals.outputTokens, facts.outputTokens);
    totals.costUsd = add(totals.costUsd, run.spendUsd);
    for (const g of facts.games) {
      const seen = games.get(g.game);
      if (!seen) games.set(g.game, {...g, params: g.params.map((p) => ({...p, values: [...p.values]}))});
      else {
        seen.games += g.games;
        seen.ruleBreaks += g.ruleBreaks;
        for (const p of g.params) {
          const q = seen.params.find((x) => x.name === p.name);
          if (q) for (const v of p.values) if (!q.values.includes(v)) q.values.push(v);
        }
      }
    }
    for (const a of facts.agents) {
      const p = players.get(a.agent);
      const seen = agents.get(a.agent);
      if (seen) seen.games += a.games;
      else agents.set(a.agent, {...a, kind: p ? "llm" : builtIn.has(a.agent) ? "built-in" : "data", model: p?.model ?? null, provider: p?.provider ?? null});
    }
  }
  const people = await studyParticipants(runs, prefixed);
  const participants = people.length ? summarizeParticipants(people) : null;
  const excluded = participants?.excludedGames.map((g) => g.game_id) ?? [];
  return {
    title, generated: new Date().toISOString(), runs: runSummaries, games: [...games.values()], agents: [...agents.values()], totals, pages, participants,
    headlines: {
      // Excluded participants' games are left out of the headline results; beside them, the results with those games in, for the page's toggle.
      glee: datasets.glee ? await gleeHeadline(datasets.glee, excluded) : null,
      gleeWithExcluded: datasets.glee && excluded.length ? await gleeHeadline(datasets.glee, []) : null,
      gamabench: datasets.gamabench ? await gamabenchHeadline(datasets.gamabench) : null,
    },
  };
}

/** Mean efficiency, fairness and each seat's self-gain per family and ordered pair of agents (the metric SQL of the pages and `parley metrics`). */
async function gleeHeadline(dir: string, leaveOut: readonly string[]): Promise<StudySummary["headlines"]["glee"]> {
  const where = leaveOut.length ? `game_id NOT IN (${leaveOut.map(sqlString).join(", ")})` : undefined;
  const rows = await queryParquet<{family: string; alice_agent: string; bob_agent: string; n: number; efficiency: number | null; fairness: number | null; alice_self_gain: number | null; bob_self_gain: number | null}>(
    {games: join(dir, "games.parquet")},
    `SELECT family, alice_agent, bob_agent, count(*) AS n, avg(efficiency) AS efficiency, avg(fairness) AS fairness, avg(alice_self_gain) AS alice_self_gain, avg(bob_self_gain) AS bob_self_gain
     FROM (${gleeMetricsSQL("games", {where})}) GROUP BY ALL ORDER BY family, alice_agent, bob_agent`,
  );
  return rows.map((r) => ({...r, n: num(r.n)}));
}

/** Each lineup's gamma-Bench overall score (0–100, mean ± SD over runs), as `parley stats gamabench` computes it. */
async function gamabenchHeadline(dir: string): Promise<StudySummary["headlines"]["gamabench"]> {
  const scores = (await answerOverRuns(gamabenchAnalysis, "scores", dir)) as ScoreSummary;
  return Object.entries(scores)
    .filter(([, g]) => g.overall)
    .map(([model, g]) => ({model, overall: g.overall!.mean, sd: g.overall!.sd, runs: g.overall!.runs}))
    .sort((a, b) => b.overall - a.overall);
}
