/**
 * What two runs' reproducibility manifests (loaders/runner/manifest.ts) differ
 * in besides the compared factor, so `parley compare <runA> <runB>` and the
 * /compare page can warn that a difference in results may come from
 * something else. Pure: no DOM, no Node API.
 *
 * The compared factor of two runs is their players: every field of the run
 * config's `players` entries that differs (an agent swapped, another model,
 * persona, temperature or prompt setting), together with what follows from
 * it — those players' models as the API reported them and the hashes of
 * their system prompts — and the lineups naming them (compared after A's
 * players are renamed to B's). Everything else that differs is a warning:
 * any other config field (grid, game, repetitions, rounds, ...), the seed,
 * the chance scheme (src/lib/sharedChance.ts),
 * Parley's version and commit, Node's and every SDK's and engine's version,
 * and, for LLM players the two runs share unchanged, the model the API
 * reported and the system-prompt hashes. Not compared: times, counts (they
 * are results), the shard, `run_id` and `description` (names, not causes),
 * the generalisation protocol (how games are read, not played), and
 * `config_sha256`, which differs whenever the config does and is reported
 * field by field instead.
 */

import {manifestChance} from "./sharedChance.js";

/** The parts of a manifest this module reads (all optional: older or foreign manifests lack some). */
export interface RunManifest {
  kind?: string;
  parley?: {version?: string | null; commit?: string | null};
  config?: unknown;
  seed?: number | null;
  /** The run's chance scheme (src/lib/sharedChance.ts); absent in manifests written before it existed. */
  chance?: string;
  node?: string;
  packages?: Record<string, string | null>;
  llm_players?: {id: string; models_reported?: string[]; system_prompts?: {sha256: string}[]}[];
}

export interface ManifestDifference {
  /** Dotted path of the field, e.g. `config.grid.delta_a`, `packages.openai`, `llm_players.fair.models_reported`. */
  field: string;
  a: unknown;
  b: unknown;
}

export interface ManifestComparison {
  /** The compared factor: players of A (by id) and what stands for them in B. */
  compared: {a: string | null; b: string | null}[];
  /** Everything else that differs, one entry per field. */
  differences: ManifestDifference[];
}

/** Config keys that name the players, and the run's own names (never a cause of a difference). */
const PLAYER_KEYS = new Set(["players", "lineups", "pairs"]);
const NAME_KEYS = new Set(["run_id", "description"]);
/** Config keys that say how a run's games are read, not which are played (the generalisation protocol). */
const READING_KEYS = new Set(["generalisation"]);

type Player = {id: string; entry: unknown};

/** A config's players by id (a built-in agent is its id; an LLM player an object with `id`). */
function playersOf(config: unknown): Player[] | "all" | null {
  const players = (config as {players?: unknown} | null)?.players;
  if (players === "all") return "all";
  if (!Array.isArray(players)) return null;
  return players.map((p) => ({id: typeof p === "string" ? p : String((p as {id?: unknown})?.id), entry: p}));
}

const same = (x: unknown, y: unknown): boolean => canonical(x) === canonical(y);

/** JSON with object keys sorted, so key order never counts as a difference. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Leaf differences between two JSON values (objects are walked, arrays compared whole). */
function diffJson(a: unknown, b: unknown, path: string, out: ManifestDifference[], skip: (key: string) => boolean = () => false): void {
  const isObject = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])].sort();
    for (const key of keys) {
      if (skip(key)) continue;
      diffJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], path ? `${path}.${key}` : key, out);
    }
  } else if (!same(a, b)) out.push({field: path, a: a ?? null, b: b ?? null});
}

/**
 * The renaming of A's player ids to B's: the same id where both have it,
 * then `rename` (A's id → B's), then, when exactly one id of each side is
 * left, those two.
 */
function playerMap(a: Player[], b: Player[], rename: ReadonlyMap<string, string>): Map<string, string> {
  const bIds = new Set(b.map((p) => p.id));
  const map = new Map<string, string>();
  for (const p of a) if (rename.has(p.id)) map.set(p.id, rename.get(p.id)!);
  for (const p of a) if (!map.has(p.id) && bIds.has(p.id) && ![...map.values()].includes(p.id)) map.set(p.id, p.id);
  const leftA = a.filter((p) => !map.has(p.id));
  const leftB = b.filter((p) => ![...map.values()].includes(p.id));
  if (leftA.length === 1 && leftB.length === 1) map.set(leftA[0].id, leftB[0].id);
  return map;
}

