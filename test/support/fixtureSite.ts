/**
 * The one site every browser test opens, built once per change of the sources.
 *
 * A fixture project in the temporary directory: the configured datasets
 * (linked, never copied) plus a Deal-or-No-Deal dialogue whose text is HTML
 * and a NegotiationArena game with a hostile message and hidden reasoning;
 * a parley.config.json naming six small runs (a GLEE study with an LLM
 * player on a fake OpenAI server on loopback, gamma-Bench, NegotiationArena
 * and Deal-or-No-Deal runs of built-in agents, two small GLEE runs that
 * differ in one player and the seed) and one missing run; the site built from
 * it (in a network namespace with no network when this runs as root, as CI
 * does) and, beside it, the site built with no datasets at all.
 *
 * Test files run in processes of their own, possibly at once: the first to
 * ask builds (holding a lock), the others wait for it. The build is kept
 * under a hash of its inputs (the sources, the datasets' listing and this
 * fixture's code), so a changed source builds afresh.
 */
import {spawn, spawnSync} from "node:child_process";
import {createHash} from "node:crypto";
import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join, relative} from "node:path";
import {datasetsConfig, projectRoot} from "../../loaders/projectConfig.js";
import {parley, type Done} from "./cli.js";
import {startFakeLlm} from "./fakeLlm.js";
import {gleeBot} from "./gleeBot.js";

export interface FixtureSite {
  /** The fixture project: parley.config.json, runs/, datasets/. */
  root: string;
  /** The site built from it. */
  dist: string;
  /** The site built with an empty datasets folder and no runs. */
  emptyDist: string;
  config: string;
  datasets: string;
  runs: Record<RunId, string>;
  /** The game id of the Deal-or-No-Deal dialogue whose text is HTML. */
  hostileDondGame: string;
  /** true when the site was built with no network, else why not. */
  offline: true | string;
  /** What `parley build` printed building it. */
  buildLog: string;
}

type RunId = "study" | "gamabench" | "negotiationarena" | "dond" | "a" | "b";

/** The fixture's runs: config, and the name and description `parley runs add` gives them. */
export const FIXTURE_RUNS = {
  study: {name: "My study", description: "fake-mini against fair and greedy"},
  gamabench: {name: "Strategies mini", description: "two gamma-Bench games", config: {game: ["gamabench/guessing", "gamabench/divide_dollar"], players: ["equilibrium", "random"], lineups: "self", games_per_lineup: 2, seed: 3}},
  // Its config declares a generalisation protocol, which /ratings reports (test/browser/compareRatings.test.ts).
  negotiationarena: {
    name: "Arena mini", description: "ultimatum and buy/sell",
    config: {game: ["negotiationarena/ultimatum", "negotiationarena/buy_sell"], players: ["rational", "split-difference", "random"], lineups: "all", games_per_lineup: 3, seed: 3, generalisation: {focal: ["rational"], seen: ["split-difference"], unseen: ["random"]}},
  },
  dond: {name: "Deals mini", description: "greedy and fair on the 50 points", config: {game: "dond/negotiation", grid: "full", players: ["greedy", "fair"], lineups: "all", seed: 1}},
  a: {name: "Small A", config: smallGlee(["fair", "greedy"], 3)},
  b: {name: "Small B", config: smallGlee(["rubinstein", "greedy"], 4)},
} as const;

/** The price table of the fixture's config: /ratings plots the LLM player's rating against its cost per game. */
export const FIXTURE_PRICE = {input_per_million: 2, output_per_million: 8, as_of: "2026-11-01"};
export const HOSTILE_DOND = "<img src=x onerror=alert(1)> can i have the hats ?";
export const HOSTILE_ARENA = {message: "<img src=x onerror=alert(1)> 45 ZUP, final offer", secret: "my real limit is 60 <b>do not tell</b>"};

/** A small GLEE run: 2 bargaining configurations × every ordered pair of the two players = 8 games. */
function smallGlee(players: string[], seed: number) {
  return {
    family: "bargaining",
    grid: {delta_a: [0.9, 0.95], delta_b: [0.8], money: [1000], horizon: [12], complete_information: [true], messages: [true]},
    players, pairs: "all", games_per_pair: 1, seed,
  };
}

