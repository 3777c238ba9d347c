/**
 * The generalisation report (src/lib/generalisation.ts) of run directories
 * whose config declared a protocol: each run's protocol read from its
 * manifest and applied to its own seats (native DuckDB, the SQL /ratings
 * runs in DuckDB-WASM), several runs pooled with their game ids prefixed.
 * What `parley ratings --generalisation` prints; /ratings computes the same
 * in the browser (src/lib/pages/generalisation.ts), in the site and in a report.
 */
import {focalSeatsSQL, generalisationReport, protocolOf, type FocalSeat, type GeneralisationProtocol, type GeneralisationReport} from "../../src/lib/generalisation.js";
import {commonSeatsSQL} from "../../src/lib/ratingsData.js";
import {readManifest} from "../runner/manifest.js";
import {withRunViews} from "../io/parquet.js";

/** A run directory without a readable protocol; the message says which and why. */
export class NoProtocol extends Error {}

/** The protocol `dir`'s manifest records, or null when it declares none; throws NoProtocol when it is not what `parley run` writes. */
function runProtocol(dir: string): GeneralisationProtocol | null {
  const protocol = protocolOf(readManifest(dir));
  if (protocol && "problem" in protocol) throw new NoProtocol(`${dir}: ${protocol.problem}`);
  return protocol;
}

/** One row per focal seat of the run in `dir` (game ids and configurations prefixed with `prefix/` when given). Throws RunTablesMissing without games or players. */
async function focalSeatsOfRun(dir: string, protocol: GeneralisationProtocol, prefix = ""): Promise<FocalSeat[]> {
  return withRunViews(dir, ["games", "players"], undefined, async (db) => {
    const columns = new Set((await db.query<{column_name: string}>("SELECT column_name FROM (DESCRIBE games)")).map((r) => r.column_name));
    const family = columns.has("game") ? "g.game" : columns.has("family") ? "g.family" : "NULL";
    const rows = await db.query(focalSeatsSQL(commonSeatsSQL("games", "players", family, columns, prefix), protocol));
    return rows.map((r) => ({...(r as unknown as FocalSeat), seat: Number(r.seat), score: Number(r.score), win: Number(r.win), held_out: r.held_out === true}));
  });
}

export interface RunsReport extends GeneralisationReport {
  runs: {dir: string; protocol: GeneralisationProtocol}[];
}

/** The report of `dirs` pooled; throws NoProtocol naming a directory that declares none. */
export async function generalisationOverRuns(dirs: readonly string[]): Promise<RunsReport> {
  const protocols = dirs.map((dir) => {
    const protocol = runProtocol(dir);
    if (!protocol) throw new NoProtocol(`${dir} declares no generalisation protocol (its manifest has none)`);
    return protocol;
  });
  const seats: FocalSeat[] = [];
  for (const [i, dir] of dirs.entries()) seats.push(...(await focalSeatsOfRun(dir, protocols[i], dirs.length > 1 ? `run${i}` : "")));
  return {runs: dirs.map((dir, i) => ({dir, protocol: protocols[i]})), ...generalisationReport(seats)};
}
