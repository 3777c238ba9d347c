// Hand-built run tables -> Parquet (partitioned by game, as `parley run`
// writes) and a flat GLEE games table -> native DuckDB -> `parley ratings`;
// a run with turns and a manifest -> the controlled ranking, the ties model
// and Nash averaging, checked against the score equations and hand sums.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {mkdirSync, mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {writeParquet} from "../../loaders/io/parquet.js";
import {COMMON_GAME_COLUMNS, COMMON_PLAYER_COLUMNS, COMMON_TURN_COLUMNS, partitionDir} from "../../loaders/contract/tables.js";
import {buildManifest, writeManifest} from "../../loaders/runner/manifest.js";
import {withParquetViews} from "../../loaders/io/parquet.js";
import {seatTurnsSQL} from "../../src/lib/ratingCovariates.js";
import {createRng} from "../../src/lib/rng.js";
import {queryWasm} from "../support/wasmDuckDB.js";
import {GLEE_GAMES} from "../../loaders/papers/glee/tables.js";
import {projectRoot} from "../../loaders/projectConfig.js";
import {parley as cli} from "../support/cli.js";

function parley(...args: string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {encoding: "utf8"});
  return {code: r.status, stdout: r.stdout, stderr: r.stderr};
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

test("parley ratings: a partitioned run and a flat GLEE table, read by DuckDB, rated and checked against the score equations", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-ratings-"));
  const run = join(dir, "run");
  const part = join(run, partitionDir("toy/duel"));
  mkdirSync(part, {recursive: true});
  // Four games, two in each seat order; A wins both as first seat and one of two as second: A 3 wins, B 1.
  const outcomes: [string, string, number, number][] = [
    ["A", "B", 1, 0],
    ["A", "B", 1, 0],
    ["B", "A", 0, 1],
    ["B", "A", 1, 0],
  ];
  const games = outcomes.map((_, i) => ({game_id: `duel-${i}`, source: "test", config_id: i, n_players: 2}));
  const players = outcomes.flatMap(([first, second, r0, r1], i) => [
    {game_id: `duel-${i}`, seat: 0, agent: first, return: r0},
    {game_id: `duel-${i}`, seat: 1, agent: second, return: r1},
  ]);
  await writeParquet(join(part, "games.parquet"), {name: "games", columns: COMMON_GAME_COLUMNS, key: ["game_id"]}, games);
  await writeParquet(join(part, "players.parquet"), {name: "players", columns: COMMON_PLAYER_COLUMNS, key: ["game_id", "seat"]}, players);
  // A flat GLEE table of two other agents: X beats Y in both games.
  const glee = join(dir, "glee");
  mkdirSync(glee);
  const gleeRow = (i: number, alice: string, bob: string, ua: number, ub: number) => ({game_id: `b${i}`, source: "test", family: "bargaining", config_id: i, alice_agent: alice, bob_agent: bob, alice_utility: ua, bob_utility: ub});
  await writeParquet(join(glee, "games.parquet"), GLEE_GAMES, [
    gleeRow(0, "X", "Y", 0.6, 0.4),
    gleeRow(1, "Y", "X", 0.3, 0.7),
    // Self-play, each in its own configuration (so not a matched comparison): completes the 2 × 2 meta-game.
    gleeRow(2, "X", "X", 0.5, 0.5),
    gleeRow(3, "Y", "Y", 0.5, 0.5),
  ]);

  // Default weighting: the mean family weight is (4 + 2) / 2 = 3, so the
  // duel family's 4 comparisons are scaled by 3/4: A's 3 wins count 2.25.
  const weighted = JSON.parse(parley("ratings", run, glee, "--resamples", "0").stdout);
  assert.equal(weighted.agents.find((a: {agent: string}) => a.agent === "A").wins, 2.25);
  assert.equal(weighted.agents.find((a: {agent: string}) => a.agent === "X").wins, 2);
  // Every family equal: both at the mean weight 3, so the GLEE family's 2 comparisons count 3 (X won both).
  const equal = JSON.parse((await cli(["ratings", run, glee, "--resamples", "0", "--weighting", "equal"])).stdout);
  assert.equal(equal.weighting, "equal");
  assert.equal(equal.agents.find((a: {agent: string}) => a.agent === "A").wins, 2.25);
  assert.equal(equal.agents.find((a: {agent: string}) => a.agent === "X").wins, 3);
  const r = parley("ratings", run, glee, "--resamples", "100", "--weighting", "games");
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const agent = (name: string) => out.agents.find((a: {agent: string}) => a.agent === name);
  assert.deepEqual(out.components.map((c: string[]) => [...c].sort()), [["A", "B"], ["X", "Y"]]);
  assert.equal(agent("A").wins, 3);
  assert.equal(agent("A").games, 4);
  assert.equal(agent("A").rank, 1);
  assert.equal(agent("X").rank, 1);
  assert.equal(agent("A").component, agent("B").component);
  assert.notEqual(agent("A").component, agent("X").component);
  // Maximum likelihood with one virtual tie per agent against strength 1 (log 0):
  // W_i + ½ = Σ_j n_ij σ(θ_i − θ_j) + σ(θ_i), before centring; centring keeps differences.
  // Solve the two equations by bisection here, independently of the library.
  const gap = agent("A").rating - agent("B").rating;
  let lo = -5;
  let hi = 5;
  // With θ_B = θ_A − gap, A's equation fixes θ_A.
  for (let n = 0; n < 200; n++) {
    const mid = (lo + hi) / 2;
    const f = 3.5 - 4 * sigmoid(gap) - sigmoid(mid);
    if (f > 0) lo = mid;
    else hi = mid;
  }
  const thetaA = lo;
  const thetaB = thetaA - gap;
  assert.ok(Math.abs(1.5 - 4 * sigmoid(thetaB - thetaA) - sigmoid(thetaB)) < 1e-7, "B's score equation holds at the reported gap");
  assert.ok(agent("A").rating_lo <= agent("A").rating && agent("A").rating <= agent("A").rating_hi);
  assert.equal(out.resamples, 100);
  // Only the GLEE family has every pairing (the duel has no self-play): X's
  // mean payoff beats Y's against both, so α-Rank puts its mass on X.
  assert.deepEqual(out.alpha_rank.map((a: {family: string}) => a.family), ["glee/bargaining"]);
  const [alpha] = out.alpha_rank;
  assert.ok(alpha.seat0.find((s: {agent: string}) => s.agent === "X").mass > 0.99);
  assert.ok(alpha.seat1.find((s: {agent: string}) => s.agent === "X").mass > 0.99);
});

