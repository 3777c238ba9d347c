/**
 * Adaptive sampling (issue 37): games needed until every agent's rank
 * interval is at most a given width, adaptive (`parley run --adaptive`) vs
 * round-robin, with Kendall's τ to the true order and how often the 95 %
 * intervals cover the true strengths. Round-robin is the same planner with
 * every pick from the fixed cycle (each match in turn, every configuration
 * alike), stopped by the same rule, so the two arms differ only in which
 * games they choose. Target: adaptive at most 60 % of round-robin's games,
 * τ no lower.
 *
 * 1. Simulated agents with known strengths (test/support/adaptiveSimulation.ts,
 *    the planner the runner uses): the unit test's field, eight agents 0.8
 *    logit apart, and an uneven one with two near-ties, twenty
 *    configurations, over PARLEY_BENCH_SEEDS seeds (default 200); then few
 *    configurations that differ (each agent's effect in a configuration,
 *    SD 0.5; the truth is the population rating): four games of two
 *    configurations, one of four, one of two, a rank-interval width of 2 or
 *    2,000 games, over half as many seeds. With so few configurations the
 *    intervals' t has few degrees of freedom and may not reach the width
 *    within the budget in either arm: each line says how often each arm
 *    stopped "separated".
 * 2. The real runner against a loopback model endpoint: eight fake models of
 *    known strength (test/support/fakeBtModel.ts) playing gamma-Bench's
 *    guessing game through `runAdaptive` (HTTP, response cache,
 *    checkpoints, tables), rated by `parley ratings`' own code, over
 *    PARLEY_BENCH_LLM_SEEDS seeds (default 10). Each arm gets its own
 *    endpoint, whose draws follow arrival order: the arms do not share chance.
 * 3. Whether batches keep concurrency full: the same models answering after
 *    100 ms, 280 games of a fixed plan (every ordered pair once in each
 *    configuration) and 280 adaptive games, concurrency 16: requests open on
 *    average, and the ratio.
 */
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {allPairs, centred, kendallTau, rateRun, simulateAdaptive, trueRatings, type SimulatedField} from "../test/support/adaptiveSimulation.js";
import {startFakeLlm} from "../test/support/fakeLlm.js";
import {BT_MAX, btGuesser, btModel} from "../test/support/fakeBtModel.js";
import {rateAgents, type RatingsResult} from "../src/lib/ratings.js";
import {ratedGames} from "../src/lib/ratingsData.js";
import {seatRows} from "../loaders/cli/commands/seats.js";
import {parseRunConfig} from "../loaders/runner/runConfig.js";
import {runAdaptive} from "../loaders/runner/adaptive.js";
import {runResumable} from "../loaders/runner/resume.js";

const BATCH = 16;
const AGENTS = ["a", "b", "c", "d", "e", "f", "g", "h"];
const EVEN = Object.fromEntries(AGENTS.map((a, i) => [a, (AGENTS.length - 1 - i) * 0.8]));
const UNEVEN: Record<string, number> = {a: 3, b: 2.6, c: 1.6, d: 0.9, e: 0.5, f: -0.6, g: -1.6, h: -1.9};

interface Arm {
  games: number;
  tau: number;
  /** Share of agents whose 95 % interval holds the true (centred) strength. */
  covered: number;
  separated: boolean;
}

const mean = (xs: number[]) => xs.reduce((t, x) => t + x, 0) / xs.length;

function score(ratings: RatingsResult, strengths: Record<string, number>, truth: Record<string, number>, games: number, separated: boolean): Arm {
  return {
    games,
    tau: kendallTau(ratings, strengths),
    covered: mean(ratings.agents.map((a) => (a.rating_lo !== null && a.rating_lo <= truth[a.agent] && truth[a.agent] <= a.rating_hi! ? 1 : 0))),
    separated,
  };
}

