/**
 * The dataset catalog: every dataset the site can show, where its raw files
 * live inside the datasets directory, and the adapter that reads them.
 * Adding a dataset is one adapter under loaders/ingest/ plus one entry here
 * (and a data loader under src/data/ that calls `emitDataset(id)`).
 */
import {existsSync} from "node:fs";
import {join} from "node:path";
import {datasetsConfig} from "./config.js";
import {DOND_GAMES, DOND_TURNS, ingestDond} from "./ingest/dond.js";
import {GAMABENCH_SCHEMAS, ingestGamabench} from "./ingest/gamabench.js";
import {NA_SCHEMAS, ingestNegotiationArena} from "./ingest/negotiationarena.js";
import {ingestGleeHuman} from "./ingest/glee.js";
import {GLEE_GAMES, GLEE_TURNS} from "./games/schema.js";
import {generateRun} from "./run/generate.js";
import type {Row, TableSchema} from "./io/schema.js";
import {runRows} from "./run/runRows.js";
import {dataGameSchemas} from "./games/gtllm/index.js";
import {gameDef} from "./games/registry.js";

/** Every matrix and tree game has the same columns; the Prisoner's Dilemma's stand for all. */
const GTLLM_SCHEMAS = dataGameSchemas(gameDef("gtllm/prisoners_dilemma"));
import type {IngestResult} from "./ingest/types.js";

export interface DatasetEntry {
  id: string;
  title: string;
  /** Path inside the datasets directory (file or folder). */
  path: string;
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

export const catalog: DatasetEntry[] = [
  {id: "dond", title: "Deal or No Deal (human–human, validation split)", path: "dealornodeal/val.txt", cite: "Game-theoretic LLM workflows (Hua et al. 2024) §5.3", schemas: [DOND_GAMES, DOND_TURNS], ingest: ingestDond},
  {
    id: "gamabench", title: "gamma-Bench raw results (12 models, 8 games, 5 runs)", path: "gamabench", cite: "gamma-Bench (Huang et al. 2024) §3, App. E", schemas: GAMABENCH_SCHEMAS, ingest: ingestGamabench,
    supplement: () => runRows("gamabench") as unknown as Promise<Record<string, Row[]>>,
    supplementNote: "with Parley's built-in strategies (data/runs/gamabench.json: the paper's vanilla games, ten seats of one strategy, five runs) played at build time",
  },
  {id: "negotiationarena", title: "NegotiationArena buy/sell games (GPT-4 vs GPT-4)", path: "negotiationarena", cite: "NegotiationArena (Bianchi et al. 2024) §2.1, §3", schemas: NA_SCHEMAS, ingest: ingestNegotiationArena},
  {id: "glee", title: "GLEE simulated tournament: full grid × every ordered pair of built-in agents", path: "data/runs/default.json", cite: "GLEE (Shapira et al. 2024) §2, Table 1", schemas: [GLEE_GAMES, GLEE_TURNS], ingest: simulatedOnly("glee"), generate: (outDir) => generateRun("default", outDir)},
  {
    id: "gtllm", title: "Matrix and tree games: every ordered pair of built-in strategies, with and without talk", path: "data/runs/gtllm.json", cite: "Game-theoretic LLM workflows (Hua et al. 2024) §4, Tables 5–8",
    schemas: GTLLM_SCHEMAS, ingest: simulatedOnly("gtllm"), generate: (outDir) => generateRun("gtllm", outDir, process.env, GTLLM_SCHEMAS),
  },
  {id: "glee-human", title: "GLEE human-vs-LLM games (sample of 75)", path: "glee-human", cite: "GLEE (Shapira et al. 2024) §4, App. E", schemas: [GLEE_GAMES, GLEE_TURNS], ingest: ingestGleeHuman},
];

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