const base = join(tmpdir(), "parley-test-builds");

/** The fixture site, built now or by another test process (waited for). */
export async function fixtureSite(): Promise<FixtureSite> {
  const key = fixtureKey();
  const final = join(base, `fixture-${key}`);
  const manifest = join(final, "site.json");
  for (;;) {
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, "utf8")) as FixtureSite;
    // A build that failed in this test run (npm test names the run) is not tried again by each test file.
    const failed = existsSync(`${final}.failed`) ? readFileSync(`${final}.failed`, "utf8") : "";
    if (failed && process.env.PARLEY_TEST_RUN && failed.startsWith(`${process.env.PARLEY_TEST_RUN}\n`)) throw new Error(`the fixture site failed to build: ${failed}`);
    const lock = join(base, `fixture-${key}.lock`);
    if (takeLock(lock)) {
      try {
        if (!existsSync(manifest)) await buildFixture(final);
      } finally {
        rmSync(lock, {recursive: true, force: true});
      }
      continue;
    }
    await sleep(500);
  }
}

/**
 * Runs `use` while no other test process builds or previews the project's
 * own site tree: a build rewrites src/generated/runs.js and clears
 * src/.observablehq/cache, which `parley dev` and other builds read.
 */
export async function withSiteTree<T>(use: () => Promise<T>): Promise<T> {
  const lock = join(base, `site-tree-${createHash("sha256").update(projectRoot).digest("hex").slice(0, 12)}.lock`);
  while (!takeLock(lock)) await sleep(500);
  try {
    return await use();
  } finally {
    rmSync(lock, {recursive: true, force: true});
  }
}

/** Takes a lock directory (atomic mkdir) holding this process's id; a lock whose process is gone is taken over. */
function takeLock(lock: string): boolean {
  mkdirSync(base, {recursive: true});
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, "pid"), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  let pid = 0;
  try {
    pid = Number(readFileSync(join(lock, "pid"), "utf8"));
  } catch {
    // being written: wait
    return false;
  }
  if (pid && !alive(pid)) rmSync(lock, {recursive: true, force: true});
  return false;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// What a build is made of: the site's sources and the configured datasets (names, sizes, times).
const BUILD_INPUTS = ["src", "loaders", "data", "observablehq.config.ts", "parley.config.json", "package-lock.json", "test/support", "test/fixtures/dond"];
const NOT_INPUTS = new Set(["generated", ".observablehq"]);

function fixtureKey(): string {
  const hash = createHash("sha256");
  const walk = (path: string, hashContent: boolean) => {
    const stat = statSync(path, {throwIfNoEntry: false});
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) if (!NOT_INPUTS.has(name)) walk(join(path, name), hashContent);
      return;
    }
    hash.update(`${relative(projectRoot, path)}\0`);
    hash.update(hashContent ? readFileSync(path) : `${stat.size} ${stat.mtimeMs}`);
  };
  for (const input of BUILD_INPUTS) walk(join(projectRoot, input), true);
  const datasets = datasetsConfig().dir;
  hash.update(`datasets ${datasets}\0`);
  if (datasets) walk(datasets, false);
  for (const name of ["PARLEY_CONFIG", "PARLEY_DATASETS", "PARLEY_GAMES_DIR"]) hash.update(`${name}=${process.env[name] ?? ""}\0`);
  return hash.digest("hex").slice(0, 16);
}