function report(label: string, arms: {roundRobin: Arm[]; adaptive: Arm[]}): void {
  const [rr, ad] = [arms.roundRobin, arms.adaptive];
  const ratio = mean(ad.map((a) => a.games)) / mean(rr.map((a) => a.games));
  console.log(
    `${label}: round-robin ${mean(rr.map((a) => a.games)).toFixed(0)} games, adaptive ${mean(ad.map((a) => a.games)).toFixed(0)} ` +
      `(${(100 * ratio).toFixed(1)} %, target ≤ 60 %: ${(ratio / 0.6).toFixed(2)}× the target); ` +
      `Kendall τ ${mean(rr.map((a) => a.tau)).toFixed(3)} vs ${mean(ad.map((a) => a.tau)).toFixed(3)}; ` +
      `95 % intervals cover the true strengths ${(100 * mean(rr.map((a) => a.covered))).toFixed(1)} % vs ${(100 * mean(ad.map((a) => a.covered))).toFixed(1)} %; ` +
      `stopped separated ${rr.filter((a) => a.separated).length} vs ${ad.filter((a) => a.separated).length} of ${ad.length}`,
  );
}

/** `games` games of `configs` configurations each, every ordered pair of AGENTS; `configurationSd` as in SimulatedField. */
function field(strengths: Record<string, number>, games: number, configs: number, configurationSd = 0): SimulatedField {
  const families = Array.from({length: games}, (_, f) => ({family: games > 1 ? `sim/duel${f}` : "sim/duel", configs, lineups: allPairs(AGENTS)}));
  return {families, strengths, configurationSd};
}

function simulated(name: string, field: SimulatedField, width: number, seeds: number, maxGames = 20_000): void {
  const options = {targetWidth: width, maxGames, batchSize: BATCH};
  const truth = trueRatings(field);
  const arms = {roundRobin: [] as Arm[], adaptive: [] as Arm[]};
  const cpu = process.cpuUsage();
  for (let s = 1; s <= seeds; s++) {
    for (const [arm, exploreShare] of [["roundRobin", 1], ["adaptive", undefined]] as const) {
      const run = simulateAdaptive(field, {...options, ...(exploreShare && {exploreShare})}, s);
      arms[arm].push(score(rateRun(run), field.strengths, truth, run.games.length, run.stop === "separated"));
    }
  }
  const used = process.cpuUsage(cpu);
  report(`simulated, ${name}, rank intervals ≤ ${width}, ${seeds} seeds (${((used.user + used.system) / 1e6).toFixed(1)} s CPU)`, arms);
}

const RATIOS = [1 / 6, 1 / 3, 1 / 2, 2 / 3, 5 / 6];

/** The run config of the eight fake models on `baseURL` (extra keys: `lineups` and the like). */
function btConfig(baseURL: string, seed: number, extra: Record<string, unknown> = {}) {
  const players = AGENTS.map((id) => ({id: `m-${id}`, provider: "openai", model: btModel(EVEN[id]), base_url: baseURL, api_key_env: "PARLEY_BENCH_KEY", temperature: 1, max_tokens: 50, persona: null, timeout_ms: 10_000, max_retries: 2}));
  return parseRunConfig({game: "gamabench/guessing", grid: {rounds: [1], max: [BT_MAX], ratio: RATIOS}, players, n_players: 2, lineups: "all", games_per_lineup: 100, seed, concurrency: BATCH, ...extra}, "bench");
}

