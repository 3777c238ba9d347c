/**
 * NegotiationArena's three scenarios (NegotiationArena (Bianchi et al. 2024)
 * §2.1) with scripted agents: every ordered pair of the built-in agents that
 * play the scenario, played by the one runner in memory (no Parquet), at the
 * paper's parameters. Prints games/s and messages/s per scenario, by the
 * wall clock and by this process's CPU time (the machine's other load, printed,
 * slows the first but not the second), and the whole build-time run
 * (data/runs/negotiationarena.json) for scale.
 */
import {loadavg} from "node:os";
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {projectRoot} from "../loaders/projectConfig.js";
import {parseRunConfig} from "../loaders/runner/runConfig.js";
import {runTournament} from "../loaders/runner/tournament.js";
import {negotiationArenaGames} from "../loaders/papers/negotiationarena/games.js";

async function time(config: ReturnType<typeof parseRunConfig>): Promise<{games: number; turns: number; seconds: number; cpu: number}> {
  let games = 0;
  let turns = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await runTournament(config, {onGame: (r) => {
    games++;
    turns += r.turns.length;
  }});
  const c = process.cpuUsage(c0);
  return {games, turns, seconds: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6};
}

export default async function (): Promise<void> {
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(", ")}`);
  console.log("scenario                             pairs    games   wall s   games/s   CPU s   games/CPU s   messages/CPU s");
  for (const def of negotiationArenaGames) {
    // Warm up once (JIT), then measure.
    await time(parseRunConfig({game: def.id, players: "all", games_per_lineup: 20, seed: 2, concurrency: 1}));
    const config = parseRunConfig({game: def.id, players: "all", games_per_lineup: 1000, seed: 1, concurrency: 1});
    const {games, turns, seconds, cpu} = await time(config);
    const lineups = games / 1000;
    console.log(`${def.id.padEnd(36)} ${String(lineups).padStart(5)} ${String(games).padStart(8)} ${seconds.toFixed(2).padStart(8)} ${Math.round(games / seconds).toString().padStart(9)} ${cpu.toFixed(2).padStart(7)} ${Math.round(games / cpu).toString().padStart(13)} ${Math.round(turns / cpu).toString().padStart(16)}`);
  }
  const raw = JSON.parse(readFileSync(join(projectRoot, "data", "runs", "negotiationarena.json"), "utf8"));
  const whole = await time(parseRunConfig(raw, "negotiationarena"));
  console.log(`data/runs/negotiationarena.json: ${whole.games} games in ${whole.seconds.toFixed(2)} s wall, ${whole.cpu.toFixed(2)} s CPU (${Math.round(whole.games / whole.cpu)} games per CPU second), played at every site build`);
}