async function buildFixture(root: string): Promise<void> {
  const failure = `${root}.failed`;
  rmSync(failure, {force: true});
  // Built where it stays (run manifests and the config name their paths); site.json, written last, says it is whole.
  rmSync(root, {recursive: true, force: true});
  mkdirSync(root, {recursive: true});
  try {
    const datasets = fixtureDatasets(join(root, "datasets"));
    const {runs, config} = await fixtureRuns(root, datasets.dir);
    const emptyDatasets = join(root, "empty-datasets");
    mkdirSync(emptyDatasets);
    // One after the other: a build rewrites the site tree's generated files.
    const {full, bare} = await withSiteTree(async () => ({
      full: await buildSiteProcess({PARLEY_CONFIG: config, PARLEY_DIST: join(root, "dist")}),
      bare: await buildSiteProcess({PARLEY_DATASETS: emptyDatasets, PARLEY_DIST: join(root, "empty-dist")}),
    }));
    for (const [what, done] of [["the fixture site", full], ["the site with no datasets", bare]] as const) {
      if (done.code !== 0) throw new Error(`${what} failed to build (exit ${done.code}):\n${tail(done.stdout + done.stderr)}`);
    }
    writeFileSync(join(root, "build.log"), full.stdout + full.stderr);
    const site: FixtureSite = {
      root,
      dist: join(root, "dist"),
      emptyDist: join(root, "empty-dist"),
      config,
      datasets: datasets.dir,
      runs,
      hostileDondGame: datasets.hostileDondGame,
      offline: full.offline,
      buildLog: join(root, "build.log"),
    };
    writeFileSync(join(root, "site.json"), JSON.stringify(site, null, 2));
  } catch (error) {
    writeFileSync(failure, `${process.env.PARLEY_TEST_RUN ?? ""}\n${error instanceof Error ? error.message : String(error)}`);
    rmSync(root, {recursive: true, force: true});
    throw error;
  }
}

const tail = (text: string) => text.split("\n").slice(-40).join("\n");

/**
 * The configured datasets, linked, with Deal or No Deal's validation split
 * plus one dialogue whose text is HTML, and NegotiationArena's runs plus one
 * game with a hostile message and hidden reasoning. The originals are never modified.
 */
function fixtureDatasets(dir: string): {dir: string; hostileDondGame: string} {
  mkdirSync(dir);
  const source = datasetsConfig().dir;
  const own = new Set(["dealornodeal", "negotiationarena"]);
  const exists = (name: string) => !!source && existsSync(join(source, name));
  if (source && existsSync(source)) for (const name of readdirSync(source)) if (!own.has(name)) symlinkSync(join(source, name), join(dir, name));

  mkdirSync(join(dir, "dealornodeal"));
  const realText = exists("dealornodeal/val.txt") ? readFileSync(join(source!, "dealornodeal/val.txt"), "utf8") : "";
  const hostile = readFileSync(join(projectRoot, "test/fixtures/dond/hand.txt"), "utf8").split("\n").slice(2, 4).join("\n");
  writeFileSync(join(dir, "dealornodeal/val.txt"), realText + hostile + "\n");
  const hostileDondGame = `dond-${realText.split("\n").filter(Boolean).length + 1}`;

  const arena = join(dir, "negotiationarena");
  mkdirSync(arena);
  if (exists("negotiationarena")) for (const run of readdirSync(join(source!, "negotiationarena"))) symlinkSync(join(source!, "negotiationarena", run), join(arena, run));
  mkdirSync(join(arena, "0000000000001"));
  writeFileSync(join(arena, "0000000000001", "game_state.json"), JSON.stringify(hostileArenaGame()));
  return {dir, hostileDondGame};
}

/** A NegotiationArena buy/sell game as the authors' logs store it: a hostile public message, hidden reasoning, a deal at 45. */
function hostileArenaGame() {
  const res = (r: Record<string, number>) => ({_type: "resource", _value: r});
  const goal = (kind: string, x: number) => ({_type: "goal", _value: {_type: kind, _value: {_type: "valuation", _value: {X: x}}}});
  return {
    class: "BuySellGame",
    run_epoch_time_ms: "0000000000001",
    iterations: 10,
    players: [{model: "red-model", agent_name: "Player RED"}, {model: "blue-model", agent_name: "Player BLUE"}],
    game_state: [
      {current_iteration: "START", turn: "None", settings: {player_goals: [goal("seller_goal", 40), goal("buyer_goal", 60)], player_initial_resources: [res({X: 1}), res({ZUP: 100})], player_social_behaviour: ["", ""]}},
      {current_iteration: 1, turn: 0, player_public_info_dict: {message: HOSTILE_ARENA.message, "player answer": "PROPOSAL", "newly proposed trade": {_type: "trade", _value: {RED: res({X: 1}), BLUE: res({ZUP: 45})}}}, player_private_info_dict: {reason: "start at 45"}},
      {current_iteration: 2, turn: 1, player_public_info_dict: {message: "deal", "player answer": "ACCEPT", "newly proposed trade": "NONE"}, player_private_info_dict: {reason: HOSTILE_ARENA.secret}},
      {current_iteration: "END", turn: "None", summary: {}},
    ],
  };
}

