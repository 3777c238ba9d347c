/**
 * Where outside data comes from.
 *
 * The raw-datasets directory is, in order of precedence:
 *   1. the PARLEY_DATASETS environment variable;
 *   2. "datasets" in parley.config.json (or the file PARLEY_CONFIG names),
 *      resolved relative to that file;
 *   3. none: every dataset reports itself absent and pages say how to add it.
 * The same file lists the researcher's own runs ("runs": loaders/ownRuns/configuredRuns.ts).
 */
import {existsSync, readFileSync} from "node:fs";
import {dirname, resolve} from "node:path";
import {fileURLToPath} from "node:url";
import type {ConfigKey} from "./io/configKeys.js";
import {JsonInputError, parseJsonStrict} from "./io/configJson.js";
import {UsageError} from "./io/usageError.js";

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The keys of parley.config.json, each read where it is used: "datasets"
 * here, "runs" by loaders/ownRuns/configuredRuns.ts (RUN_ENTRY_KEYS),
 * "prices" by loaders/runner/cost.ts (PRICE_FIELDS). The site's Reference
 * (/reference/config) prints this table.
 */
export const PROJECT_CONFIG_KEYS: readonly ConfigKey[] = [
  {key: "datasets", type: "a directory path string, relative to the config file", default: "none: every dataset reports itself absent (the PARLEY_DATASETS environment variable takes precedence)", meaning: "the raw-datasets directory the site's datasets are read from"},
  {key: "runs", type: "a list of run entries: a directory path string (globs allowed) or an object (keys below)", default: "none", meaning: "your own runs (parley run or parley ingest output), shown by the site beside the built-in datasets; `parley runs add` writes them"},
  {key: "prices", type: 'an object of "<provider>/<model>" -> price (keys below)', default: "none: no costs are computed", meaning: "what LLM calls cost, in US dollars, for the runs' spend and `parley run --max-cost`"},
];

export interface DatasetsConfig {
  dir: string | null;
  /** Where the setting came from, for messages. */
  from: string;
}

/** The configuration file: PARLEY_CONFIG, else parley.config.json in the project. */
export function configFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.PARLEY_CONFIG ?? resolve(projectRoot, "parley.config.json"));
}

/**
 * The configuration file's path and content (null when there is none). Text
 * that is not a JSON object, gives a key twice or nests too deep
 * (io/configJson.ts) is a UsageError: one line naming the file.
 */
export function readConfigFile(env: NodeJS.ProcessEnv = process.env): {path: string; config: Record<string, unknown> | null; text: string | null} {
  const path = configFilePath(env);
  if (!existsSync(path)) return {path, config: null, text: null};
  const text = readFileSync(path, "utf8");
  let config: unknown;
  try {
    config = parseJsonStrict(text);
  } catch (error) {
    if (error instanceof JsonInputError) throw new UsageError(`${path}: ${error.message}`);
    throw error;
  }
  if (config === null || typeof config !== "object" || Array.isArray(config)) throw new UsageError(`${path}: expected a JSON object ({"datasets": ..., "runs": [...]})`);
  return {path, config: config as Record<string, unknown>, text};
}

export function datasetsConfig(env: NodeJS.ProcessEnv = process.env): DatasetsConfig {
  if (env.PARLEY_DATASETS) return {dir: resolve(env.PARLEY_DATASETS), from: "PARLEY_DATASETS"};
  const {path, config} = readConfigFile(env);
  if (config) {
    if (config.datasets !== undefined && typeof config.datasets !== "string") {
      throw new UsageError(`${path}: "datasets" must be a directory path string`);
    }
    if (config.datasets) return {dir: resolve(dirname(path), config.datasets), from: path};
  }
  return {dir: null, from: "not configured"};
}
