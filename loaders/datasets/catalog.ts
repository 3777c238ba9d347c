/**
 * The dataset catalog: every dataset the site can show, where its raw files
 * live inside the datasets directory, and the adapter that reads them.
 * Adding a dataset is one adapter under loaders/ingest/ plus one entry here
 * (and a data loader under src/data/ that calls `emitDataset(id)`).
 * Adapters, generators and supplements are imported when they run, so that
 * listing the catalog (`parley datasets`) loads neither DuckDB nor the runner.
 */
import {existsSync} from "node:fs";
import {join} from "node:path";
import {datasetsConfig} from "../projectConfig.js";
import {DOND_GAMES, DOND_TURNS} from "../papers/gtllm/dond/ingest.js";
import {GAMABENCH_SCHEMAS} from "../papers/gamabench/ingest.js";
import {NA_SCHEMAS} from "../papers/negotiationarena/ingest.js";
import {GLEE_GAMES, GLEE_TURNS} from "../papers/glee/tables.js";
import {adapters} from "../ingest/adapters.js";
import {flatTables} from "../contract/tables.js";
import {econarenaGames} from "../papers/econarena/games.js";
import type {Row, TableSchema} from "../io/schema.js";
import {dataGameSchemas} from "../papers/gtllm/dataGames.js";
import {gameDef} from "../registry/games.js";

/** Every matrix and tree game has the same columns; the Prisoner's Dilemma's stand for all. */
const GTLLM_SCHEMAS = dataGameSchemas(gameDef("gtllm/prisoners_dilemma"));
import type {IngestResult} from "../ingest/types.js";

export interface DatasetEntry {
  id: string;
  title: string;
  /** Path inside the datasets directory (file or folder). */
  path: string;
  /**
   * Where its authors publish the raw files: a JSON file under data/sources/
   * listing each file's URL, size and sha256 (`parley datasets fetch`).
   */
  source?: string;
  /** Seed and section the data belongs to. */
  cite: string;
  /** The tables the adapter writes (an absent dataset still yields them, empty). */
  schemas: TableSchema[];
  ingest: (path: string) => IngestResult | Promise<IngestResult>;
  /**
   * For a simulated dataset: writes its tables (<table>.parquet) into
   * `outDir` and returns summary counts. Such an entry is always available;
   * `path` then names its run config inside the project, and `ingest` is unused.
   */
  generate?: (outDir: string) => Promise<Record<string, number>>;
  /**
   * Rows added to the ingested ones (by table name), whether or not the raw
   * files are there: a Parley run shown beside the logs it can be compared with.
   */
  supplement?: () => Promise<Record<string, Row[]>>;
  /** What the supplement is, for the dataset's status. */
  supplementNote?: string;
}

const ECONARENA_SCHEMAS = Object.values(flatTables(econarenaGames));

export const catalog: DatasetEntry[] = [
  {
    id: "dond", title: "Deal or No Deal (human–human, validation split)", path: "dealornodeal/val.txt", source: "data/sources/dond.json", cite: "Game-theoretic LLM workflows (Hua et al. 2024) §5.3", schemas: [DOND_GAMES, DOND_TURNS], ingest: adapters.dond.ingest,
    supplement: dondSupplement,
    supplementNote: "with the human outcomes of the paper's 50 hard points and Parley's negotiators on them (data/runs/dond.json) played at build time",
  },
  {
    id: "gamabench", title: "gamma-Bench raw results (12 models, 8 games, 5 runs)", path: "gamabench", source: "data/sources/gamabench.json", cite: "gamma-Bench (Huang et al. 2024) §3, App. E", schemas: GAMABENCH_SCHEMAS, ingest: adapters.gamabench.ingest,
    supplement: async () => (await import("../runner/runRows.js")).runRows("gamabench") as unknown as Promise<Record<string, Row[]>>,
    supplementNote: "with Parley's built-in strategies (data/runs/gamabench.json: the paper's vanilla games, ten seats of one strategy, five runs) played at build time",
  },
  {
    id: "negotiationarena", title: "NegotiationArena buy/sell games (GPT-4 vs GPT-4)", path: "negotiationarena", source: "data/sources/negotiationarena.json", cite: "NegotiationArena (Bianchi et al. 2024) §2.1, §3, §5", schemas: NA_SCHEMAS, ingest: adapters.negotiationarena.ingest,
    supplement: () => naRuns(["negotiationarena", "negotiationarena-acceptance"]),
    supplementNote: "with Parley's built-in agents playing the three scenarios (data/runs/negotiationarena.json: every ordered pair, 60 games each; data/runs/negotiationarena-acceptance.json: §5.2's injected offers) at build time",
  },
  {id: "glee", title: "GLEE simulated tournament: full grid × every ordered pair of built-in agents", path: "data/runs/default.json", cite: "GLEE (Shapira et al. 2024) §2, Table 1", schemas: [GLEE_GAMES, GLEE_TURNS], ingest: simulatedOnly("glee"), generate: async (outDir) => (await import("../runner/generate.js")).generateRun("default", outDir)},
  {
    id: "econarena", title: "Economics Arena: Parley's built-in strategies in the senior environment (beauty contest, second-price, first-price and English auctions)", path: "data/runs/econarena.json",
    cite: "Economics Arena (Guo et al. 2024) §4, Tables 1–2", schemas: ECONARENA_SCHEMAS, ingest: simulatedOnly("econarena"),
    // Pages read one row per seat and run (where the game settles its results) and every rule break; the English clock's other steps stay out.
    generate: async (outDir) => (await import("../runner/generate.js")).generateRun("econarena", outDir, process.env, {schemas: ECONARENA_SCHEMAS, where: {turns: "payoff IS NOT NULL OR rule_break"}}),
  },
  {
    id: "gtllm", title: "Matrix and tree games: every ordered pair of built-in strategies, with and without talk", path: "data/runs/gtllm.json", cite: "Game-theoretic LLM workflows (Hua et al. 2024) §4, Tables 5–8",
    schemas: GTLLM_SCHEMAS, ingest: simulatedOnly("gtllm"), generate: async (outDir) => (await import("../runner/generate.js")).generateRun("gtllm", outDir, process.env, {schemas: GTLLM_SCHEMAS}),
  },
  {id: "glee-human", title: "GLEE human-vs-LLM games (sample of 75)", path: "glee-human", source: "data/sources/glee-human.json", cite: "GLEE (Shapira et al. 2024) §4, App. E", schemas: [GLEE_GAMES, GLEE_TURNS], ingest: adapters.glee.ingest},
];

