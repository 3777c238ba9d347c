// Deal or No Deal: the 50 hard points × every ordered pair of the built-in negotiators played in
// memory (games/s per pair, and the belief workflow's cost relative to the cheapest pair), the whole
// data/runs/dond.json written to Parquet, the ingest of the configured val.txt (parse + merge +
// Parquet), and the full site build.
import {mkdtempSync, existsSync, readFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {performance} from "node:perf_hooks";
import {locateDataset} from "../loaders/datasets/catalog.js";
import {ingestDond} from "../loaders/papers/gtllm/dond/ingest.js";
import {writeIngest} from "../loaders/ingest/write.js";
import {buildSite} from "../loaders/site/build.js";
import {parseRunConfig} from "../loaders/runner/runConfig.js";
import {runTournament, writeTournament} from "../loaders/runner/tournament.js";

const NEGOTIATORS = ["greedy", "fair", "workflow-bayes"];

async function playPoints(): Promise<void> {
  // Warm-up: every pair once, untimed, so the first pairs timed do not pay for the JIT.
  await runTournament(parseRunConfig({game: "dond/negotiation", grid: "full", players: NEGOTIATORS, seed: 1, concurrency: 1}), {onGame: () => {}});
  console.log("dond play: 50 points × ordered pair, in memory (3 repetitions, after one untimed pass)");
  console.log("alice            bob              games   seconds   games/s   turns/s");
  const rates: Record<string, number> = {};
  for (const alice of NEGOTIATORS) {
    for (const bob of NEGOTIATORS) {
      const config = parseRunConfig({game: "dond/negotiation", grid: "full", players: [alice, bob].filter((x, i, a) => a.indexOf(x) === i), lineups: [[alice, bob]], games_per_lineup: 3, seed: 1, concurrency: 1});
      let games = 0;
      let turns = 0;
      const t0 = performance.now();
      await runTournament(config, {onGame: (r) => void ((games += 1), (turns += r.turns.length))});
      const seconds = (performance.now() - t0) / 1000;
      rates[`${alice}/${bob}`] = games / seconds;
      console.log(`${alice.padEnd(16)} ${bob.padEnd(16)} ${String(games).padStart(5)} ${seconds.toFixed(2).padStart(9)} ${Math.round(games / seconds).toString().padStart(9)} ${Math.round(turns / seconds).toString().padStart(9)}`);
    }
  }
  const fastest = Math.max(...Object.values(rates));
  console.log(`workflow-bayes self-play runs at ${(rates["workflow-bayes/workflow-bayes"] / fastest).toFixed(2)} × the fastest pair's games/s`);
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-dond-"));
  const config = parseRunConfig(JSON.parse(readFileSync(join(import.meta.dirname, "..", "data", "runs", "dond.json"), "utf8")), "dond");
  const t0 = performance.now();
  const files = await writeTournament(config, dir);
  const seconds = (performance.now() - t0) / 1000;
  console.log(`dond run data/runs/dond.json to Parquet: ${files.games} games, ${files.turns} turns in ${seconds.toFixed(2)} s (${Math.round(files.games / seconds)} games/s)`);
}

export default async function (): Promise<void> {
  await playPoints();
  if (process.env.PARLEY_BENCH_DOND_PLAY_ONLY === "1") return;
  const at = locateDataset("dond");
  if (!at.available) {
    console.log(`dond ingest: skipped (${at.hint})`);
  } else {
    const times: number[] = [];
    let dialogues = 0;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const result = ingestDond(at.path!);
      await writeIngest(result, mkdtempSync(join(tmpdir(), "parley-bench-")));
      times.push(performance.now() - t0);
      dialogues = result.tables[0].rows.length;
    }
    times.sort((a, b) => a - b);
    console.log(`dond ingest of ${at.entry.path} (${dialogues} dialogues, parse + Parquet): median ${times[2].toFixed(0)} ms, min ${times[0].toFixed(0)} ms over 5 runs`);
  }
  const dist = mkdtempSync(join(tmpdir(), "parley-bench-dist-"));
  const t0 = performance.now();
  const code = await buildSite({...process.env, PARLEY_DIST: dist});
  const seconds = (performance.now() - t0) / 1000;
  console.log(`site build (all data loaders + ${existsSync(join(dist, "index.html")) ? "pages" : "FAILED"}): ${seconds.toFixed(1)} s, exit ${code}`);
}
