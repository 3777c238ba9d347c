// A generalisation protocol end to end: a run config declaring focal agents,
// seen and unseen co-players and held-out configurations -> `parley run`
// (real games, real Parquet, the protocol in the manifest) -> `parley ratings
// --generalisation` (native DuckDB, the shared SQL) -> gaps checked against
// the construction. And the protocol's mistakes, one line naming the key.
//
// The construction (Game-theoretic LLM workflows' Prisoner's Dilemma, Table 2a:
// (C,C) 3/3, (C,D) 0/5, (D,C) 5/0, (D,D) 1/1): the focal `equilibrium` defects
// (defecting is dominant); its seen co-player `random` cooperates with
// probability ½, so the focal seat's return there has mean ½·5 + ½·1 = 3 and its
// win share ½·1 + ½·½ = ¾; its unseen co-players `workflow-ne` and
// `best-response` defect too, so there it gets 1 and ties (½). The seen − unseen
// gap is 2 in return and ¼ in win share; talk (the held-out configuration,
// negotiation_rounds 4) changes no one's move, so the configurations gap is 0;
// self-play gives 1, cross-play (1 random lineup, 2 unseen, both seat orders) 5/3.
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {parley, scratch} from "../support/cli.js";
import {ConfigError, parseRunConfig} from "../../loaders/runner/runConfig.js";
import {heldOutConfigIds} from "../../loaders/runner/generalisationConfig.js";
import {expandGrid} from "../../loaders/runner/grid.js";

const {dir: tempDir} = scratch("parley-generalisation-");

const config = {
  description: "A focal agent that exploits its seen co-player only",
  game: "gtllm/prisoners_dilemma",
  grid: {negotiation_rounds: [0, 4]},
  players: ["equilibrium", "random", "workflow-ne", "best-response"],
  lineups: "all",
  games_per_lineup: 30,
  seed: 11,
  generalisation: {focal: ["equilibrium"], seen: ["random"], unseen: ["workflow-ne", "best-response"], held_out: {negotiation_rounds: [4]}},
};

interface Row {
  focal: string;
  measure: string;
  comparison: string;
  mean_a: number;
  mean_b: number;
  lo_b: number;
  hi_b: number;
  gap: number;
  gap_lo: number | null;
  gap_hi: number | null;
  seats_a: number;
  seats_b: number;
}

// An interval that is there (not null: JSON's null compares as 0) and holds the truth.
const within = (r: Row, truth: number) => r.gap_lo !== null && r.gap_hi !== null && r.gap_lo <= truth && truth <= r.gap_hi;

