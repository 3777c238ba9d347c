// `parley stats <paper>` prints what the per-paper command printed, for all
// five papers: the same output as its alias (dond-stats, gamabench-scores,
// econarena-stats, negotiationarena-stats, gtllm-stats, metrics), and the
// rows the old command's query gives when run straight on the run directory
// (the src/lib SQL it ran, with the games it selected). Doubles compare to 12
// significant digits: DuckDB sums in parallel, so the last bits vary from run
// to run. Then a measure that was only on a page, the other formats, and
// every measure of every paper on every built-in run of its paper played
// (and on each game of the run alone), as a user runs them on their own runs.
import {test} from "node:test";
import assert from "node:assert/strict";
import {cpSync, readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch} from "../support/cli.js";
import {rounded} from "../support/firstViewParity.js";
import {writeSmallGleeConfig} from "../support/smallGleeRun.js";
import {queryRun, withRunViews, writeParquet} from "../../loaders/io/parquet.js";
import {dataGame} from "../../loaders/registry/games.js";
import {dondStatsSQL, dondPairingSQL} from "../../src/lib/dond.js";
import {gtllmStatsSQL} from "../../src/lib/gtllm.js";
import {NA_PREFIX, pairStatsSQL} from "../../src/lib/negotiationArena.js";
import {econarenaViews, statsSQL} from "../../src/lib/econarena.js";
import {gamabenchViews, nestSummary, summarySQL, withScoresSQL, type SummaryRow} from "../../src/lib/gamabench.js";
import {gleeMetricsSQL} from "../../src/lib/gleeMetrics.js";
import {papers} from "../../loaders/papers/index.js";
import {playedDondRows} from "../../loaders/papers/gtllm/dond/ingest.js";
import {DOND_GAMES, DOND_TURNS} from "../../loaders/papers/gtllm/dond/tables.js";
import {ANALYSES} from "../../loaders/registry/analyses.js";
import {countGames} from "../../loaders/runner/grid.js";
import {parseRunConfig} from "../../loaders/runner/runConfig.js";
import {partitionGame, runTableFiles} from "../../loaders/io/runTables.js";
import {sqlFile, withDuckDB} from "../../loaders/io/duckdb.js";

const {dir: tempDir} = scratch("parley-stats-");

const plays = new Map<string, Promise<string>>();

/** Plays `config` (shard 0 of `shards`) into a new directory and returns it; each once for the whole file, which only reads them. */
function played(config: string, shards = 1): Promise<string> {
  const key = `${config} ${shards}`;
  if (!plays.has(key)) {
    plays.set(key, (async () => {
      const out = join(tempDir(), "run");
      const done = await parley(["run", config, "--out", out, "--quiet", ...(shards > 1 ? ["--shard", `0/${shards}`] : [])]);
      assert.equal(done.code, 0, done.stderr);
      return out;
    })());
  }
  return plays.get(key)!;
}

/** The printed JSON, or JSON Lines, as values. */
function parsed(stdout: string): unknown {
  try {
    return JSON.parse(stdout);
  } catch {
    return stdout.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
  }
}

async function printed(args: string[]): Promise<unknown> {
  const done = await parley(args);
  assert.equal(done.code, 0, `parley ${args.join(" ")}: ${done.stderr}`);
  return parsed(done.stdout);
}

interface Case {
  paper: string;
  alias: string;
  config: string | (() => string);
  /** What the old command computed, by its own query. */
  old(dir: string): Promise<unknown>;
}

const cases: Case[] = [
  {paper: "gtllm", alias: "gtllm-stats", config: "data/runs/gtllm.json", old: (dir) => queryRun(dir, ["games"], gtllmStatsSQL("games"), (g) => dataGame(g) !== undefined)},
  {paper: "negotiationarena", alias: "negotiationarena-stats", config: "data/runs/negotiationarena.json", old: (dir) => queryRun(dir, ["games"], pairStatsSQL("games"), (g) => g.startsWith(NA_PREFIX))},
  {
    paper: "econarena",
    alias: "econarena-stats",
    config: "data/runs/econarena.json",
    old: (dir) => withRunViews(dir, ["games", "players", "turns"], (g) => g.startsWith("econarena/"), async (db) => db.query(statsSQL(await econarenaViews((q) => db.query(q))))),
  },
  {
    paper: "gamabench",
    alias: "gamabench-scores",
    config: "data/runs/gamabench.json",
    old: (dir) =>
      withRunViews(dir, ["games", "turns"], (g) => g.startsWith("gamabench/"), async (db) => {
        const views = await gamabenchViews((q) => db.query(q));
        return nestSummary((await db.query(withScoresSQL(summarySQL("scores"), views.games, views.turns))) as unknown as SummaryRow[]);
      }),
  },
  {paper: "glee", alias: "metrics", config: () => writeSmallGleeConfig(tempDir(), 3), old: (dir) => queryRun(dir, ["games"], `${gleeMetricsSQL("games")} ORDER BY game_id`, (g) => g.startsWith("glee/"))},
];