/**
 * A run of one two-seat game: an LLM player's model ("mini", gpt-4o-mini) also
 * played with its legal moves listed ("mini-legal"), and a scripted agent
 * ("fair"), every ordered pair once in each of 12 configurations; the LLM
 * seats' turns count output and thinking tokens and rule breaks, the
 * scripted seats' none; the manifest is the one `parley run` writes.
 */
async function runWithTurns(dir: string) {
  const rng = createRng(17);
  const agents = ["fair", "mini", "mini-legal"];
  const games: Record<string, unknown>[] = [];
  const players: {game_id: string; seat: number; agent: string; return: number}[] = [];
  const turns: Record<string, unknown>[] = [];
  for (let c = 0; c < 12; c++) {
    for (const a of agents) {
      for (const b of agents) {
        if (a === b) continue;
        const game_id = `duel-${games.length}`;
        games.push({game_id, source: "test", config_id: c, repetition: 0, n_players: 2});
        const [ra, rb] = [rng.int(4), rng.int(4)];
        players.push({game_id, seat: 0, agent: a, return: ra}, {game_id, seat: 1, agent: b, return: rb});
        for (const [seat, agent] of [a, b].entries()) {
          for (let t = 0; t < 3; t++) {
            const llm = agent !== "fair";
            const output = llm ? 20 + rng.int(60) : null;
            turns.push({game_id, turn: 2 * t + seat, round: t + 1, seat, attempt: 1, rule_break: llm && rng.next() < 0.2, output_tokens: output, reasoning_tokens: llm ? rng.int(10) : null, input_tokens: llm ? 100 : null});
          }
        }
      }
    }
  }
  const part = join(dir, partitionDir("toy/duel"));
  mkdirSync(part, {recursive: true});
  await writeParquet(join(part, "games.parquet"), {name: "games", columns: COMMON_GAME_COLUMNS, key: ["game_id"]}, games);
  await writeParquet(join(part, "players.parquet"), {name: "players", columns: COMMON_PLAYER_COLUMNS, key: ["game_id", "seat"]}, players);
  await writeParquet(join(part, "turns.parquet"), {name: "turns", columns: COMMON_TURN_COLUMNS, key: ["game_id", "turn"]}, turns);
  const llm = (id: string, legal: boolean) => ({id, provider: "openai", model: "gpt-4o-mini", harness: {legal_moves: legal, structured_output: false, retries: 2, votes: 1, prompt_layout: "authors" as const}});
  const config = {game: "toy/duel", players: ["fair", {id: "mini", provider: "openai", model: "gpt-4o-mini"}, {id: "mini-legal", provider: "openai", model: "gpt-4o-mini", legal_moves: true}]};
  await writeManifest(dir, buildManifest({kind: "run", config, seed: 1, llmPlayers: [llm("mini", false), llm("mini-legal", true)], started: new Date(), counts: {games: games.length}}));
  return {players, turns, part};
}

