/** What a configured run's run.json says (written by loaders/ownRuns/runArchives.ts, shown by src/components/manifest.ts). */
export interface RunInfo {
  name: string;
  description: string | null;
  path: string;
  /** "run" or "ingest", from its manifest. */
  kind: string | null;
  games: {game: string; games: number}[];
  total: number;
  agents: string[];
  models: string[];
  started: string | null;
  finished: string | null;
  /** A `parley run` is still writing it (finished games are read from its checkpoints). */
  running: boolean;
  config: unknown;
  llm_players: unknown[];
  parley: unknown;
  /** The run's manifest.json as `parley compare` reads it (loaders/runner/manifest.ts readManifest), for the warnings of /compare's two-run mode. */
  manifest: unknown;
  /** Why its tables could not be read (they are then empty). */
  problem: string | null;
}
