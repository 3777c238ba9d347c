// `parley stats <paper>` prints what the per-paper command printed, for all
// five papers: the same output as its alias (dond-stats, gamabench-scores,
// econarena-stats, negotiationarena-stats, gtllm-stats, metrics), and the
// rows the old command's query gives when run straight on the run directory
// (the src/lib SQL it ran, with the games it selected). Doubles compare to 12
// significant digits: DuckDB sums in parallel, so the last bits vary from run
// to run. Then a measure that was only on a page, and the other formats.
import {test} from "node:test";
import assert from "node:assert/strict";
import {join} from "node:path";
import {parley, scratch} from "../support/cli.js";
import {rounded} from "../support/firstViewParity.js";
import {writeSmallGleeConfig} from "../support/smallGleeRun.js";
import {queryRun, withRunViews} from "../../loaders/io/parquet.js";
import {dataGame} from "../../loaders/registry/games.js";
import {dondStatsSQL, dondPairingSQL} from "../../src/lib/dond.js";
import {gtllmStatsSQL} from "../../src/lib/gtllm.js";
import {NA_PREFIX, pairStatsSQL} from "../../src/lib/negotiationArena.js";
import {econarenaViews, statsSQL} from "../../src/lib/econarena.js";
import {gamabenchViews, nestSummary, summarySQL, withScoresSQL, type SummaryRow} from "../../src/lib/gamabench.js";
import {gleeMetricsSQL} from "../../src/lib/gleeMetrics.js";

const {dir: tempDir} = scratch("parley-stats-");

/** Plays `config` into a new directory and returns it. */
async function played(config: string): Promise<string> {
  const out = join(tempDir(), "run");
  const done = await parley(["run", config, "--out", out, "--quiet"]);
  assert.equal(done.code, 0, done.stderr);
  return out;
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
