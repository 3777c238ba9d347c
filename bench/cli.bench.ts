/**
 * Command-line responsiveness (issue 11): wall time of `parley help`,
 * `parley agents` and `parley datasets` through bin/parley.js (target
 * < 0.3 s each), beside the same commands run through tsx as bin/parley.js
 * used to; and `parley regress` on a 10,000-game GLEE run made with
 * `parley run` in a scratch directory (target < 1.5 s). Medians of several
 * runs, after one that may build the compiled cache.
 */
import {spawnSync} from "node:child_process";
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {loadavg, tmpdir} from "node:os";
import {join} from "node:path";
import {performance} from "node:perf_hooks";
import {projectRoot} from "../loaders/config.js";

const BIN = join(projectRoot, "bin/parley.js");
const TSX = ["--import", "tsx", join(projectRoot, "loaders/cli.ts")];

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

function median(args: string[], runs: number): number {
  const times = Array.from({length: runs}, () => seconds(args)).sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
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

const line = (label: string, s: number, target?: number) =>
  console.log(`${label.padEnd(44)} ${s.toFixed(3)} s${target ? `   target < ${target} s: ${(s / target).toFixed(2)}× the target ${s < target ? "(met)" : "(MISSED)"}` : ""}`);

export default async function (): Promise<void> {
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} on this machine; medians of 7 runs (regress: 5)`);
  const first = seconds([BIN, "help"]);
  console.log(`first call (builds the compiled cache if it is stale): ${first.toFixed(3)} s`);
  const node = median(["-e", "0"], 7);
  line("node -e 0 (the floor)", node);
  const nodeCpu = cpuPerCall(["-e", "0"], 10);
  for (const command of ["help", "agents", "datasets"]) {
    const fast = median([BIN, command], 7);
    const old = median([...TSX, command], 3);
    line(`parley ${command}`, fast, 0.3);
    // On a busy machine every process starts slowly; what the command adds to a bare node is the part it owns.
    const cpu = cpuPerCall([BIN, command], 10);
    console.log(`  ${(fast - node).toFixed(3)} s above node -e 0${cpu === null ? "" : `; CPU ${cpu.toFixed(3)} s a call (node -e 0: ${nodeCpu!.toFixed(3)} s)`}`);
    line(`  through tsx (before), median of 3`, old);
    console.log(`  ${(old / fast).toFixed(1)}× faster than through tsx`);
  }

  const dir = mkdtempSync(join(tmpdir(), "parley-bench-cli-"));
  try {
    const config = join(dir, "bench-10k.json");
    writeFileSync(config, JSON.stringify(RUN_CONFIG));
    const out = join(dir, "run");
    const play = seconds([BIN, "run", config, "--out", out, "--quiet"]);
    console.log(`parley run: 10,000 bargaining games in ${play.toFixed(1)} s`);
    const regress = [BIN, "regress", out, "--family", "bargaining", "--metric", "efficiency"];
    const games = JSON.parse(spawnSync(process.execPath, regress, {encoding: "utf8", maxBuffer: 1 << 28}).stdout).summary.n;
    line(`parley regress (${games.toLocaleString("en-US")} games, 20 splits)`, median(regress, 5), 1.5);
    line(`parley regress --splits 0`, median([...regress, "--splits", "0"], 5), 1.5);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}
