/**
 * Past one process: a scripted GLEE run (Table 1's full grid × every ordered
 * pair of built-in agents, repeated until it reaches --games, default
 * 1,000,000) played by `parley run` as one process and as 4 shards in 4
 * parallel processes (`--shard i/4`, one directory). Prints games/s, peak
 * memory (maxRSS) per process (target < 500 MiB at any size: it should not
 * grow with the games, see loaders/io/parquet.ts and run/idHashes.ts) and
 * Parquet bytes per game, then times
 * `parley regress` on the shard directory (target < 2 s) and checks that it
 * answers as on the one-process run. Last, builds the site with the shard
 * directory configured as a run (a temporary parley.config.json with
 * "runs", through PARLEY_CONFIG), timing first the run's own data loader
 * (its archive) alone, and prints the build time, the run's bytes
 * in the built site (its row-level tables against the first views its GLEE
 * pages draw from) and each GLEE page's first-view and fully-drawn times with
 * the run selected (bench/pageTiming.ts; skipped without Chromium).
 *
 * Past the first views, it times what a visitor asks next with the run
 * selected: another game's transcript (row groups by HTTP Range,
 * bench/lookups.bench.ts) and every section rescored with GLEE's code
 * formulas (DuckDB-WASM on the run's games).
 *
 *   npm run bench -- scale [--games N]
 *   PARLEY_BENCH_SCALE_RUN=<run dir> npm run bench -- scale    the site part alone, on a run already played
 */
import {spawn} from "node:child_process";
import {existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {datasetsConfig, projectRoot} from "../loaders/projectConfig.js";
import {buildSite} from "../loaders/site/build.js";
import {serveStatic} from "../loaders/site/serve.js";
import type {Browser} from "playwright-core";
import {launch, settle} from "../test/browser/harness.js";
import {measurePicks} from "./lookups.bench.js";
import {measure} from "./pageTiming.js";
import {parseRunConfig} from "../loaders/runner/runConfig.js";
import {countGames} from "../loaders/runner/grid.js";
import {runSlug} from "../loaders/ownRuns/configuredRuns.js";

const GRID_GAMES = 56_040; // one game per configuration and ordered pair (bench/glee.bench.ts)

interface Timed {
  seconds: number;
  maxRssMiB: number;
  stdout: string;
  /** Bytes written to stdout. */
  bytes: number;
}

/** Runs `node <args>` under GNU time: wall seconds and the process's peak resident memory. */
function timedNode(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const child = spawn("/usr/bin/time", ["-f", "%e %M", process.execPath, ...args], {stdio: ["ignore", "pipe", "pipe"], env});
    let stdout = "";
    let bytes = 0;
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c;
      bytes += c.length;
    });
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => {
      const last = stderr.trim().split("\n").at(-1) ?? "";
      const [seconds, kib] = last.split(" ").map(Number);
      if (code !== 0 || !Number.isFinite(seconds)) reject(new Error(`node ${args.join(" ")} failed (${code}): ${stderr.trim()}`));
      else resolve({seconds, maxRssMiB: kib / 1024, stdout, bytes});
    });
  });
}

/** `parley <args>` under GNU time (timedNode). */
const timedParley = (args: string[]) => timedNode([join(projectRoot, "bin/parley.js"), ...args]);

/** Bytes of every file under `dir` whose name ends with `ext` (through the table sets' links). */
function bytesOf(dir: string, ext = ".parquet"): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    if (name.startsWith(".")) continue;
    const path = join(dir, name);
    const s = statSync(path);
    if (s.isDirectory()) total += bytesOf(path, ext);
    else if (name.endsWith(ext)) total += s.size;
  }
  return total;
}