/** Several run configs' rows, table by table (their game ids are distinct: see the ultimatum's idStem). */
async function naRuns(names: string[]): Promise<Record<string, Row[]>> {
  const {runRows} = await import("../runner/runRows.js");
  const out: Record<string, Row[]> = {games: [], players: [], turns: []};
  for (const name of names) {
    const rows = (await runRows(name)) as unknown as Record<string, Row[]>;
    for (const table in out) out[table].push(...rows[table]);
  }
  return out;
}

/** The Deal-or-No-Deal supplement: the 50 points' human outcomes and the played run (imported when it runs, so listing the catalog stays light). */
async function dondSupplement(): Promise<Record<string, Row[]>> {
  const [{hardPointHumanRows, playedDondRows}, {hardPoints}, {hasEnvyFree}, {runRows}] = await Promise.all([import("../papers/gtllm/dond/ingest.js"), import("../papers/gtllm/dond/hardPoints.js"), import("../../src/lib/dondAllocation.js"), import("../runner/runRows.js")]);
  const played = playedDondRows(await runRows("dond"));
  const human = hardPointHumanRows(hardPoints(), (p) => hasEnvyFree(p.counts, p.values_a, p.values_b));
  return {games: [...human, ...played.games], turns: played.turns};
}

function simulatedOnly(id: string) {
  return (): never => {
    throw new Error(`dataset "${id}" is simulated, not ingested: play it with "parley run ${datasetEntry(id).path} --out <dir>"`);
  };
}

export function datasetEntry(id: string): DatasetEntry {
  const entry = catalog.find((d) => d.id === id);
  if (!entry) throw new Error(`unknown dataset "${id}"; the catalog has: ${catalog.map((d) => d.id).join(", ")}`);
  return entry;
}

export interface DatasetLocation {
  entry: DatasetEntry;
  /** Absolute path of the raw data, or null when no datasets directory is configured. */
  path: string | null;
  available: boolean;
  /** What to do when it is not available. */
  hint: string;
}

export function locateDataset(id: string, env: NodeJS.ProcessEnv = process.env): DatasetLocation {
  const entry = datasetEntry(id);
  if (entry.generate) return {entry, path: null, available: true, hint: ""};
  const config = datasetsConfig(env);
  const path = config.dir ? join(config.dir, entry.path) : null;
  const available = path !== null && existsSync(path);
  // The hint ends up in the built site, so it names no directory of the builder's machine.
  const hint = !config.dir
    ? `No datasets directory is configured. Set PARLEY_DATASETS=/path/to/datasets (or "datasets" in parley.config.json) so that ${entry.path} is inside it, then rebuild.`
    : `${entry.path} was not found in the datasets directory (set by ${config.from === "PARLEY_DATASETS" ? "PARLEY_DATASETS" : "parley.config.json"}). Put it there, or point PARLEY_DATASETS at a directory that has it, then rebuild.`;
  return {entry, path, available, hint};
}
