/**
 * Where outside data comes from.
 *
 * The raw-datasets directory is, in order of precedence:
 *   1. the PARLEY_DATASETS environment variable;
 *   2. "datasets" in parley.config.json (or the file PARLEY_CONFIG names),
 *      resolved relative to that file;
 *   3. none: every dataset reports itself absent and pages say how to add it.
 */
import {existsSync, readFileSync} from "node:fs";
import {dirname, resolve} from "node:path";
import {fileURLToPath} from "node:url";

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export interface DatasetsConfig {
  dir: string | null;
  /** Where the setting came from, for messages. */
  from: string;
}

export function datasetsConfig(env: NodeJS.ProcessEnv = process.env): DatasetsConfig {
  if (env.PARLEY_DATASETS) return {dir: resolve(env.PARLEY_DATASETS), from: "PARLEY_DATASETS"};
  const configPath = resolve(env.PARLEY_CONFIG ?? resolve(projectRoot, "parley.config.json"));
  if (existsSync(configPath)) {
    let config: {datasets?: unknown};
    try {
      config = JSON.parse(readFileSync(configPath, "utf8"));
    } catch (error) {
      throw new Error(`${configPath}: not valid JSON (${(error as Error).message})`);
    }
    if (config.datasets !== undefined && typeof config.datasets !== "string") {
      throw new Error(`${configPath}: "datasets" must be a directory path string`);
    }
    if (config.datasets) return {dir: resolve(dirname(configPath), config.datasets), from: configPath};
  }
  return {dir: null, from: "not configured"};
}
