/**
 * One row per seat of a run or ingest directory (src/lib/ratingsData.ts), for
 * the commands that compare agents: `parley ratings` and `parley compare`.
 */
import {commonSeatsSQL, gleeSeatsSQL, inSeatOrder, type SeatRow} from "../../../src/lib/ratingsData.js";
import {sqlString} from "../../../src/lib/sqlText.js";
import {runTableFiles} from "../../io/runTables.js";
import {UsageError} from "./args.js";
import {withRunInputs} from "./inputs.js";
import {seatRuleBreaksSQL, withRuleBreaks, type SeatRowWithBreaks} from "../../../src/lib/compare.js";
import {agentSettings, seatTurnsSQL, type AgentSettings, type SeatTurns} from "../../../src/lib/ratingCovariates.js";
import {readManifest} from "../../runner/manifest.js";

const HINT = 'expected a directory written by "parley run" or "parley ingest"';

/** The seat rows of one directory: the common players table, or the flat GLEE games table of older runs and the GLEE ingests. */
export async function seatRows(command: string, dir: string, prefix: string): Promise<SeatRow[]> {
  const common = runTableFiles(dir, "players").files.length > 0;
  const tables = common ? ["games", "players"] : ["games"];
  return withRunInputs(command, dir, tables, undefined, HINT, async (db) => {
    const columns = new Set((await db.query<{column_name: string}>("SELECT column_name FROM (DESCRIBE games)")).map((r) => r.column_name));
    let sql: string;
    if (common) {
      const family = columns.has("game") ? "g.game" : columns.has("family") ? "g.family" : sqlString(dir);
      sql = commonSeatsSQL("games", "players", family, columns, prefix);
    } else if (columns.has("alice_agent") && columns.has("alice_utility")) sql = gleeSeatsSQL("games", prefix);
    else throw new UsageError(`parley ${command}: ${dir} holds no players table and no GLEE games table; ${HINT}`);
    return (await db.query(inSeatOrder(sql))) as unknown as SeatRow[];
  });
}


/** `seatRows` with each seat's attempts and rule breaks from the directory's turns table (none when it has no turns table). */
export async function seatRowsWithBreaks(command: string, dir: string): Promise<SeatRowWithBreaks[]> {
  const rows = await seatRows(command, dir, "");
  if (!runTableFiles(dir, "turns").files.length) return rows;
  const counts = await withRunInputs(command, dir, ["turns"], undefined, HINT, async (db) => {
    const columns = new Set((await db.query<{column_name: string}>("SELECT column_name FROM (DESCRIBE turns)")).map((r) => r.column_name));
    if (!columns.has("rule_break") || !columns.has("attempt")) return [];
    return (await db.query(seatRuleBreaksSQL("turns"))) as unknown as {game_id: string; seat: number; attempts: number; rule_breaks: number}[];
  });
  return counts.length ? withRuleBreaks(rows, counts) : rows;
}

/**
 * What the controlled ranking reads of a directory beside its seats
 * (src/lib/ratingCovariates.ts): each seat's turn sums (none without a turns
 * table), game ids prefixed as seatRows prefixes them, and each LLM
 * player's settings from its manifest (none without one).
 */
export async function seatCovariateInputs(command: string, dir: string, prefix: string): Promise<{turns: SeatTurns[]; settings: Map<string, AgentSettings>}> {
  const settings = agentSettings(readManifest(dir));
  if (!runTableFiles(dir, "turns").files.length) return {turns: [], settings};
  const turns = await withRunInputs(command, dir, ["turns"], undefined, HINT, async (db) => {
    const columns = new Set((await db.query<{column_name: string}>("SELECT column_name FROM (DESCRIBE turns)")).map((r) => r.column_name));
    const form = columns.has("seat") ? "common" : columns.has("player") ? "glee" : null;
    if (!form) return [];
    return (await db.query(seatTurnsSQL("turns", columns, {form, prefix}))) as unknown as SeatTurns[];
  });
  return {turns, settings};
}
