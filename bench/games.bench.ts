/**
 * Game engine speed for every gamma-Bench game: ten scripted seats (one
 * built-in agent in every seat) over the paper's 20 rounds, played by the
 * one runner in memory (no Parquet). Prints games/s and decisions/s per game
 * and agent. GLEE's full-grid speed is in glee.bench.ts.
 */
import {parseRunConfig} from "../loaders/runner/runConfig.js";
import {runTournament} from "../loaders/runner/tournament.js";
import {gamabenchGames} from "../loaders/papers/gamabench/games.js";

export default async function (): Promise<void> {
  console.log("game                       agent         games   seconds   games/s   decisions/s");
  for (const def of gamabenchGames) {
    for (const agent of ["equilibrium", "random"]) {
      const games = def.id.endsWith("battle_royale") || def.id.endsWith("pirate") ? 400 : 200;
      const config = parseRunConfig({game: def.id, players: [agent], lineups: "self", games_per_lineup: games, seed: 1, concurrency: 1});
      let decisions = 0;
      const t0 = performance.now();
      await runTournament(config, {onGame: (r) => void (decisions += r.turns.length)});
      const seconds = (performance.now() - t0) / 1000;
      console.log(`${def.id.padEnd(26)} ${agent.padEnd(12)} ${String(games).padStart(6)} ${seconds.toFixed(2).padStart(9)} ${Math.round(games / seconds).toString().padStart(9)} ${Math.round(decisions / seconds).toString().padStart(13)}`);
    }
  }
}
