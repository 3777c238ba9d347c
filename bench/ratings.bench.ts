/**
 * Ratings speed (issue 16): Bradley–Terry with 1,000 bootstrap resamples over
 * the default GLEE tournament (data/runs/default.json, about 50,000 games)
 * plus the gamma-Bench raw results when the datasets directory has them.
 * Target: under 2 s. Prints the time to read the seats (native DuckDB), to
 * group them, and to fit with 0 and 1,000 resamples.
 */
import {spawnSync} from "node:child_process";
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {performance} from "node:perf_hooks";
import {projectRoot} from "../loaders/config.js";
import {locateDataset} from "../loaders/catalog.js";
import {seatRows} from "../loaders/commands/seats.js";
import {rateAgents} from "../src/lib/ratings.js";
import {ratedGames} from "../src/lib/ratingsData.js";

const TARGET_MS = 2000;

function parley(...args: string[]): void {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8"});
  if (r.status !== 0) throw new Error(`parley ${args.join(" ")} failed: ${r.stderr}`);
}

export default async function (): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-ratings-"));
  try {
    parley("run", join(projectRoot, "data/runs/default.json"), "--out", join(dir, "glee"));
    const dirs = [join(dir, "glee")];
    const gamabench = locateDataset("gamabench");
    if (gamabench.available) {
      parley("ingest", "gamabench", gamabench.path!, "--out", join(dir, "gamabench"));
      dirs.push(join(dir, "gamabench"));
    } else console.log("gamma-Bench raw results: not in the datasets directory, GLEE only");
    let t0 = performance.now();
    const rows = (await Promise.all(dirs.map((d, i) => seatRows("ratings", d, `run${i}`)))).flat();
    const readMs = performance.now() - t0;
    t0 = performance.now();
    const games = ratedGames(rows);
    const groupMs = performance.now() - t0;
    rateAgents(games, {resamples: 10}); // warm-up (JIT), not timed
    t0 = performance.now();
    rateAgents(games, {resamples: 0});
    const pointMs = performance.now() - t0;
    t0 = performance.now();
    const cpu = process.cpuUsage();
    const result = rateAgents(games, {resamples: 1000});
    const bootMs = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    const bootCpuMs = (used.user + used.system) / 1000;
    console.log(`seats: ${rows.length.toLocaleString("en-US")} in ${games.length.toLocaleString("en-US")} comparison games, ${result.agents.length} agents, ${result.families.length} families`);
    console.log(`read seats (native DuckDB): ${readMs.toFixed(0)} ms; group: ${groupMs.toFixed(0)} ms`);
    console.log(`fit, no resamples: ${pointMs.toFixed(0)} ms; with 1,000 resamples: ${bootMs.toFixed(0)} ms wall, ${bootCpuMs.toFixed(0)} ms CPU (wall above CPU means a busy machine)`);
    const total = groupMs + bootMs;
    console.log(`group + fit with 1,000 resamples: ${total.toFixed(0)} ms (target ${TARGET_MS} ms: ${(total / TARGET_MS).toFixed(2)}× the target)`);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}