/** One seed of the loopback arm: a run of eight fake models through the runner, rated as `parley ratings` rates it. */
async function loopbackRun(baseURL: string, exploreShare: number | undefined, seed: number): Promise<Arm> {
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-adaptive-"));
  try {
    const out = join(dir, "out");
    const r = await runAdaptive(btConfig(baseURL, seed), out, {progress: null, adaptive: {targetWidth: 0, maxGames: 20_000, ...(exploreShare && {planner: {exploreShare}})}});
    const games = ratedGames(await seatRows("ratings", out, ""));
    const strengths = Object.fromEntries(AGENTS.map((id) => [`m-${id}`, EVEN[id]]));
    return score(rateAgents(games, {resamples: 1000}), strengths, centred(strengths), games.length, r.adaptive.stopped === "separated");
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

async function loopback(seeds: number): Promise<void> {
  process.env.PARLEY_BENCH_KEY ??= "sk-bench";
  const arms = {roundRobin: [] as Arm[], adaptive: [] as Arm[]};
  const started = performance.now();
  for (let s = 1; s <= seeds; s++) {
    for (const [arm, exploreShare] of [["roundRobin", 1], ["adaptive", undefined]] as const) {
      const server = await startFakeLlm("openai", btGuesser(1000 * s + (exploreShare ? 1 : 2)));
      try {
        arms[arm].push(await loopbackRun(server.baseURL, exploreShare, s));
      } finally {
        await server.close();
      }
    }
  }
  report(`loopback model endpoint, 8 fake models 0.8 logit apart, gamma-Bench guessing (5 configurations), rank intervals ≤ 0, ${seeds} seeds (${((performance.now() - started) / 1000).toFixed(0)} s)`, arms);
}

/**
 * Whether batches keep concurrency full: 280 games through the runner as a
 * fixed plan and adaptively, every answer 100 ms late; the endpoint keeps the
 * time-weighted mean of requests open, which is what a full concurrency
 * keeps near its limit whatever the machine's speed.
 */
async function throughput(): Promise<void> {
  const answer = btGuesser(7);
  let open = 0;
  let area = 0;
  let since = 0;
  let first: number | null = null;
  const tick = () => {
    const now = performance.now();
    area += open * (now - since);
    since = now;
    return now;
  };
  const server = await startFakeLlm("openai", async (r) => {
    first ??= tick();
    tick();
    open++;
    await new Promise((resolve) => setTimeout(resolve, 100));
    tick();
    open--;
    return answer(r);
  });
  /** Requests open on average from the first request to now; resets the count. */
  const meanOpen = () => {
    const end = tick();
    const mean = area / (end - (first ?? end));
    [area, first] = [0, null];
    return mean;
  };
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-adaptive-"));
  try {
    const pairs = AGENTS.flatMap((x) => AGENTS.filter((y) => y !== x).map((y) => [`m-${x}`, `m-${y}`]));
    const games = pairs.length * RATIOS.length;
    let t0 = performance.now();
    await runResumable(btConfig(server.baseURL, 1, {lineups: pairs, games_per_lineup: 1}), join(dir, "fixed"), {progress: null});
    const [fixed, fixedOpen] = [(performance.now() - t0) / 1000, meanOpen()];
    t0 = performance.now();
    const r = await runAdaptive(btConfig(server.baseURL, 1), join(dir, "adaptive"), {progress: null, adaptive: {targetWidth: 0, maxGames: games}});
    const [adaptive, adaptiveOpen] = [(performance.now() - t0) / 1000, meanOpen()];
    console.log(
      `concurrency ${BATCH}, answers 100 ms late: requests open on average ${fixedOpen.toFixed(1)} for a fixed plan of ${games} games (${fixed.toFixed(1)} s), ` +
        `${adaptiveOpen.toFixed(1)} for ${r.games} adaptive games (${adaptive.toFixed(1)} s, the final ratings included): ${(adaptiveOpen / fixedOpen).toFixed(2)}× the fixed plan's`,
    );
  } finally {
    await server.close();
    rmSync(dir, {recursive: true, force: true});
  }
}

export default async function (): Promise<void> {
  const seeds = Number(process.env.PARLEY_BENCH_SEEDS ?? 200);
  console.log(`batches of ${BATCH} games; the stop: every rank interval (rateAgents: cluster-robust over configurations, 1,000 draws) at most the width`);
  simulated("8 agents 0.8 logit apart, 20 configurations", field(EVEN, 1, 20), 0, seeds);
  simulated("8 agents 0.8 logit apart, 20 configurations", field(EVEN, 1, 20), 1, seeds);
  simulated(`8 agents at ${Object.values(UNEVEN).join(", ")}, 20 configurations`, field(UNEVEN, 1, 20), 0, Math.ceil(seeds / 2));
  for (const [games, configs] of [[4, 2], [1, 4], [1, 2]]) {
    simulated(`8 agents 0.8 logit apart, ${games} game${games > 1 ? "s" : ""} of ${configs} configurations (configuration SD 0.5), at most 2,000 games`, field(EVEN, games, configs, 0.5), 2, Math.ceil(seeds / 2), 2000);
  }
  await loopback(Number(process.env.PARLEY_BENCH_LLM_SEEDS ?? 10));
  await throughput();
}