test("parley ratings: the controlled ranking from a run's turns and manifest solves its score equations; ties and Nash averaging beside it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-ratings-controlled-"));
  const {players, turns, part} = await runWithTurns(dir);
  const r = parley("ratings", dir, "--resamples", "40", "--ties", "davidson");
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const c = out.controlled;
  // Tokens per turn (output less thinking) and the rule-break rate vary game by game; the harness is fixed per agent.
  assert.deepEqual(c.coefficients.map((x: {name: string}) => x.name), ["tokens_per_turn", "reasoning_tokens_per_turn", "rule_break_rate"]);
  assert.deepEqual(c.not_identified.map((x: {name: string}) => x.name), ["legal_moves"]);
  assert.match(c.not_identified[0].reason, /^constant within each agent/);
  assert.ok(c.left_out.some((x: {name: string; reason: string}) => x.name === "persona" && /same on every seat/.test(x.reason)));
  // Each seat's covariates by hand from the rows written.
  const seatKey = (g: string, s: number) => `${g}/${s}`;
  const bySeat = new Map<string, {tokens: number[]; thinking: number[]; breaks: number; attempts: number}>();
  for (const t of turns as {game_id: string; seat: number; output_tokens: number | null; reasoning_tokens: number | null; rule_break: boolean}[]) {
    const e = bySeat.get(seatKey(t.game_id, t.seat)) ?? {tokens: [], thinking: [], breaks: 0, attempts: 0};
    if (t.output_tokens !== null) e.tokens.push(t.output_tokens - (t.reasoning_tokens ?? 0)), e.thinking.push(t.reasoning_tokens ?? 0);
    e.breaks += t.rule_break ? 1 : 0;
    e.attempts++;
    bySeat.set(seatKey(t.game_id, t.seat), e);
  }
  const mean = (v: number[]) => v.reduce((t, x) => t + x, 0) / v.length;
  const raw = (s: {game_id: string; seat: number}) => {
    const e = bySeat.get(seatKey(s.game_id, s.seat))!;
    return [e.tokens.length ? mean(e.tokens) : null, e.thinking.length ? mean(e.thinking) : null, e.breaks / e.attempts];
  };
  const columns = c.coefficients as {name: string; mean: number; sd: number; coefficient: number}[];
  columns.forEach((col, j) => {
    const values = players.map((p) => raw(p)[j]).filter((v): v is number => v !== null);
    const m = mean(values);
    assert.ok(Math.abs(col.mean - m) < 1e-9, `${col.name} mean`);
    assert.ok(Math.abs(col.sd - Math.sqrt(mean(values.map((v) => (v - m) ** 2)))) < 1e-9, `${col.name} sd`);
  });
  // The score equations of β at the reported estimates: Σ (o − p) Δz = 0 (each game weighs 1: both seat orders, one family).
  const z = (s: {game_id: string; seat: number}) => raw(s).map((v, j) => (v === null ? 0 : (v - columns[j].mean) / columns[j].sd));
  const theta = new Map(c.entrants.map((e: {entrant: string; rating: number}) => [e.entrant, e.rating]));
  const score = columns.map(() => 0);
  for (let n = 0; n < players.length; n += 2) {
    const [x, y] = [players[n], players[n + 1]];
    const dz = z(x).map((v, j) => v - z(y)[j]);
    const eta = (theta.get(x.agent) as number) - (theta.get(y.agent) as number) + dz.reduce((t, v, j) => t + v * columns[j].coefficient, 0);
    const o = x.return > y.return ? 1 : x.return < y.return ? 0 : 0.5;
    dz.forEach((v, j) => (score[j] += (o - sigmoid(eta)) * v));
  }
  score.forEach((v, j) => assert.ok(Math.abs(v) < 1e-6, `score of ${columns[j].name}: ${v}`));
  // Cluster-robust intervals (one family of many configurations: many degrees of freedom), tiers and settledness.
  for (const col of c.coefficients as {name: string; coefficient: number; lo: number; hi: number; se: number; df: number}[]) assert.ok(col.df > 1 && col.se > 0 && col.lo < col.coefficient && col.coefficient < col.hi, col.name);
  for (const e of c.entrants) assert.ok(e.rating_lo < e.rating && e.rating < e.rating_hi && e.tier >= 1 && ["preliminary", "usable", "established"].includes(e.settled), e.entrant);
  // The raw ranking beside it is the ratings' own.
  for (const e of c.entrants) assert.ok(Math.abs(e.raw_rating - out.agents.find((a: {agent: string}) => a.agent === e.entrant).rating) < 1e-9);
  // Davidson: ties are the games with equal returns.
  const ties = players.filter((p, n) => n % 2 === 0 && p.return === players[n + 1].return).length;
  assert.ok(Math.abs(out.ties.ties - ties) < 1e-9, `${out.ties.ties} ties, ${ties} by hand`);
  assert.ok(out.ties.nu > 0 && out.ties.nu_lo <= out.ties.nu && out.ties.nu <= out.ties.nu_hi);
  assert.equal(out.ties.agents.length, 3);
  assert.ok(Math.abs(out.nash_averaging.agents.reduce((t: number, a: {mass: number}) => t + a.mass, 0) - 1) < 1e-9);
  // Models as entrants: the two players of gpt-4o-mini are one, and the listed legal moves get an effect.
  const byModel = parley("ratings", dir, "--resamples", "0", "--control-by", "model", "--controls", "legal_moves,tokens_per_turn");
  assert.equal(byModel.code, 0, byModel.stderr);
  const m = JSON.parse(byModel.stdout).controlled;
  assert.deepEqual(m.entrants.map((e: {entrant: string}) => e.entrant).sort(), ["fair", "openai/gpt-4o-mini"]);
  assert.deepEqual(m.coefficients.map((x: {name: string}) => x.name), ["legal_moves", "tokens_per_turn"]);
  // The same seat sums from DuckDB-WASM (the page's engine) as from native DuckDB.
  const columnsOfTurns = new Set(COMMON_TURN_COLUMNS.map((col) => col.name));
  const tables = {turns: join(part, "turns.parquet")};
  const native = await withParquetViews(tables, (db) => db.query(seatTurnsSQL("turns", columnsOfTurns)));
  assert.equal(native.length, players.length);
  assert.deepEqual(await queryWasm(tables, seatTurnsSQL("turns", columnsOfTurns)), native);
});

