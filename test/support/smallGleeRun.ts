/** A small GLEE run config for tests of run directories: 2 bargaining configurations × every ordered pair of fair and greedy = 8 games. */
import {writeFileSync} from "node:fs";
import {join} from "node:path";

export function writeSmallGleeConfig(dir: string, seed: number): string {
  const config = join(dir, "small.json");
  writeFileSync(config, JSON.stringify({
    family: "bargaining",
    grid: {delta_a: [0.9, 0.95], delta_b: [0.8], money: [1000], horizon: [12], complete_information: [true], messages: [true]},
    players: ["fair", "greedy"], pairs: "all", games_per_pair: 1, seed,
  }));
  return config;
}