test("parley run + parley ratings --generalisation: the seen − unseen gap matches the construction within its interval, the null gaps too", async () => {
  const dir = tempDir();
  const file = join(dir, "exploit.json");
  writeFileSync(file, JSON.stringify(config));
  const out = join(dir, "run");
  const run = await parley(["run", file, "--out", out, "--quiet"]);
  assert.equal(run.code, 0, run.stderr);
  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
  // Configurations in grid order: negotiation_rounds 0 is config 0, 4 is config 1.
  assert.deepEqual(manifest.generalisation, {focal: ["equilibrium"], seen: ["random"], unseen: ["workflow-ne", "best-response"], held_out: {"gtllm/prisoners_dilemma": {parameters: {negotiation_rounds: [4]}, config_ids: [1]}}});

  const r = await parley(["ratings", out, "--generalisation"]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  // Focal seats: 2 configurations × 30 games × (2 self-play seats + 2 orders × 3 co-players).
  assert.deepEqual(report.seats, {"self-play": 120, seen: 120, unseen: 240, mixed: 0, other: 0});
  assert.deepEqual(report.configurations, {seen: 1, held_out: 1});
  const row = (comparison: string, measure: string): Row => report.rows.find((x: Row) => x.comparison === comparison && x.measure === measure);

  const co = row("co-players", "return");
  assert.ok(within(co, 2) && co.gap_lo! > 0, `seen − unseen return: ${co.gap} [${co.gap_lo}, ${co.gap_hi}] should hold 2 and not 0`);
  assert.deepEqual([co.mean_b, co.lo_b, co.hi_b, co.seats_a, co.seats_b], [1, 1, 1, 120, 240], "against the unseen co-players every focal seat gets exactly 1");
  const coWins = row("co-players", "win share");
  assert.ok(within(coWins, 0.25) && coWins.gap_lo! > 0, `seen − unseen win share: ${coWins.gap} [${coWins.gap_lo}, ${coWins.gap_hi}]`);
  const configs = row("configurations", "return");
  assert.ok(within(configs, 0), `seen − held-out configurations: ${configs.gap} [${configs.gap_lo}, ${configs.gap_hi}] should hold 0`);
  const selfCross = row("self-play vs cross-play", "return");
  assert.equal(selfCross.mean_a, 1);
  assert.ok(within(selfCross, 1 - 5 / 3), `self-play − cross-play: ${selfCross.gap} [${selfCross.gap_lo}, ${selfCross.gap_hi}] should hold −2/3`);
  assert.ok(report.notes.some((n: string) => /single seen or held-out configuration/.test(n)), "one configuration a side is said");
  assert.equal(report.method, "cluster-robust");

  // A run whose config declares no protocol: one line naming it.
  const plain = join(dir, "plain.json");
  writeFileSync(plain, JSON.stringify({...config, generalisation: undefined, games_per_lineup: 1}));
  assert.equal((await parley(["run", plain, "--out", join(dir, "plain"), "--quiet"])).code, 0);
  const none = await parley(["ratings", join(dir, "plain"), "--generalisation"]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^parley ratings: --generalisation: .*plain declares no generalisation protocol \(its manifest has none\); expected a directory written by "parley run" from a config with a "generalisation" key/);
  assert.equal(none.stderr.trim().split("\n").length, 1);
});

test("a protocol's mistakes are one line naming the key, before any game", async () => {
  const cases: [unknown, RegExp][] = [
    [{seen: ["random"]}, /^generalisation: "focal" is required/],
    [{focal: ["equilibrium"], seen: ["random"], unseen: ["random"]}, /^generalisation\.unseen\[0\]: "random" is listed twice \(also generalisation\.seen\[0\]\)/],
    [{focal: ["fair"]}, /^generalisation\.focal\[0\]: "fair" is not among players \(equilibrium, random, workflow-ne, best-response\)/],
    [{focal: ["equilibrium"], held_out: {negotiation_rounds: [2]}}, /^generalisation\.held_out\.negotiation_rounds\[0\]: 2 is not among the values played of negotiation_rounds \(0, 4\)/],
    [{focal: ["equilibrium"], held_out: {negotiation_rounds: [0, 4]}}, /^generalisation\.held_out: holds out every configuration of gtllm\/prisoners_dilemma; keep at least one seen/],
    [{focal: ["equilibrium"], background: ["random"]}, /^generalisation\.background: unknown key; expected one of focal, seen, unseen, held_out/],
  ];
  for (const [generalisation, pattern] of cases) assert.throws(() => parseRunConfig({...config, generalisation}), (e: Error) => e instanceof ConfigError && pattern.test(e.message));
  // Through the command line: the file, the key, exit code 2, nothing played.
  const dir = tempDir();
  const file = join(dir, "bad.json");
  writeFileSync(file, JSON.stringify({...config, generalisation: cases[1][0]}));
  const r = await parley(["run", file, "--out", join(dir, "bad"), "--quiet"]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^parley run: .*bad\.json: generalisation\.unseen\[0\]: "random" is listed twice/);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.equal(existsSync(join(dir, "bad")), false);
});

test("held-out configuration ids are the grid's own order (expandGrid): every named parameter among its listed values", () => {
  const grid = {a: [1, 2, 3], b: ["x", "y"], c: [true, false]};
  const all = expandGrid(grid);
  const held = {a: [2, 3], c: [false]};
  assert.deepEqual(heldOutConfigIds(grid, held), all.flatMap((p, id) => (held.a.includes(p.a as number) && held.c.includes(p.c as boolean) ? [id] : [])));
  assert.deepEqual(heldOutConfigIds(grid, held), [5, 7, 9, 11]);
  // A multi-game config keyed by game id: each game's own ids.
  const parsed = parseRunConfig({game: ["gtllm/prisoners_dilemma", "gtllm/stag_hunt"], grid: {negotiation_rounds: [0, 4], who_first: ["alice", "bob"]}, players: ["equilibrium", "random"], generalisation: {focal: ["equilibrium"], held_out: {"gtllm/stag_hunt": {who_first: ["bob"]}}}});
  assert.deepEqual(parsed.generalisation!.held_out, {"gtllm/stag_hunt": {parameters: {who_first: ["bob"]}, config_ids: [1, 3]}});
});