test("parley ratings --outcome surplus-share: shares of the pair's returns enter as fractional wins", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-ratings-margin-"));
  const {players} = await runWithTurns(dir);
  const r = parley("ratings", dir, "--resamples", "0", "--outcome", "surplus-share", "--controls", "none", "--weighting", "games");
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.outcome, "surplus-share");
  assert.equal(out.surplus_fallbacks, 0);
  assert.deepEqual(out.controlled.entrants, []);
  // fair's wins: its share x / (x + y) of every game it played (½ when both made 0).
  let wins = 0;
  for (let n = 0; n < players.length; n += 2) {
    const [x, y] = [players[n], players[n + 1]];
    const share = x.return + y.return === 0 ? 0.5 : x.return / (x.return + y.return);
    if (x.agent === "fair") wins += share;
    if (y.agent === "fair") wins += 1 - share;
  }
  assert.ok(Math.abs(out.agents.find((a: {agent: string}) => a.agent === "fair").wins - wins) < 1e-9);
});

test("parley ratings: mistakes are one line", () => {
  const bad = parley("ratings", projectRoot, "--weighting", "votes");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr.trim(), /^parley ratings: --weighting must be one of families, equal, games, got "votes"$/);
  const clones = parley("ratings", projectRoot, "--clones", "merge");
  assert.equal(clones.code, 2);
  assert.match(clones.stderr.trim(), /^parley ratings: --clones must be one of entrants, robust, got "merge"$/);
  for (const [args, message] of [
    [["--ties", "davidson", "--outcome", "advantage"], /^parley ratings: --ties davidson needs --outcome win \(a margin outcome has no ties to model\), got --outcome advantage$/],
    [["--controls", "persona,style"], /^parley ratings: --controls: expected all, none or a comma-separated list of tokens_per_turn, .*, got "style"$/],
  ] as const) {
    const r = parley("ratings", projectRoot, ...args);
    assert.equal(r.code, 2, args.join(" "));
    assert.match(r.stderr.trim(), message);
  }
  const empty = mkdtempSync(join(tmpdir(), "parley-ratings-empty-"));
  const none = parley("ratings", empty);
  assert.equal(none.code, 2);
  assert.equal(none.stderr.trim().split("\n").length, 1, none.stderr);
  assert.match(none.stderr, /holds no games table/);
});

