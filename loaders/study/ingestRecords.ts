/**
 * `parley ingest human <file...> --out <dir>`: games people played on the
 * play page (src/play.md), read from their downloaded records into the
 * common tables, laid out as `parley run` writes them (loaders/runner/write.ts), with
 * agent `human` in the person's seat.
 *
 * A record is not trusted: its spec is checked against the registries, and
 * its moves are replayed through the game with the same seed and game id
 * (loaders/study/session.ts `restore`); the rows written are the replay's.
 * Rows the record carries must equal the replay's (a record edited by hand
 * or played by another version of a game is refused). Each bad file is one
 * problem naming it and what is wrong; the other files are kept.
 */
import {readFileSync} from "node:fs";
import type {GameRecord} from "../runner/tournament.js";
import type {Problem} from "../ingest/types.js";
import {JsonInputError, parseJsonStrict} from "../io/configJson.js";
import {idProblem} from "../io/ids.js";
import {PlayError, RECORD_FORMAT, restore, type Engine, type PlaySpec} from "./session.js";

export interface HumanIngest {
  records: GameRecord[];
  problems: Problem[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The first difference between two JSON-like values, as a path ("turns[3].price"), or null when equal. */
function firstDifference(a: unknown, b: unknown, path = ""): string | null {
  if (Object.is(a, b)) return null;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path || "list"} has ${a.length} entries, the replay ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
    return null;
  }
  return `${path}: ${JSON.stringify(a)} in the file, ${JSON.stringify(b)} in the replay`;
}

/** One record file: its replayed rows, or why it cannot be read. */
export async function readRecord(file: string, engine: Engine): Promise<GameRecord | string> {
  let raw: unknown;
  try {
    raw = parseJsonStrict(readFileSync(file, "utf8"));
  } catch (error) {
    return error instanceof JsonInputError ? error.message : `cannot read the file (${(error as Error).message})`;
  }
  if (!isObject(raw)) return `expected a play record (a JSON object with format "${RECORD_FORMAT}")`;
  if (raw.format !== RECORD_FORMAT) return `format: expected "${RECORD_FORMAT}", got ${JSON.stringify(raw.format)}`;
  if (!isObject(raw.spec)) return "spec: expected an object (game, params, seats, seed, game_id)";
  const spec = raw.spec as Record<string, unknown>;
  if (typeof spec.game !== "string") return "spec.game: expected a game id";
  if (!Array.isArray(spec.seats) || !spec.seats.every((s) => typeof s === "string")) return "spec.seats: expected a list of agent ids";
  if (spec.params !== undefined && !isObject(spec.params)) return "spec.params: expected an object";
  const badId = idProblem(spec.game_id);
  if (badId) return `spec.game_id: ${badId}`;
  if (typeof spec.seed !== "number") return "spec.seed: expected a number";
  const badRun = spec.run_id === undefined ? null : idProblem(spec.run_id);
  if (badRun) return `spec.run_id: ${badRun}`;
  if (!Array.isArray(raw.moves)) return "moves: expected a list of the person's moves";
  let session;
  try {
    session = await restore(spec as unknown as PlaySpec, raw.moves, engine);
  } catch (error) {
    if (error instanceof PlayError) return error.message;
    return `the replay failed: ${(error as Error).message}`;
  }
  const played = session.finished();
  if (!played) return `the game is not over after its ${raw.moves.length} moves`;
  if (raw.rows !== null && raw.rows !== undefined) {
    const replayed = JSON.parse(JSON.stringify({row: played.row, players: played.players, turns: played.turns}));
    const d = firstDifference(raw.rows, replayed);
    if (d) return `its rows differ from the replay of its moves (${d})`;
  }
  return played;
}

/** Reads every file; a game id met twice keeps the first file's game. */
export async function ingestHuman(files: readonly string[], engine: Engine): Promise<HumanIngest> {
  const records: GameRecord[] = [];
  const problems: Problem[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const r = await readRecord(file, engine);
    if (typeof r === "string") {
      problems.push({file, message: r});
      continue;
    }
    const id = r.row.game_id;
    const first = seen.get(id);
    if (first !== undefined) {
      problems.push({file, message: `game_id ${JSON.stringify(id)} was already read from ${first}; kept that one`});
      continue;
    }
    seen.set(id, file);
    records.push(r);
  }
  return {records, problems};
}