/** Lineups (or pairs) with A's ids written as B's, to compare with B's. */
function renamed(value: unknown, map: ReadonlyMap<string, string>): unknown {
  if (typeof value === "string") return map.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => renamed(v, map));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renamed(v, map)]));
  return value;
}

/** Differences between two runs' manifests outside the compared players (see the module comment). */
export function compareManifests(a: RunManifest, b: RunManifest, rename: ReadonlyMap<string, string> = new Map()): ManifestComparison {
  const differences: ManifestDifference[] = [];
  const compared: ManifestComparison["compared"] = [];
  const push = (field: string, x: unknown, y: unknown) => !same(x, y) && differences.push({field, a: x ?? null, b: y ?? null});
  push("kind", a.kind, b.kind);
  push("parley.version", a.parley?.version, b.parley?.version);
  push("parley.commit", a.parley?.commit, b.parley?.commit);
  push("node", a.node, b.node);
  diffJson(a.packages ?? {}, b.packages ?? {}, "packages", differences);
  push("seed", a.seed, b.seed);
  // The scheme each run drew chance by (a run manifest without one: per-game), so a config that names the default differs from none that leaves it out.
  push("chance", manifestChance(a), manifestChance(b));
  // The config, players apart; its seed and chance are the manifest's, reported once above.
  diffJson(a.config ?? {}, b.config ?? {}, "config", differences, (key) => PLAYER_KEYS.has(key) || NAME_KEYS.has(key) || READING_KEYS.has(key) || key === "seed" || key === "chance");
  const pa = playersOf(a.config);
  const pb = playersOf(b.config);
  let map = new Map<string, string>();
  if (Array.isArray(pa) && Array.isArray(pb)) {
    map = playerMap(pa, pb, rename);
    const byId = (players: Player[], id: string) => players.find((p) => p.id === id);
    for (const p of pa) {
      const other = map.has(p.id) ? byId(pb, map.get(p.id)!) : undefined;
      if (!other) compared.push({a: p.id, b: null});
      else if (other.id !== p.id || !same(p.entry, other.entry)) compared.push({a: p.id, b: other.id});
    }
    for (const p of pb) if (![...map.values()].includes(p.id)) compared.push({a: null, b: p.id});
  } else push("config.players", a.config && (a.config as {players?: unknown}).players, b.config && (b.config as {players?: unknown}).players);
  for (const key of ["lineups", "pairs"]) {
    const x = (a.config as Record<string, unknown> | undefined)?.[key];
    const y = (b.config as Record<string, unknown> | undefined)?.[key];
    push(`config.${key}`, renamed(x, map), y);
  }
  // LLM players the runs share unchanged: the model behind the name and the prompts sent must match too.
  const changed = new Set(compared.map((c) => c.a));
  for (const p of a.llm_players ?? []) {
    if (changed.has(p.id)) continue;
    const q = (b.llm_players ?? []).find((x) => x.id === (map.get(p.id) ?? p.id));
    if (!q) continue;
    push(`llm_players.${p.id}.models_reported`, [...(p.models_reported ?? [])].sort(), [...(q.models_reported ?? [])].sort());
    const hashes = (x: typeof p) => (x.system_prompts ?? []).map((s) => s.sha256).sort();
    push(`llm_players.${p.id}.system_prompts`, hashes(p), hashes(q));
  }
  return {compared, differences};
}

/** One line per difference, for stderr or a page. */
export function manifestWarnings({compared, differences}: ManifestComparison): string[] {
  const factor = compared.length ? compared.map((c) => (c.a === c.b ? c.a : `${c.a ?? "(none)"} → ${c.b ?? "(none)"}`)).join(", ") : "nothing in the players";
  const show = (v: unknown) => {
    const text = JSON.stringify(v);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  return differences.map((d) => `warning: the runs differ in ${d.field} (A ${show(d.a)}, B ${show(d.b)}), not only in the compared players (${factor})`);
}

/**
 * What `parley compare <runA> <runB>` prints on stderr before its results,
 * and /compare shows above them: the warnings of compareManifests, or, when
 * a run has no readable manifest, one line saying so. `label` names the run
 * (its directory as given).
 */
export function runWarnings(a: {label: string; manifest: unknown}, b: {label: string; manifest: unknown}, rename: ReadonlyMap<string, string> = new Map()): string[] {
  const readable = (m: unknown): m is RunManifest => m !== null && typeof m === "object" && !Array.isArray(m);
  if (readable(a.manifest) && readable(b.manifest)) return manifestWarnings(compareManifests(a.manifest, b.manifest, rename));
  return [a, b].filter((run) => !readable(run.manifest)).map((run) => `warning: ${run.label} has no readable manifest.json, so what else differs between the runs cannot be checked`);
}