/**
 * The fixture's runs, played by `parley run` and added to its config by
 * `parley runs add`, as a researcher does: the GLEE study's LLM player is a
 * fake OpenAI server on loopback that plays from the prompt text.
 */
async function fixtureRuns(root: string, datasets: string): Promise<{runs: Record<RunId, string>; config: string}> {
  const ok = (what: string, r: Done) => {
    if (r.code !== 0) throw new Error(`fixture: ${what} failed (exit ${r.code}): ${r.stderr.trim()}`);
    return r.stdout;
  };
  const config = join(root, "parley.config.json");
  writeFileSync(config, JSON.stringify({datasets, runs: ["runs/missing"], prices: {"openai/fake-mini": FIXTURE_PRICE}}, null, 2));
  const env = {PARLEY_CONFIG: config};
  const runs = {} as Record<RunId, string>;
  const llm = await startFakeLlm("openai", gleeBot());
  try {
    const configs: Record<RunId, object> = {
      study: {
        family: "bargaining",
        grid: {delta_a: [0.9, 0.95], delta_b: [0.8, 0.9], money: [1000], horizon: [12], complete_information: [true], messages: [true]},
        players: [{id: "fake-mini", provider: "openai", model: "fake-mini", base_url: llm.baseURL, api_key_env: "PARLEY_FAKE_KEY", temperature: 1, max_tokens: 400, persona: null}, "fair", "greedy"],
        pairs: "all", games_per_pair: 1, seed: 5, concurrency: 4,
      },
      gamabench: {run_id: "gamabench", ...FIXTURE_RUNS.gamabench.config},
      negotiationarena: {run_id: "negotiationarena", ...FIXTURE_RUNS.negotiationarena.config},
      dond: {run_id: "dond", ...FIXTURE_RUNS.dond.config},
      a: FIXTURE_RUNS.a.config,
      b: FIXTURE_RUNS.b.config,
    };
    mkdirSync(join(root, "configs"));
    // Played two at a time: each is a process of its own.
    const ids = Object.keys(configs) as RunId[];
    const play = async (id: RunId) => {
      const file = join(root, "configs", `${id}.json`);
      writeFileSync(file, JSON.stringify(configs[id]));
      runs[id] = join(root, "runs", id);
      ok(`parley run ${id}`, await parley(["run", file, "--out", runs[id], "--quiet"], {PARLEY_FAKE_KEY: "sk-test-not-a-secret"}));
    };
    for (let i = 0; i < ids.length; i += 2) await Promise.all(ids.slice(i, i + 2).map(play));
  } finally {
    await llm.close();
  }
  // Added one after another: each rewrites the config.
  for (const id of Object.keys(FIXTURE_RUNS) as RunId[]) {
    const run = FIXTURE_RUNS[id] as {name: string; description?: string};
    ok(`parley runs add ${id}`, await parley(["runs", "add", runs[id], "--name", run.name, ...(run.description ? ["--description", run.description] : [])], env));
  }
  return {runs, config};
}

/**
 * `parley build` as a process of its own, in a network namespace with no
 * network when it can be (as root, with unshare), so every browser test
 * also proves the build needs no network.
 */
function buildSiteProcess(env: Record<string, string>): Promise<Done & {offline: true | string}> {
  const probe = spawnSync("unshare", ["-n", "true"]);
  const offline: true | string = probe.error ? "unshare is not installed" : probe.status !== 0 ? "unshare -n needs root (CI runs as root)" : true;
  const command = [process.execPath, join(projectRoot, "bin/parley.js"), "build"];
  const [file, ...args] = offline === true ? ["unshare", "-n", ...command] : command;
  const child = spawn(file!, args, {cwd: projectRoot, env: {...process.env, ...env}, stdio: ["ignore", "pipe", "pipe"]});
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr += c));
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({code, signal, stdout, stderr, offline})));
}
