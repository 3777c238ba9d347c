/**
 * Economics Arena engine speed: 10,000 history sessions (6 runs each) of the
 * beauty contest and of each auction format, five scripted seats (the senior
 * pool of data/runs/econarena.json), played by the one runner in memory (no
 * Parquet). Prints sessions/s, runs/s and decisions/s (the English clock asks
 * every bidder still in at every price).
 */
import {parseRunConfig} from "../loaders/runner/runConfig.js";
import {runTournament} from "../loaders/runner/tournament.js";

const SESSIONS = 10_000;

const CASES = [
  {label: "beauty contest", game: "econarena/beauty_contest", grid: {}, lineup: ["rational", "level-1", "level-2", "level-3", "random"]},
  ...["second", "first", "english"].map((pricing) => ({label: `auction, ${pricing}`, game: "econarena/auction", grid: {pricing: [pricing]}, lineup: ["rational", "shade-25", "random", "rational", "shade-25"]})),
];

export default async function (): Promise<void> {
  console.log(`${SESSIONS.toLocaleString("en")} sessions of 6 runs, five scripted seats`);
  console.log("game                 seconds   sessions/s      runs/s   decisions/s");
  for (const c of CASES) {
    const config = parseRunConfig({game: c.game, grid: {...c.grid, runs: [6]}, players: [...new Set(c.lineup)], lineups: [c.lineup], games_per_lineup: SESSIONS, seed: 1, concurrency: 1});
    let decisions = 0;
    const t0 = performance.now();
    await runTournament(config, {onGame: (r) => void (decisions += r.turns.length)});
    const seconds = (performance.now() - t0) / 1000;
    const row = [seconds.toFixed(2), Math.round(SESSIONS / seconds), Math.round((6 * SESSIONS) / seconds), Math.round(decisions / seconds)];
    console.log(`${c.label.padEnd(18)} ${String(row[0]).padStart(9)} ${String(row[1]).padStart(12)} ${String(row[2]).padStart(11)} ${String(row[3]).padStart(13)}`);
  }
}
