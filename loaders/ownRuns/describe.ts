/**
 * What a run directory holds, for `parley runs list`, the site's run
 * archives (src/data/runs/[run].tar.ts) and `parley report`:
 *
 * - `runState(dir)` (file listing only, no DuckDB): its manifests
 *   (manifest.json, or manifest.shard-<i>.json per shard: run/manifest.ts),
 *   the games it has partitions for, how many finished games are
 *   checkpointed, and whether a `parley run` is still writing it (a live
 *   holder of `.parley/lock` or a shard's `.parley/shard=<i>/lock`:
 *   io/outputLock.ts).
 * - `describeRun(dir)` (native DuckDB): the above plus games per game id and
 *   every agent that sat, read from the tables; for a run still going,
 *   from its checkpoints (`materializeCheckpoints`), so finished games show
 *   before the run writes its tables.
 */
import {mkdirSync, readdirSync, readFileSync} from "node:fs";
import {hostname} from "node:os";
import {join} from "node:path";
import {isProcessAlive} from "../io/staleFiles.js";
import {readRunFile} from "../io/runFile.js";
import {partitionGame, runTableFiles, tableSql} from "../io/runTables.js";

export interface RunManifestInfo {
  kind: string | null;
  /** The config as given (a run config, or an ingest's adapter and input). */
  config: unknown;
  started: string | null;
  finished: string | null;
  counts: Record<string, number>;
  /** LLM players: id, provider and model (requested, and as the API reported it). */
  llm_players: {id: string; provider: string; model: string; reported: string[]}[];
  shard: string | null;
}

export interface RunState {
  manifests: RunManifestInfo[];
  /** Game ids with a partition (game=<id>/), sorted. */
  partitions: string[];
  /** Finished games saved as checkpoints (runs with LLM players or --resume). */
  checkpoints: number;
  /** The holder of a live lock: the run is still being written. */
  running: {pid: number; host: string; started: string} | null;
}

export interface RunDescription extends RunState {
  /** Games per game id (from the tables, or from the checkpoints while running). */
  games: {game: string; games: number}[];
  total: number;
  agents: string[];
  /** Earliest start and latest end among its manifests. */
  started: string | null;
  finished: string | null;
  /** LLM models (as requested) across its manifests. */
  models: string[];
}

