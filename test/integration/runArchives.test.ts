// Configured runs of every game, as the pages read them: small runs of
// gamma-Bench, NegotiationArena, Deal or No Deal, Economics Arena and the
// matrix games played by built-in agents, each turned into its site archive
// (loaders/ownRuns/runArchives.ts runArchive: one flat table set per analysis group,
// in the tables of the dataset those pages read), and the pages' own SQL in
// native DuckDB over the archive's tables gives what the CLI gives on the
// run directory. Deal or No Deal's played turns are reshaped into the human
// dialogues' turns (playedDondRows), which /dond-beliefs reads.
import {before, test} from "node:test";
import assert from "node:assert/strict";
import {execFileSync} from "node:child_process";
import {existsSync, mkdirSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {scratch, parley} from "../support/cli.js";
import {datasetsConfig} from "../../loaders/projectConfig.js";
import {runArchive, runsModule} from "../../loaders/ownRuns/runArchives.js";
import {withParquetViews} from "../../loaders/io/parquet.js";
import type {Query} from "../../src/lib/snapshot.js";
import {prepareGamabench} from "../../src/lib/pages/gamabench.js";
import {prepareArena} from "../../src/lib/pages/negotiationArena.js";
import {negotiationArenaAnalysis} from "../../src/analyses/negotiationarena.js";
import {prepareEconarena} from "../../src/lib/pages/econarena.js";
import {econarenaAnalysis} from "../../src/analyses/econarena.js";
import {gtllmAnalysis, valuationSummaries} from "../../src/analyses/gtllm.js";
import {gamabenchAnalysis} from "../../src/analyses/gamabench.js";
import {measureSQL} from "../../src/analyses/analysis.js";
import {gtllmStatsSQL} from "../../src/lib/gtllm.js";
import {dondStatsSQL, dondBeliefSQL} from "../../src/lib/dond.js";
import {HARD_POINTS_SQL} from "../../src/lib/pages/dond.js";
import {bestRow} from "../../src/lib/dondPaper.js";

const {dir: tempDir} = scratch("parley-run-archives-");
let root: string;
let env: NodeJS.ProcessEnv;

const RUNS: Record<string, Record<string, unknown>> = {
  gb: {game: ["gamabench/guessing", "gamabench/divide_dollar"], players: ["equilibrium", "random"], lineups: "self", games_per_lineup: 2, seed: 3},
  na: {game: ["negotiationarena/ultimatum", "negotiationarena/buy_sell"], players: ["rational", "split-difference", "random"], lineups: "all", games_per_lineup: 3, seed: 3},
  deals: {game: "dond/negotiation", grid: "full", players: ["greedy", "workflow-bayes"], lineups: "all", seed: 1},
  ea: {
    game: "econarena/auction", grid: {environment: ["senior"], runs: [1, 3], pricing: ["second", "english"], scale: ["M"]},
    players: ["rational", "shade-25", "random"], lineups: [["rational", "shade-25", "random", "rational", "shade-25"]], games_per_lineup: 2, max_attempts: 1, seed: 3,
  },
  mg: {game: ["gtllm/prisoners_dilemma", "gtllm/escalation"], players: ["equilibrium", "random", "workflow-ne"], lineups: "all", games_per_lineup: 2, seed: 3},
};

const json = (r: {code: number | null; stdout: string; stderr: string}) => {
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
};

before(async () => {
  root = tempDir();
  for (const [name, config] of Object.entries(RUNS)) {
    writeFileSync(join(root, `${name}.json`), JSON.stringify({run_id: name, ...config}));
    json(await parley(["run", join(root, `${name}.json`), "--out", join(root, "runs", name)]));
  }
  // An ingest too: Deal or No Deal's human dialogues (flat tables with a family, no game column).
  json(await parley(["ingest", "dond", join(datasetsConfig().dir!, "dealornodeal", "val.txt"), "--out", join(root, "runs", "dialogues")]));
  writeFileSync(join(root, "parley.config.json"), JSON.stringify({runs: ["runs/*"]}));
  env = {...process.env, PARLEY_CONFIG: join(root, "parley.config.json")};
});

/** Extracts run `slug`'s archive; returns the directory of its group `group`. */
async function archive(slug: string, group: string): Promise<string> {
  const out = join(root, "archives", slug);
  if (!existsSync(out)) {
    mkdirSync(out, {recursive: true});
    writeFileSync(`${out}.tar`, await runArchive(slug, env));
    execFileSync("tar", ["xf", `${out}.tar`, "-C", out]);
    assert.equal(JSON.parse(readFileSync(join(out, "run.json"), "utf8")).problem, null, slug);
  }
  return join(out, group);
}

/** Runs `fn` with the page's query function over the group's tables. */
async function onArchive<T>(dir: string, tables: string[], fn: (query: Query) => Promise<T>): Promise<T> {
  return withParquetViews(Object.fromEntries(tables.map((t) => [t, join(dir, `${t}.parquet`)])), (db) => fn((sql, params) => db.query(sql, params)));
}

/** Rows compared with doubles to 12 significant digits (aggregation order differs between layouts), in a canonical order. */
const canonical = (rows: readonly object[]) => rows.map((r) => JSON.stringify(r, (_k, v) => (typeof v === "number" && !Number.isInteger(v) ? Number(v.toPrecision(12)) : typeof v === "bigint" ? Number(v) : v))).sort();

test("the generated module names each run's tables under the group of the pages that analyse its games", async () => {
  const text = await runsModule(env);
  for (const [slug, group] of [["gb", "gamabench"], ["na", "negotiationarena"], ["deals", "dond"], ["dialogues", "dond"], ["ea", "econarena"], ["mg", "gtllm"]]) {
    assert.match(text, new RegExp(`slug: "${slug}".*\\n.*\\n\\s*tables: \\{"${group}": \\{games: FileAttachment\\("\\.\\./data/runs/${slug}/${group}/games\\.parquet"\\)\\.href`), slug);
  }
});

test("gamma-Bench: /gamabench's scores from the archive are parley gamabench-scores'", async () => {
  const dir = await archive("gb", "gamabench");
  const cli = JSON.parse(json(await parley(["gamabench-scores", join(root, "runs", "gb")]))) as Record<string, Record<string, {mean: number; sd: number; runs: number}>>;
  const summary = await onArchive(dir, ["games", "turns"], async (query) => {
    await prepareGamabench(query);
    return query(measureSQL(gamabenchAnalysis, "summary"));
  });
  const page = summary.map((r) => ({model: r.model, game: r.game, mean: r.mean, sd: r.sd, runs: Number(r.runs)}));
  const expected = Object.entries(cli).flatMap(([model, games]) => Object.entries(games).map(([game, s]) => ({model, game, mean: s.mean, sd: s.sd, runs: s.runs})));
  assert.equal(expected.length, 4);
  assert.deepEqual(canonical(page), canonical(expected));
});

test("NegotiationArena: /negotiationarena's pairs from the archive are parley negotiationarena-stats'", async () => {
  const dir = await archive("na", "negotiationarena");
  const cli = json(await parley(["negotiationarena-stats", join(root, "runs", "na")])).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(cli.length, 18);
  const page = await onArchive(dir, ["games"], async (query) => {
    await prepareArena(query);
    return query(measureSQL(negotiationArenaAnalysis, "labelled-pairs"));
  });
  assert.deepEqual(canonical(page), canonical(cli));
});

test("Deal or No Deal: the archive's games give parley dond-stats, and its reshaped turns give /dond-beliefs its beliefs", async () => {
  const dir = await archive("deals", "dond");
  const cli = JSON.parse(json(await parley(["dond-stats", join(root, "runs", "deals")])));
  assert.equal(cli.reduce((s: number, r: {n: number}) => s + r.n, 0), 200);
  const page = await onArchive(dir, ["games"], (query) => query(dondStatsSQL("games", {cumulative: false})));
  assert.deepEqual(canonical(page), canonical(cli));
  // /dond-played's Best row from the 50 points the run played (no recorded points in a run): Table 10's Best row, 44 points with an envy-free allocation, 5.82 + 6.66 = 12.48.
  const best = bestRow((await onArchive(dir, ["games"], (query) => query(HARD_POINTS_SQL))) as never);
  assert.deepEqual([best.n, best.score_a.toFixed(2), best.score_b.toFixed(2), best.total.toFixed(2)], [44, "5.82", "6.66", "12.48"]);
  // Turns in the human dialogues' layout: players by name, every turn of the run, and workflow-bayes's beliefs read by the page's SQL.
  const [{n, alice, beliefs}] = await onArchive(dir, ["turns"], (query) => query(`SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE player = 'alice')::INTEGER AS alice, count(belief)::INTEGER AS beliefs FROM turns`));
  const [run] = await withParquetViews({turns: join(root, "runs", "deals", "game=dond%2Fnegotiation", "turns.parquet")}, (db) => db.query(`SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE seat = 0)::INTEGER AS alice, count(belief)::INTEGER AS beliefs FROM turns`));
  assert.deepEqual({n, alice, beliefs}, run);
  assert.ok(Number(beliefs) > 0);
  const summaries = await onArchive(dir, ["games", "turns"], async (query) => ({rows: (await query(dondBeliefSQL("games", "turns"))).length, summary: await valuationSummaries.compute(query, {})}));
  assert.ok(summaries.rows > 0);
  assert.ok(JSON.stringify(summaries.summary).length > 2);
});

test("Deal or No Deal ingested: the dialogues join the /dond pages' group as they are, and give parley dond-stats", async () => {
  const dir = await archive("dialogues", "dond");
  const cli = JSON.parse(json(await parley(["dond-stats", join(root, "runs", "dialogues")])));
  const page = await onArchive(dir, ["games"], (query) => query(dondStatsSQL("games", {cumulative: false})));
  assert.deepEqual(canonical(page), canonical(cli));
  const [{n}] = await onArchive(dir, ["games"], (query) => query(`SELECT count(*)::INTEGER AS n FROM games WHERE alice_agent = 'human'`));
  assert.equal(n, 562);
  const glee = await onArchive(join(dir, "..", "glee"), ["games"], (query) => query(`SELECT count(*)::INTEGER AS n FROM games`));
  assert.equal(glee[0].n, 0, "not GLEE games");
});

test("Economics Arena: /econarena's measures from the archive (rows the page reads only) are parley econarena-stats'", async () => {
  const dir = await archive("ea", "econarena");
  const cli = JSON.parse(json(await parley(["econarena-stats", join(root, "runs", "ea")])));
  assert.ok(cli.length > 0);
  const page = await onArchive(dir, ["games", "players", "turns"], async (query) => {
    await prepareEconarena(query);
    return query(measureSQL(econarenaAnalysis, "stats"));
  });
  assert.deepEqual(canonical(page), canonical(cli));
});

test("Matrix and tree games: /gtllm's rates from the archive are parley gtllm-stats'", async () => {
  const dir = await archive("mg", "gtllm");
  const cli = JSON.parse(json(await parley(["gtllm-stats", join(root, "runs", "mg")])));
  assert.ok(cli.length > 0);
  const page = await onArchive(dir, ["games"], async (query) => {
    await query(measureSQL(gtllmAnalysis, "tables-5-8"));
    return query(gtllmStatsSQL("games"));
  });
  assert.deepEqual(canonical(page), canonical(cli));
});
