/**
 * The matrix and tree games of Game-theoretic LLM workflows (Hua et al.
 * 2024) §4.1: all ten games × every ordered pair of built-in agents that can
 * sit there × 0 and 4 rounds of scripted talk, played by the one runner in
 * memory (no Parquet). Prints games/s per game and talk setting, and the
 * cost of talk as a ratio.
 */
import {parseRunConfig} from "../loaders/runner/runConfig.js";
import {runTournament} from "../loaders/runner/tournament.js";
import {GTLLM_GAMES} from "../src/lib/gtllm.js";

const AGENTS = ["equilibrium", "backward-induction", "workflow-ne", "workflow-bi", "best-response", "random"];
const PER_PAIR = 40;

export default async function (): Promise<void> {
  console.log("game                       talk   games   seconds   games/s   turns/s");
  const totals = new Map<number, {games: number; seconds: number}>();
  for (const [game] of GTLLM_GAMES) {
    for (const rounds of [0, 4]) {
      const config = parseRunConfig({game, grid: {negotiation_rounds: [rounds]}, players: AGENTS, lineups: "all", games_per_lineup: PER_PAIR, seed: 1, concurrency: 1});
      let games = 0;
      let turns = 0;
      const t0 = performance.now();
      await runTournament(config, {onGame: (r) => void (games++, (turns += r.turns.length))});
      const seconds = (performance.now() - t0) / 1000;
      const t = totals.get(rounds) ?? {games: 0, seconds: 0};
      totals.set(rounds, {games: t.games + games, seconds: t.seconds + seconds});
      console.log(`${game.padEnd(26)} ${String(rounds).padStart(4)} ${String(games).padStart(7)} ${seconds.toFixed(2).padStart(9)} ${Math.round(games / seconds).toString().padStart(9)} ${Math.round(turns / seconds).toString().padStart(9)}`);
    }
  }
  const rate = (n: number) => totals.get(n)!.games / totals.get(n)!.seconds;
  console.log(`all ten games: ${Math.round(rate(0))} games/s without talk, ${Math.round(rate(4))} games/s with 4 rounds of scripted talk (talk costs ×${(rate(0) / rate(4)).toFixed(1)})`);
}