for (const c of cases) {
  test(`parley stats ${c.paper} prints what parley ${c.alias} printed`, async () => {
    const dir = await played(typeof c.config === "string" ? c.config : c.config());
    const stats = await printed(["stats", c.paper, dir]);
    assert.deepEqual(rounded(stats), rounded(await printed([c.alias, dir])), "the alias");
    assert.deepEqual(rounded(stats), rounded(JSON.parse(JSON.stringify(await c.old(dir)))), "the old command's query");
    assert.ok(Array.isArray(stats) ? stats.length > 0 : Object.keys(stats as object).length > 0, "something to compare");
  });
}

test("parley stats gtllm: Deal or No Deal's Table 9 (dond-stats) and the pairings of Tables 10–13, 17–18, once only on /dond-played", async () => {
  const dir = await played("data/runs/dond.json");
  const keep = (g: string) => g === "dond/negotiation";
  for (const cumulative of [false, true]) {
    const flags = cumulative ? ["--cumulative"] : [];
    const stats = await printed(["stats", "gtllm", dir, "--measure", "dond-difficulty", ...flags]);
    assert.deepEqual(rounded(stats), rounded(await printed(["dond-stats", dir, ...flags])), "the alias");
    assert.deepEqual(rounded(stats), rounded(await queryRun(dir, ["games"], dondStatsSQL("games", {cumulative}), keep)), "the old command's query");
  }
  const pairings = await printed(["stats", "gtllm", dir, "--measure", "dond-pairings"]);
  assert.deepEqual(rounded(pairings), rounded(await queryRun(dir, ["games"], dondPairingSQL("games"), keep)));
  assert.ok((pairings as unknown[]).length > 0);
});

test("parley stats gtllm --measure dond-valuations: Tables 14–16 from a played run (seats) equal those from the same games reshaped as the site's archive (players)", async () => {
  const dir = await played("data/runs/dond.json");
  const archive = tempDir();
  const reshaped = playedDondRows({games: await queryRun(dir, ["games"], "SELECT * FROM games"), turns: await queryRun(dir, ["turns"], "SELECT * FROM turns")});
  await writeParquet(join(archive, "games.parquet"), DOND_GAMES, reshaped.games);
  await writeParquet(join(archive, "turns.parquet"), DOND_TURNS, reshaped.turns);
  const fromRun = (await printed(["stats", "gtllm", dir, "--measure", "dond-valuations"])) as {last: {player: string; n: number}[]; byRound: unknown[]};
  assert.deepEqual(rounded(fromRun), rounded(await printed(["stats", "gtllm", archive, "--measure", "dond-valuations"])));
  // workflow-bayes keeps a belief in either seat: as Alice against greedy, fair and itself, and as Bob against the same three.
  assert.deepEqual(fromRun.last.map((r) => r.player).sort(), ["alice", "alice", "alice", "bob", "bob", "bob"]);
  assert.ok(fromRun.last.every((r) => r.n > 0) && fromRun.byRound.length > fromRun.last.length);
});