export const readJson = (path: string): Record<string, unknown> | null => {
  try {
    const value = JSON.parse(readFileSync(path, "utf8"));
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
};

/** A run's own JSON file (a manifest): null when absent, not JSON, or not a file inside `dir` (io/runFile.ts: a link out of the run is not followed). */
export const readRunJson = (dir: string, name: string): Record<string, unknown> | null => {
  const file = readRunFile(dir, name);
  if (!file || "problem" in file) return null;
  try {
    const value = JSON.parse(file.text);
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
};

const safeList = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

function manifestInfo(m: Record<string, unknown>): RunManifestInfo {
  const players = Array.isArray(m.llm_players) ? (m.llm_players as Record<string, unknown>[]) : [];
  return {
    kind: typeof m.kind === "string" ? m.kind : null,
    config: m.config ?? null,
    started: typeof m.started === "string" ? m.started : null,
    finished: typeof m.finished === "string" ? m.finished : null,
    counts: m.counts && typeof m.counts === "object" ? (m.counts as Record<string, number>) : {},
    llm_players: players.map((p) => ({id: String(p.id), provider: String(p.provider), model: String(p.model_requested), reported: Array.isArray(p.models_reported) ? p.models_reported.map(String) : []})),
    shard: typeof m.shard === "string" ? m.shard : null,
  };
}

/** The state directories of a run: .parley, and .parley/shard=<i> of each shard. */
function stateDirs(dir: string): string[] {
  const state = join(dir, ".parley");
  return [state, ...safeList(state).filter((n) => /^shard=\d+$/.test(n)).map((n) => join(state, n))];
}

/** The checkpoint files of a run (every shard's), as paths. */
export function checkpointFiles(dir: string): string[] {
  return stateDirs(dir).flatMap((state) => {
    const checkpoints = join(state, "checkpoints");
    return safeList(checkpoints).filter((n) => n.endsWith(".json") && !n.startsWith(".")).map((n) => join(checkpoints, n));
  });
}

function liveHolder(dir: string): RunState["running"] {
  for (const state of stateDirs(dir)) {
    const holder = readJson(join(state, "lock"));
    if (!holder || typeof holder.pid !== "number") continue;
    // A lock from another host cannot be checked from here: it counts as running.
    if (holder.host !== hostname() || isProcessAlive(holder.pid)) return {pid: holder.pid, host: String(holder.host), started: String(holder.started)};
  }
  return null;
}

export function runState(dir: string): RunState {
  const names = safeList(dir);
  const manifests = names
    .filter((n) => n === "manifest.json" || /^manifest\.shard-\d+\.json$/.test(n))
    .sort()
    .map((n) => readRunJson(dir, n))
    .filter((m): m is Record<string, unknown> => m !== null)
    .map(manifestInfo);
  const partitions = names.filter((n) => n.startsWith("game=")).map((n) => partitionGame(dir, n)).sort();
  return {manifests, partitions, checkpoints: checkpointFiles(dir).length, running: liveHolder(dir)};
}

/**
 * Writes the finished games of a run still going (its checkpoints) as run
 * tables into `outDir` (game=<id>/...); returns how many. Reads the run
 * directory only: the run itself keeps writing undisturbed.
 */
export async function materializeCheckpoints(dir: string, outDir: string): Promise<number> {
  const [{RunTables}, {gameDef}] = await Promise.all([import("../runner/write.js"), import("../registry/games.js")]);
  const records = checkpointFiles(dir)
    .map(readJson)
    .filter((r): r is {game: string; row: Record<string, unknown>; players: Record<string, unknown>[]; turns: Record<string, unknown>[]} => typeof r?.game === "string" && Boolean(r.row) && Array.isArray(r.players) && Array.isArray(r.turns))
    .sort((a, b) => String(a.row.game_id).localeCompare(String(b.row.game_id)));
  const defs = [...new Set(records.map((r) => r.game))].map(gameDef);
  mkdirSync(outDir, {recursive: true});
  const tables = new RunTables(outDir, defs);
  const seen = new Set<unknown>();
  for (const record of records) {
    if (seen.has(record.row.game_id)) continue; // two shards never share an id; a copy is ignored, not doubled
    seen.add(record.row.game_id);
    tables.add(record as never);
  }
  await tables.finish();
  return seen.size;
}

/** Whether the site and `runs list` should read this run's checkpoints rather than its tables. */
export const readsCheckpoints = (state: RunState): boolean => state.running !== null && state.checkpoints > 0;

/** Games per game id and agents of the tables in `tablesDir` (native DuckDB). */
export async function tableContents(tablesDir: string): Promise<{games: {game: string; games: number}[]; agents: string[]}> {
  const games = tableSql(runTableFiles(tablesDir, "games"));
  if (!games) return {games: [], agents: []};
  const {withDuckDB} = await import("../io/duckdb.js");
  return withDuckDB(async (db) => {
    const columns = new Set((await db.query<{column_name: string}>(`SELECT column_name FROM (DESCRIBE SELECT * FROM ${games})`)).map((r) => r.column_name));
    // Partitioned runs name the game in the path; flat ingests carry a game (or family) column, or only their source.
    // A family is GLEE's, but for Deal or No Deal's dialogues (family dond), which the /dond pages read.
    const family = `CASE "family" WHEN 'dond' THEN 'dond/dialogues' ELSE 'glee/' || "family" END`;
    const game = columns.has("game") ? (columns.has("family") ? `coalesce("game", ${family})` : `"game"`) : columns.has("family") ? family : `"source"`;
    const counts = await db.query<{game: string; games: bigint | number}>(`SELECT ${game} AS game, count(*) AS games FROM ${games} GROUP BY ALL ORDER BY 1`);
    const players = tableSql(runTableFiles(tablesDir, "players"));
    const seatColumns = [...columns].filter((c) => /^[a-z]+_agent$/.test(c));
    const agentSql = players ? `SELECT DISTINCT agent FROM ${players} WHERE agent IS NOT NULL` : seatColumns.length ? seatColumns.map((c) => `SELECT DISTINCT "${c}" AS agent FROM ${games} WHERE "${c}" IS NOT NULL`).join(" UNION ") : null;
    const agents = agentSql ? (await db.query<{agent: string}>(`SELECT agent FROM (${agentSql}) ORDER BY agent`)).map((r) => String(r.agent)) : [];
    return {games: counts.map((r) => ({game: String(r.game), games: Number(r.games)})), agents};
  });
}

/**
 * The directory holding the tables to read for a run: its own, or (for a
 * run still going) `scratch` filled from its checkpoints.
 */
export async function readableTables(dir: string, state: RunState, scratch: string): Promise<string> {
  if (!readsCheckpoints(state)) return dir;
  await materializeCheckpoints(dir, scratch);
  return scratch;
}

/** A run's state and table contents as one description. */
export function summarize(state: RunState, contents: {games: {game: string; games: number}[]; agents: string[]}): RunDescription {
  const times = (key: "started" | "finished") => state.manifests.map((m) => m[key]).filter((t): t is string => t !== null).sort();
  return {
    ...state,
    ...contents,
    total: contents.games.reduce((s, g) => s + g.games, 0),
    started: times("started")[0] ?? null,
    finished: state.running ? null : (times("finished").at(-1) ?? null),
    models: [...new Set(state.manifests.flatMap((m) => m.llm_players.map((p) => p.model)))].sort(),
  };
}

/** Everything `parley runs list` shows about a run directory (`scratch`: an empty directory it may use). */
export async function describeRun(dir: string, scratch: string): Promise<RunDescription> {
  const state = runState(dir);
  return summarize(state, await tableContents(await readableTables(dir, state, scratch)));
}