const MiB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** Opens `url`, checks the radio labelled `label` and times until every section has drawn again; the Parquet bytes and tables fetched meanwhile. */
async function timeChange(browser: Browser, url: string, label: string): Promise<{ms: number; bytes: number; tables: string[]}> {
  const context = await browser.newContext({viewport: {width: 1280, height: 900}});
  const page = await context.newPage();
  const fetched = {bytes: 0, tables: new Set<string>()};
  page.on("response", async (r) => {
    const path = new URL(r.url()).pathname;
    if (!path.endsWith(".parquet")) return;
    fetched.bytes += (await r.body().catch(() => Buffer.alloc(0))).length;
    fetched.tables.add(path.split("/").at(-1)!.split(".")[0]);
  });
  try {
    await page.goto(url, {waitUntil: "load"});
    await settle(page);
    Object.assign(fetched, {bytes: 0, tables: new Set()});
    const t0 = performance.now();
    await page.getByLabel(label).first().check();
    await settle(page);
    return {ms: performance.now() - t0, bytes: fetched.bytes, tables: [...fetched.tables]};
  } finally {
    await context.close();
  }
}

/** The site built with `run` configured: build time, the run's bytes in it, and its GLEE pages' times with the run selected. */
async function siteWithRun(dir: string, run: string, games: number): Promise<void> {
  const NAME = "Scale bench";
  const config = join(dir, "parley.config.json");
  writeFileSync(config, JSON.stringify({datasets: datasetsConfig().dir ?? undefined, runs: [{path: run, name: NAME}]}));
  // The run's own share of the build: its archive (tables per group and first views), as Framework runs its loader.
  const loader = await timedNode(["--import", "tsx", join(projectRoot, "src/data/runs/[run].tar.ts"), `--run=${runSlug(NAME)}`], {...process.env, PARLEY_CONFIG: config});
  console.log(`the run's data loader (its archive: tables per page group and the GLEE pages' first views): ${loader.seconds.toFixed(1)} s, peak memory ${loader.maxRssMiB.toFixed(0)} MiB, ${MiB(loader.bytes)}`);
  const dist = join(dir, "dist");
  const t0 = performance.now();
  const code = await buildSite({...process.env, PARLEY_CONFIG: config, PARLEY_DIST: dist});
  if (code !== 0) throw new Error(`site build failed with exit code ${code}`);
  console.log(`site build with the run configured: ${((performance.now() - t0) / 1000).toFixed(1)} s (the whole site, built-in datasets included)`);
  const files = join(dist, "_file/data/runs");
  const rows = bytesOf(files, ".parquet");
  const first = bytesOf(files, ".json");
  console.log(`the run in the built site: row-level tables ${MiB(rows)} (${(rows / games).toFixed(1)} bytes/game, fetched only for a question the first views do not answer), first views and run.json ${MiB(first)}`);
  if (!existsSync(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium")) return console.log("page times: skipped (no Chromium)");
  const server = await serveStatic(dist);
  const browser = await launch();
  try {
    const seconds = (ms: number | null) => (ms === null ? "–" : `${(ms / 1000).toFixed(2)} s`);
    const withRun = (path: string) => `${server.url}${path}?${new URLSearchParams({dataset: NAME})}`;
    for (const path of ["/glee-bargaining", "/glee-negotiation", "/glee-persuasion", "/glee-regression", "/glee-pairs", "/study-discount"]) {
      const {cold, warm} = await measure(browser, server, `${path}?${new URLSearchParams({dataset: NAME})}`);
      const problems = [...cold.problems, ...warm.problems];
      console.log(`${path.padEnd(18)} with the run: first view ${seconds(cold.first)}, fully drawn ${seconds(cold.full)} (cold); revisit ${seconds(warm.first)} / ${seconds(warm.full)}${problems.length ? `; problems: ${problems.join("; ")}` : ""}`);
    }
    // Past the first view: questions it does not hold, on the run's rows.
    for (const p of await measurePicks(browser, withRun("/glee-bargaining"))) {
      console.log(`/glee-bargaining, One game, ${p.what}: transcript in ${seconds(p.ms)}, ${(p.bytes / 1024).toFixed(0)} KiB of Parquet in ${p.requests} request(s)${p.whole ? `, ${p.whole} whole file(s)` : ""}`);
    }
    for (const path of ["/glee-bargaining", "/glee-regression"]) {
      const change = await timeChange(browser, withRun(path), "as GLEE's code computes");
      console.log(`${path}, every section rescored with GLEE's code formulas (DuckDB-WASM on the run's games): ${seconds(change.ms)}, ${MiB(change.bytes)} of Parquet (${change.tables.join(", ")})`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

/** PARLEY_BENCH_SCALE_RUN=<run dir>: the site part alone, on a run already played (e.g. kept from an earlier bench). */
async function siteOnly(run: string): Promise<void> {
  const {queryRun} = await import("../loaders/io/parquet.js");
  const [{n}] = await queryRun(run, ["games"], "SELECT count(*)::INTEGER AS n FROM games");
  console.log(`run: ${run}, ${Number(n).toLocaleString("en-US")} games (PARLEY_BENCH_SCALE_RUN; not played here)`);
  const dir = mkdtempSync(join(tmpdir(), "parley-scale-bench-"));
  try {
    await siteWithRun(dir, run, Number(n));
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

function gamesOption(): number {
  const i = process.argv.indexOf("--games");
  if (i < 0) return 1_000_000;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--games: expected a positive integer, got ${process.argv[i + 1]}`);
  return n;
}

export default async function (): Promise<void> {
  const existing = process.env.PARLEY_BENCH_SCALE_RUN;
  if (existing) return siteOnly(existing);
  const wanted = gamesOption();
  const raw = {family: "all", grid: "full", players: "all", pairs: "all", games_per_pair: Math.max(1, Math.ceil(wanted / GRID_GAMES)), seed: 1, run_id: "scale"};
  const games = countGames(parseRunConfig(raw, "scale"));
  const dir = mkdtempSync(join(tmpdir(), "parley-scale-bench-"));
  try {
    const config = join(dir, "scale.json");
    writeFileSync(config, JSON.stringify(raw));
    console.log(`run: GLEE full grid × all ordered pairs × ${raw.games_per_pair} = ${games.toLocaleString("en-US")} games (asked for ${wanted.toLocaleString("en-US")})`);

    const one = join(dir, "one");
    const single = await timedParley(["run", config, "--out", one, "--quiet", "--yes"]);
    const oneBytes = bytesOf(one);
    console.log(`1 process:  ${single.seconds.toFixed(1)} s, ${Math.round(games / single.seconds).toLocaleString("en-US")} games/s, peak memory ${single.maxRssMiB.toFixed(0)} MiB (target < 500), Parquet ${(oneBytes / games).toFixed(1)} bytes/game (${MiB(oneBytes)})`);

    const sharded = join(dir, "shards");
    const t0 = performance.now();
    const shards = await Promise.all([0, 1, 2, 3].map((i) => timedParley(["run", config, "--out", sharded, "--shard", `${i}/4`, "--quiet", "--yes"])));
    const wall = (performance.now() - t0) / 1000;
    const shardBytes = bytesOf(sharded);
    console.log(
      `4 shards:   ${wall.toFixed(1)} s, ${Math.round(games / wall).toLocaleString("en-US")} games/s (×${(single.seconds / wall).toFixed(2)} vs 1 process on ${(await import("node:os")).availableParallelism()} cores), ` +
        `peak memory per process ${shards.map((s) => s.maxRssMiB.toFixed(0)).join(", ")} MiB, Parquet ${(shardBytes / games).toFixed(1)} bytes/game`,
    );

    const args = ["--family", "bargaining", "--metric", "alice_self_gain"];
    const regress = await timedParley(["regress", sharded, ...args]);
    const whole = await timedParley(["regress", one, ...args]);
    const a = JSON.parse(regress.stdout);
    const b = JSON.parse(whole.stdout);
    const worst = Math.max(...a.rows.map((r: {coef: number}, i: number) => Math.abs(r.coef - b.rows[i].coef)), Math.abs(a.summary.rmse.mean - b.summary.rmse.mean));
    console.log(`parley regress on the 4-shard directory (${a.summary.n.toLocaleString("en-US")} bargaining games): ${regress.seconds.toFixed(2)} s end to end (target < 2 s), peak memory ${regress.maxRssMiB.toFixed(0)} MiB; on the 1-process run ${whole.seconds.toFixed(2)} s; largest difference between the two ${worst.toExponential(1)}`);
    const bare = await timedParley(["games"]);
    console.log(`(the command line's own start-up, \`parley games\`: ${bare.seconds.toFixed(2)} s)`);
    rmSync(one, {recursive: true, force: true}); // only the shards are needed from here on
    await siteWithRun(dir, sharded, games);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}