test("parley stats: formats, several directories as one run, and errors that name the measure or the input", async () => {
  const dir = await played("data/runs/negotiationarena.json");
  const rows = (await printed(["stats", "negotiationarena", dir, "--format", "json"])) as Record<string, unknown>[];
  const csv = await parley(["stats", "negotiationarena", dir, "--format", "csv"]);
  const lines = csv.stdout.trim().split("\r\n");
  assert.equal(lines[0], Object.keys(rows[0]).join(","));
  assert.equal(lines.length, rows.length + 1);
  // The same run given twice counts every game twice.
  const twice = (await printed(["stats", "negotiationarena", dir, dir, "--format", "json"])) as {n: number}[];
  assert.deepEqual(twice.map((r) => r.n), rows.map((r) => 2 * Number(r.n)));
  const unknown = await parley(["stats", "negotiationarena", dir, "--measure", "nope"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no measure "nope" \(expected one of pairs, /);
  const wrong = await parley(["stats", "negotiationarena", dir, "--measure", "scenario-pairs", "--scenario", "poker"]);
  assert.match(wrong.stderr, /--scenario must be one of resource_exchange, ultimatum, buy_sell/);
  const empty = await parley(["stats", "gamabench", dir]);
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /holds no games table/);
  const listed = await parley(["stats", "gtllm", "--measures"]);
  assert.match(listed.stdout, /^dond-pairings\n/m);
});

/** Built-in runs up to this many games are played whole; a larger one (GLEE's default grid, 56,040 games) as one shard of about 1,000 games. */
const PLAYED_WHOLE = 5000;

/** The built-in runs (data/runs/<run>.json) of `paper`'s datasets: the runs its pages show, played at build time. */
function builtInRuns(paper: string): string[] {
  const datasets = papers.find((p) => p.id === paper)!.datasets;
  return [...new Set(datasets.flatMap((d) => [...(d.played ? [d.played.run] : []), ...(d.supplement?.runs ?? [])]))];
}

/** Plays a built-in run (sharded when large) and returns its directory. */
function playedBuiltIn(run: string): Promise<string> {
  const config = `data/runs/${run}.json`;
  const planned = countGames(parseRunConfig(JSON.parse(readFileSync(config, "utf8"))));
  return played(config, planned > PLAYED_WHOLE ? Math.ceil(planned / 1000) : 1);
}

/**
 * For a run of several games, directories that each hold one game's
 * partition alone, as a run of that game alone: one per distinct set of
 * columns (games and turns), since games that write the same columns fail alike.
 */
async function eachGameAlone(dir: string): Promise<string[]> {
  const partitions = readdirSync(dir).filter((name) => name.startsWith("game="));
  if (partitions.length < 2) return [];
  const shapes = new Map<string, string>();
  await withDuckDB(async (db) => {
    for (const name of partitions) {
      const files = ["games", "turns"].flatMap((table) => runTableFiles(dir, table, (game) => game === partitionGame(dir, name)).files);
      const columns = await db.query(`SELECT DISTINCT name FROM parquet_schema([${files.map(sqlFile).join(", ")}]) ORDER BY name`);
      const shape = `${columns.map((c) => c.name).join(",")}`;
      if (!shapes.has(shape)) shapes.set(shape, name);
    }
  });
  return [...shapes.values()].map((name) => {
    const alone = join(tempDir(), "alone");
    cpSync(join(dir, name), join(alone, name), {recursive: true, dereference: true});
    return alone;
  });
}

/**
 * Measures whose input no played run holds, with what does: they answer
 * nothing on a played run (an empty answer, or one line saying what is missing).
 */
const NOT_FROM_PLAYED_RUNS: Record<string, string> = {
  "glee/human-summary": "games a person played (parley ingest glee of GLEE's human-vs-LLM logs, or a study)",
  "glee/human-metrics": "games a person played",
  "glee/human-outcomes": "games a person played",
  "gtllm/dond-human-row": "the human outcomes recorded with the 50 hard points (parley ingest dond-hard50)",
};

const isEmpty = (value: unknown) => value === null || (Array.isArray(value) ? value.length === 0 : typeof value === "object" && Object.keys(value as object).length === 0);

for (const analysis of ANALYSES) {
  test(`parley stats ${analysis.paper}: every measure answers on every built-in run of the paper played, and on each of its games alone`, async () => {
    const runs = await Promise.all(builtInRuns(analysis.paper).map(playedBuiltIn));
    assert.ok(runs.length > 0, `${analysis.paper} has a built-in run`);
    const dirs = [...runs, ...(await Promise.all(runs.map(eachGameAlone))).flat()];
    for (const measure of analysis.measures) {
      const name = `${analysis.paper}/${measure.name}`;
      let answered = false;
      for (const dir of dirs) {
        const done = await parley(["stats", analysis.paper, dir, "--measure", measure.name, "--format", "json"]);
        // Exit 2 is a run without the measure's games or input, said in one line; never SQL that cannot read a played run's tables.
        assert.ok(done.code === 0 || (done.code === 2 && !/cannot read the tables/.test(done.stderr) && done.stderr.trim().split("\n").length === 1), `${name} on ${dir}: exit ${done.code}: ${done.stderr}`);
        if (done.code === 0 && !isEmpty(JSON.parse(done.stdout))) answered = true;
      }
      if (name in NOT_FROM_PLAYED_RUNS) assert.ok(!answered, `${name} answered from played runs, though it reads ${NOT_FROM_PLAYED_RUNS[name]}`);
      else assert.ok(answered, `${name}: an answer from at least one built-in run`);
    }
  });
}