test("parley ratings on the built-in game-theoretic run (data/runs/gtllm.json): workflow-bi and backward-induction, the same algorithm, share a tier; clone-robust, they are weighed as one", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-ratings-gtllm-"));
  const played = await cli(["run", join(projectRoot, "data/runs/gtllm.json"), "--out", join(dir, "run"), "--quiet"]);
  assert.equal(played.code, 0, played.stderr);
  const rated = async (...flags: string[]) => {
    const r = await cli(["ratings", join(dir, "run"), "--resamples", "200", ...flags]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as {clone_groups: string[][]; agents: {agent: string; tier: number; settled: string; df: number; clone_group: number | null}[]};
  };
  const out = await rated();
  const agent = (name: string) => out.agents.find((a) => a.agent === name)!;
  assert.equal(agent("workflow-bi").tier, agent("backward-induction").tier);
  // Two configurations in each of the five tree families they play: about 5 degrees of freedom.
  assert.ok(Math.abs(agent("backward-induction").df - 5) < 1, `df ${agent("backward-induction").df}`);
  assert.ok(out.agents.every((a) => ["preliminary", "usable", "established"].includes(a.settled)));
  assert.deepEqual(out.clone_groups, []);
  const robust = await rated("--clones", "robust");
  const group = robust.agents.find((a) => a.agent === "workflow-bi")!.clone_group;
  assert.notEqual(group, null);
  assert.ok(robust.clone_groups[group!].includes("backward-induction"), JSON.stringify(robust.clone_groups));
});
