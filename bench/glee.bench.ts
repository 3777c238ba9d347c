/**
 * GLEE tournament speed: the full Table 1 grid (1,320 configurations) × every
 * ordered pair of built-in agents that can sit in each family × 1 game,
 * written to Parquet. Prints games/s, turns/s and peak memory (maxRSS).
 * Target: under 20 s and under 1 GiB on a 2-core machine.
 */
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {parseRunConfig} from "../loaders/runner/runConfig.js";
import {countGames} from "../loaders/runner/grid.js";
import {writeTournament} from "../loaders/runner/tournament.js";
import {gleeAgents} from "../loaders/papers/glee/agents.js";

export default async function (): Promise<void> {
  const config = parseRunConfig({family: "all", grid: "full", players: "all", pairs: "all", games_per_pair: 1, seed: 1, run_id: "bench"});
  const dir = mkdtempSync(join(tmpdir(), "parley-glee-bench-"));
  try {
    const planned = countGames(config);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const files = await writeTournament(config, dir);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const maxRssMiB = process.resourceUsage().maxRSS / 1024;
    console.log(`agents: ${gleeAgents.length} built-in; games planned: ${planned}`);
    console.log(`games: ${files.games}, turns: ${files.turns}`);
    console.log(`wall: ${seconds.toFixed(2)} s (target < 20 s); process CPU: ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`);
    console.log(`games/s: ${Math.round(files.games / seconds)}; turns/s: ${Math.round(files.turns / seconds)}`);
    console.log(`peak memory (maxRSS): ${maxRssMiB.toFixed(0)} MiB (target < 1024 MiB); heap used now: ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}
