/**
 * Command-line responsiveness (issue 11): wall time of `parley help`,
 * `parley agents` and `parley datasets` through bin/parley.js (target
 * < 0.3 s each), beside the same commands run through tsx as bin/parley.js
 * used to; and `parley regress` on a 10,000-game GLEE run made with
 * `parley run` (target < 1.5 s), kept in node_modules/.cache/parley/bench
 * and played again only when missing or made from another config. Wall
 * times are the best of several runs (the machine is shared: the best run is
 * the one least slowed by other jobs) beside their median, with the load
 * average, after one call that may build the compiled cache.
 */
import {spawnSync} from "node:child_process";
import {existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync} from "node:fs";
import {loadavg} from "node:os";
import {join} from "node:path";
import {performance} from "node:perf_hooks";
import {projectRoot} from "../loaders/projectConfig.js";

const BIN = join(projectRoot, "bin/parley.js");
const TSX = ["--import", "tsx", join(projectRoot, "loaders/cli/main.ts")];

/** 5 × 5 × 4 × 2 × 2 configurations × 25 ordered pairs of five agents = 10,000 bargaining games. */
const RUN_CONFIG = {
  description: "cli bench: 10,000 bargaining games",
  family: "bargaining",
  grid: {delta_a: [0.8, 0.85, 0.9, 0.95, 1], delta_b: [0.8, 0.85, 0.9, 0.95, 1], money: [100, 1000, 10000, 1000000], horizon: [12, "inf"], complete_information: [true, false], messages: [true]},
  players: ["rubinstein", "fair", "greedy", "split-difference", "anchor"],
  pairs: "all",
  games_per_pair: 1,
  seed: 1,
};

function seconds(args: string[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, {cwd: projectRoot, encoding: "utf8", maxBuffer: 1 << 28});
  const elapsed = (performance.now() - start) / 1000;
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited with ${r.status}: ${r.stderr.trim().split("\n").pop()}`);
  return elapsed;
}

/** Best and median wall time of `runs` calls. */
function timed(args: string[], runs: number): {best: number; median: number} {
  const times = Array.from({length: runs}, () => seconds(args)).sort((a, b) => a - b);
  return {best: times[0], median: times[Math.floor(times.length / 2)]};
}

/**
 * CPU seconds (user + system) that finished child processes have used, from
 * /proc/self/stat (cutime, cstime; Linux, 100 ticks a second), or null
 * elsewhere. Unlike wall time it hardly moves when other jobs share the cores.
 */
function childCpu(): number | null {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

/** Mean CPU seconds per call over `runs` calls. */
function cpuPerCall(args: string[], runs: number): number | null {
  const before = childCpu();
  for (let i = 0; i < runs; i++) seconds(args);
  const after = childCpu();
  return before === null || after === null ? null : (after - before) / runs;
}

const line = (label: string, {best, median}: {best: number; median: number}, target?: number) =>
  console.log(`${label.padEnd(44)} best ${best.toFixed(3)} s, median ${median.toFixed(3)} s${target ? `   target < ${target} s: best ${(best / target).toFixed(2)}× the target ${best < target ? "(met)" : "(MISSED)"}` : ""}`);

const load = () => loadavg().map((x) => x.toFixed(1)).join(" ");

/** The 10,000-game run, played once and kept with the config it was played from (made aside and renamed into place, so a stopped bench leaves none half made). */
function benchRun(): string {
  const dir = join(projectRoot, "node_modules/.cache/parley/bench/cli-10k");
  const wanted = JSON.stringify(RUN_CONFIG);
  const config = (d: string) => join(d, "config.json");
  if (existsSync(config(dir)) && readFileSync(config(dir), "utf8") === wanted) return join(dir, "run");
  const making = `${dir}.tmp-${process.pid}`;
  mkdirSync(making, {recursive: true});
  writeFileSync(config(making), wanted);
  const play = seconds([BIN, "run", config(making), "--out", join(making, "run"), "--quiet"]);
  rmSync(dir, {recursive: true, force: true});
  renameSync(making, dir);
  console.log(`parley run: 10,000 bargaining games in ${play.toFixed(1)} s (kept in ${dir})`);
  return join(dir, "run");
}

export default async function (): Promise<void> {
  console.log(`load average ${load()} on this machine; best and median of 9 runs (regress: 7)`);
  const first = seconds([BIN, "help"]);
  console.log(`first call (builds the compiled cache if it is stale): ${first.toFixed(3)} s`);
  const node = timed(["-e", "0"], 9);
  line("node -e 0 (the floor)", node);
  const nodeCpu = cpuPerCall(["-e", "0"], 10);
  for (const command of ["help", "agents", "datasets"]) {
    const fast = timed([BIN, command], 9);
    const old = timed([...TSX, command], 3);
    line(`parley ${command}`, fast, 0.3);
    // On a busy machine every process starts slowly; what the command adds to a bare node is the part it owns.
    const cpu = cpuPerCall([BIN, command], 10);
    console.log(`  ${(fast.best - node.best).toFixed(3)} s above node -e 0 (best)${cpu === null ? "" : `; CPU ${cpu.toFixed(3)} s a call (node -e 0: ${nodeCpu!.toFixed(3)} s)`}`);
    line(`  through tsx (before), 3 runs`, old);
    console.log(`  ${(old.best / fast.best).toFixed(1)}× faster than through tsx`);
  }

  const out = benchRun();
  const regress = [BIN, "regress", out, "--family", "bargaining", "--metric", "efficiency"];
  const games = JSON.parse(spawnSync(process.execPath, regress, {encoding: "utf8", maxBuffer: 1 << 28}).stdout).summary.n;
  line(`parley regress (${games.toLocaleString("en-US")} games, 20 splits)`, timed(regress, 7), 1.5);
  line(`parley regress --splits 0`, timed([...regress, "--splits", "0"], 7), 1.5);
  console.log(`load average at the end ${load()}`);
}
