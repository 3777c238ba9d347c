/**
 * Whether the games a comparison pairs drew the same chance, read from the
 * runs' manifests (loaders/runner/manifest.ts records each run's `chance`
 * scheme, loaders/runner/chance.ts). Under the common scheme a game's chance
 * comes from the run seed, the game, its configuration and its repetition,
 * so two games paired by configuration and repetition share every draw when
 * they come from runs with that scheme, the same seed and the same grid (so
 * that a configuration number names the same parameters in both). A run
 * manifest that records no scheme was written before the scheme existed: its
 * games were seeded per game, by ids that name the lineup, and paired games
 * drew different numbers. Pure: no DOM, no Node API.
 */
/** The parts of a run's manifest (src/lib/manifestDiff.ts's RunManifest) read here. */
interface ChanceManifest {
  kind?: string;
  seed?: number | null;
  chance?: string;
  config?: unknown;
}

/** The run config's `chance` schemes: "common" random numbers, or the "per-game" streams of earlier runs. */
export const CHANCE_SCHEMES = ["common", "per-game"] as const;
export type ChanceScheme = (typeof CHANCE_SCHEMES)[number];

/** Whether paired games shared their chance, and why (one sentence). */
export interface ChanceSharing {
  shared: boolean;
  why: string;
}

/** The scheme a manifest records (a run's manifest without one: per-game, as every run before the key); null for no manifest or one of an ingest. */
export function manifestChance(manifest: unknown): ChanceScheme | null {
  const m = readable(manifest);
  if (!m || m.kind !== "run") return null;
  return m.chance === "common" ? "common" : "per-game";
}

/** A manifest as an object (null: none, or not a JSON object). */
const readable = (manifest: unknown): ChanceManifest | null => (manifest !== null && typeof manifest === "object" && !Array.isArray(manifest) ? (manifest as ChanceManifest) : null);

/** The config keys that decide what a configuration number names. */
const GRID_KEYS = ["game", "family", "grid", "n_players"] as const;

const canonical = (value: unknown): string =>
  Array.isArray(value) ? `[${value.map(canonical).join(",")}]` : value && typeof value === "object" ? `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}` : JSON.stringify(value ?? null);

/**
 * Whether the games of `runs` that a comparison pairs (same game,
 * configuration and repetition; one run or several) drew the same chance:
 * every run has a manifest recording the common scheme, and they share the
 * seed and the grid. The answer says which condition failed.
 */
export function sharedChance(given: readonly {label: string; manifest: unknown}[]): ChanceSharing {
  if (!given.length) return {shared: false, why: "no run was named"};
  const runs = given.map(({label, manifest}) => ({label, manifest: readable(manifest)}));
  for (const {label, manifest} of runs) {
    if (!manifest) return {shared: false, why: `${label} has no manifest, so how its chance was drawn is unknown`};
    if (manifest.kind !== "run") return {shared: false, why: `${label} holds ingested games, whose chance Parley did not draw`};
    if (manifestChance(manifest) !== "common") return {shared: false, why: `${label} drew chance per game (seeded by game ids, which name the lineup)`};
  }
  const [first, ...rest] = runs;
  for (const other of rest) {
    if (other.manifest!.seed !== first.manifest!.seed) return {shared: false, why: `the runs' seeds differ (${first.label} ${first.manifest!.seed}, ${other.label} ${other.manifest!.seed})`};
    const config = (m: ChanceManifest) => (m.config ?? {}) as Record<string, unknown>;
    const key = GRID_KEYS.find((k) => canonical(config(first.manifest!)[k]) !== canonical(config(other.manifest!)[k]));
    if (key) return {shared: false, why: `the runs' configs differ in ${key}, so one configuration number may name different parameters`};
  }
  const seed = first.manifest!.seed;
  return {shared: true, why: `${runs.length > 1 ? "the runs" : first.label} drew chance by the common scheme${seed !== undefined && seed !== null ? ` (seed ${seed})` : ""}: games of one configuration and repetition share every draw`};
}

/** What a comparison's design is, in a sentence for a page (the module comment of src/lib/compare.ts says why). */
export function designNote({shared, why}: ChanceSharing): string {
  return shared
    ? `The paired games shared their chance (${why}), so each pair is one configuration and repetition: a matched design.`
    : `The paired games did not share their chance (${why}), so each side's repetitions are averaged within each configuration and the statistics are over configurations (n counts them); a run with "chance": "common" gives the matched design.`;
}
