/**
 * `parley ratings <dir ...> --generalisation`: the generalisation report
 * (src/lib/generalisation.ts) of runs whose config declared a protocol
 * (focal agents, seen and unseen co-players, held-out configurations),
 * read from each run's manifest and applied to its own seats; several runs
 * are pooled, each game id prefixed as `parley ratings` does. JSON on stdout.
 */
import {focalSeatsSQL, generalisationReport, protocolOf, type FocalSeat, type GeneralisationProtocol} from "../../../src/lib/generalisation.js";
import {readManifest} from "../../runner/manifest.js";
import {inputPath} from "./inputs.js";
import {seatRows} from "./seats.js";
import {UsageError} from "./args.js";

const HINT = 'expected a directory written by "parley run" from a config with a "generalisation" key (the Guide, Analysing runs)';

/** The protocol `dir`'s manifest records; one line naming the directory when it has none. */
function runProtocol(dir: string): GeneralisationProtocol {
  inputPath("ratings", dir, "directory", HINT);
  const protocol = protocolOf(readManifest(dir));
  if (protocol === null) throw new UsageError(`parley ratings: --generalisation: ${dir} declares no generalisation protocol (its manifest has none); ${HINT}`);
  if ("problem" in protocol) throw new UsageError(`parley ratings: --generalisation: ${dir}: ${protocol.problem}`);
  return protocol;
}

/** The report of `dirs` pooled, with each run's protocol. */
export async function generalisationOfRuns(dirs: readonly string[], options: {resamples: number; seed: number}): Promise<unknown> {
  const protocols = dirs.map(runProtocol);
  const seats: FocalSeat[] = [];
  for (const [i, dir] of dirs.entries()) {
    const rows = await seatRows<FocalSeat>("ratings", dir, dirs.length > 1 ? `run${i}` : "", (sql) => focalSeatsSQL(sql, protocols[i]));
    seats.push(...rows.map((r) => ({...r, seat: Number(r.seat), score: Number(r.score), win: Number(r.win)})));
  }
  const report = generalisationReport(seats, options);
  return {runs: dirs.map((dir, i) => ({dir, protocol: protocols[i]})), seed: options.seed, ...report};
}
