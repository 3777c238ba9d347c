// The controlled ranking: covariates encoded by hand, settings read from a
// manifest, and the fit checked on simulated tournaments with a known truth
// (strengths and a covariate's effect), at the agent and at the model level,
// before it is shown on real data.
import {test} from "node:test";
import assert from "node:assert/strict";
import {agentSettings, encodeCovariates, parseControls, pooledControlGames, seatValues, sourceValues, valuesPerAgent, withCovariates, type SeatTurns, type SeatValues} from "../../src/lib/ratingCovariates.js";
import {compactGames} from "../../src/lib/ratings.js";
import {controlledRatings} from "../../src/lib/controlledRatings.js";
import {rateAgents, type RatedGame} from "../../src/lib/ratings.js";
import {ratedGames, type SeatRow} from "../../src/lib/ratingsData.js";
import {createRng, type Rng} from "../../src/lib/rng.js";

const empty: SeatValues = seatValues(undefined, undefined);

test("covariates encoded by hand: standardised numbers, levels against 'none set', missing values at 0, constants left out", () => {
  const seats: SeatValues[] = [
    {...empty, tokens_per_turn: 10, persona: "none set", legal_moves: 1},
    {...empty, tokens_per_turn: 20, persona: "cunning", legal_moves: 1},
    {...empty, tokens_per_turn: null, persona: null, legal_moves: null},
    {...empty, tokens_per_turn: 30, persona: "desperate", legal_moves: 1},
  ];
  const {columns, x, left_out} = encodeCovariates(seats, ["tokens_per_turn", "persona", "legal_moves", "votes"]);
  assert.deepEqual(columns.map((c) => c.name), ["tokens_per_turn", "persona=cunning", "persona=desperate"]);
  const sd = Math.sqrt(200 / 3);
  assert.ok(Math.abs(columns[0].mean - 20) < 1e-12 && Math.abs(columns[0].sd! - sd) < 1e-12);
  assert.deepEqual(x.map((row) => row.map((v) => Number(v.toFixed(9)))), [
    [Number((-10 / sd).toFixed(9)), 0, 0],
    [0, 1, 0],
    [0, 0, 0],
    [Number((10 / sd).toFixed(9)), 0, 1],
  ]);
  assert.deepEqual(left_out, [
    {name: "legal_moves", reason: "the same on every seat that has it: 1"},
    {name: "votes", reason: "not recorded for any seat"},
  ]);
  assert.deepEqual(parseControls("persona, votes"), ["persona", "votes"]);
  assert.deepEqual(parseControls("persona,style"), {unknown: "style"});
});

test("settings from a manifest: the config's player objects and the harness recorded per player", () => {
  // mini's harness as a manifest written before the prompt layout was a factor records it (the authors' layout, then the only one).
  const manifest = {
    config: {players: ["fair", {id: "mini", provider: "openai", model: "gpt-4o-mini", persona: "cunning", chain_of_thought: true, reasoning_effort: "low"}, {id: "mini-fixed", provider: "openai", model: "gpt-4o-mini", prompt_layout: "fixed-system"}]},
    llm_players: [
      {id: "mini", provider: "openai", model_requested: "gpt-4o-mini", harness: {legal_moves: true, structured_output: false, retries: 2, votes: 3}},
      {id: "mini-fixed", provider: "openai", model_requested: "gpt-4o-mini", harness: {legal_moves: false, structured_output: false, retries: 2, votes: 1, prompt_layout: "fixed-system"}},
    ],
  };
  const settings = agentSettings(manifest);
  assert.deepEqual([...settings.keys()], ["mini", "mini-fixed"]);
  assert.deepEqual(settings.get("mini"), {model: "openai/gpt-4o-mini", chain_of_thought: true, reasoning_effort: "low", persona: "cunning", personality: null, legal_moves: true, structured_output: false, retries: 2, votes: 3, prompt_layout: "authors"});
  assert.equal(settings.get("mini-fixed")!.prompt_layout, "fixed-system");
  assert.deepEqual(seatValues({game_id: "g", seat: 0, tokens_per_turn: 12, reasoning_tokens_per_turn: 0, attempts: 4, rule_breaks: 1}, settings.get("mini")), {
    tokens_per_turn: 12, reasoning_tokens_per_turn: 0, rule_break_rate: 0.25, chain_of_thought: 1, reasoning_effort: "low", persona: "cunning", personality: "none set", legal_moves: 1, structured_output: 0, retries: 2, votes: 3, prompt_layout: "authors",
  });
  // The layout is a level against the authors': one column for the fixed system message, a scripted seat (no settings) at the baseline.
  const encoded = encodeCovariates([seatValues(undefined, settings.get("mini-fixed")), seatValues(undefined, settings.get("mini")), seatValues(undefined, undefined)], ["prompt_layout"]);
  assert.deepEqual(encoded.columns.map((c) => c.name), ["prompt_layout=fixed-system"]);
  assert.deepEqual(encoded.x, [[1], [0], [0]]);
  assert.equal(agentSettings(null).size, 0);
  assert.equal(agentSettings({config: "not an object"}).size, 0);
});

const normal = (rng: Rng) => {
  let u = 0;
  while (!u) u = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
};
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * A round robin in both seat orders over `configs` configurations: each
 * seat's tokens per turn drawn around its agent's habit (so they go with the
 * agent, as verbosity does), the winner drawn from the true model.
 */
function styledTournament(rng: Rng, theta: number[], habit: number[], beta: number, configs: number): SeatRow[] {
  const rows: SeatRow[] = [];
  let id = 0;
  for (let c = 0; c < configs; c++) {
    for (let i = 0; i < theta.length; i++) {
      for (let j = 0; j < theta.length; j++) {
        if (i === j) continue;
        const [zi, zj] = [habit[i] + normal(rng), habit[j] + normal(rng)];
        const win = rng.next() < sigmoid(theta[i] - theta[j] + beta * (zi - zj));
        const game_id = `g${id++}`;
        const base = {game_id, family: "f", cluster: `c${c}`, config: String(c), repetition: 0};
        rows.push({...base, seat: 0, agent: `a${i}`, score: win ? 1 : 0, x: [zi]}, {...base, seat: 1, agent: `a${j}`, score: win ? 0 : 1, x: [zj]});
      }
    }
  }
  return rows;
}

const TOKENS = [{name: "tokens_per_turn", control: "tokens_per_turn" as const, kind: "numeric" as const, mean: 0, sd: 1, seats: 0}];

test("simulated style control: the known effect and strengths are recovered, the raw ranking is not, and the raw fit is rateAgents'", () => {
  // The best agent is terse and the others verbose: raw ratings credit verbosity to the verbose.
  const theta = [0.8, 0.3, 0, -0.4, -0.7];
  const habit = [-1, 0.5, 1, 0, -0.5];
  const beta = 0.6;
  const games = ratedGames(styledTournament(createRng(5), theta, habit, beta, 30));
  const r = controlledRatings(games, TOKENS, {resamples: 100, seed: 2});
  const [b] = r.coefficients;
  assert.ok(b.lo! <= beta && beta <= b.hi!, `β ${b.coefficient} [${b.lo}, ${b.hi}]`);
  assert.ok(Math.abs(b.coefficient - beta) < 0.15);
  const mean = theta.reduce((t, v) => t + v, 0) / theta.length;
  const truth = (e: string) => theta[Number(e.slice(1))] - mean;
  for (const e of r.entrants) assert.ok(Math.abs(e.rating - truth(e.entrant)) < 0.2, `${e.entrant}: ${e.rating} vs ${truth(e.entrant)}`);
  assert.equal(r.entrants.find((e) => e.rank === 1)!.entrant, "a0");
  assert.notEqual(r.entrants.find((e) => e.raw_rank === 1)!.entrant, "a0", "uncontrolled, the terse best agent is not first");
  const raw = rateAgents(games, {resamples: 0});
  for (const a of raw.agents) assert.ok(Math.abs(r.entrants.find((e) => e.entrant === a.agent)!.raw_rating - a.rating) < 1e-9, a.agent);
});

/**
 * A tournament whose configurations decide much of each result, with a
 * known truth: `families` families of `configurations` configurations,
 * every ordered pair of agents, GAMES_PER_LINEUP games a lineup and
 * configuration. In configuration c an agent's covariate is z_ac = its
 * habit + N(0, 1) (verbose in one configuration, terse in the next, so β is
 * seen within each agent), and a lineup's games are won with probability
 * q = p + (U_ac − U_bc) min(p, 1 − p), p = σ(θ_a − θ_b + β (z_ac − z_bc)),
 * U_ac uniform on (−½, ½): a shift of every result of the agent in that
 * configuration whose mean is 0, so E[result | z] = p exactly and the
 * truth is θ and β themselves (no population average to compute), while
 * results within a configuration are correlated, as the built-in
 * game-theoretic run's are. Each lineup's wins and losses are two games
 * with a count.
 */
function clusteredStyleTournament(rng: Rng, families: number, configurations: number): RatedGame[] {
  const games: RatedGame[] = [];
  const family = Array.from({length: families}, (_, f) => `f${f}`);
  const cluster = Array.from({length: configurations}, (_, c) => `c${c}`);
  for (let f = 0; f < families; f++) {
    for (let c = 0; c < configurations; c++) {
      const z = STYLE_HABIT.map((h) => h + normal(rng));
      const u = STYLE_THETA.map(() => rng.next() - 0.5);
      for (let i = 0; i < STYLE_THETA.length; i++) {
        for (let j = 0; j < STYLE_THETA.length; j++) {
          if (i === j) continue;
          const p = sigmoid(STYLE_THETA[i] - STYLE_THETA[j] + STYLE_BETA * (z[i] - z[j]));
          const q = p + (u[i] - u[j]) * Math.min(p, 1 - p);
          let wins = 0;
          for (let n = 0; n < GAMES_PER_LINEUP; n++) if (rng.next() < q) wins++;
          const seats = (first: number) => [{agent: STYLE_NAMES[i], seat: 0, score: first, x: [z[i]]}, {agent: STYLE_NAMES[j], seat: 1, score: 1 - first, x: [z[j]]}];
          const base = {family: family[f], cluster: cluster[c]};
          if (wins) games.push({...base, count: wins, seats: seats(1)});
          if (wins < GAMES_PER_LINEUP) games.push({...base, count: GAMES_PER_LINEUP - wins, seats: seats(0)});
        }
      }
    }
  }
  return games;
}
const STYLE_THETA = [0.8, 0.2, -0.3, -0.7];
const STYLE_HABIT = [-1, 0.5, 1, -0.5];
const STYLE_NAMES = STYLE_THETA.map((_, i) => `a${i}`);
const STYLE_BETA = 0.5;
const GAMES_PER_LINEUP = 8;

// Two configurations in each of ten families (as the built-in
// game-theoretic run has: about ten degrees of freedom), and twenty in each
// of three (about 57; three families keep the test cheap). Monte Carlo error:
// β's coverage over 200 tournaments has a standard error of about 0.015 at
// 95 %, so the 90 % bound is three of them below; the ratings' over 800
// intervals (four a tournament, sharing it) about 0.01. Fixed seeds: the
// figures, printed as diagnostics, are the same on every run. About 4
// CPU-seconds, most of it the twenty-configuration fits.
for (const [families, configurations] of [[10, 2], [3, 20]] as const) {
  test(`${configurations} configurations a family, 200 tournaments with configuration effects: the covariate's and the controlled ratings' 95 % intervals cover the truth at least 90 % of the time`, (t) => {
    const rng = createRng(configurations === 2 ? 4242 : 424242);
    const mean = STYLE_THETA.reduce((sum, v) => sum + v, 0) / STYLE_THETA.length;
    const found = {tournaments: 200, beta: 0, betaVariance: 0, betaError: 0, ratings: 0, intervals: 0, width: 0};
    for (let rep = 0; rep < found.tournaments; rep++) {
      const r = controlledRatings(clusteredStyleTournament(rng, families, configurations), TOKENS, {resamples: 0});
      const [b] = r.coefficients;
      if (b.lo! <= STYLE_BETA && STYLE_BETA <= b.hi!) found.beta++;
      found.betaVariance += b.se! ** 2;
      found.betaError += (b.coefficient - STYLE_BETA) ** 2;
      found.width += b.hi! - b.lo!;
      for (const e of r.entrants) {
        const truth = STYLE_THETA[Number(e.entrant.slice(1))] - mean;
        found.intervals++;
        if (e.rating_lo! <= truth && truth <= e.rating_hi!) found.ratings++;
      }
    }
    const coverage = found.beta / found.tournaments;
    const ratio = Math.sqrt(found.betaVariance / found.betaError);
    t.diagnostic(`β covered ${coverage.toFixed(3)}, mean width ${(found.width / found.tournaments).toFixed(3)}, se / rms error ${ratio.toFixed(3)}; ratings covered ${(found.ratings / found.intervals).toFixed(3)}`);
    assert.ok(coverage >= 0.9, `β covered in ${found.beta} of ${found.tournaments}`);
    assert.ok(found.ratings / found.intervals >= 0.9, `ratings covered ${found.ratings} of ${found.intervals}`);
    // Honest both ways: β's standard errors match its estimates' spread about the truth (root mean squares, 0.8–1.25).
    assert.ok(ratio >= 0.8 && ratio <= 1.25, `mean se / root mean squared error ${ratio}`);
  });
}

test("a setting fixed per agent is not identified beside agents' ratings, and is estimated when models are the entrants", () => {
  // Model m1 is played plain and with its legal moves listed (effect +0.7), against model m2 and a scripted agent.
  const strength: Record<string, number> = {"openai/m1": 0.4, "openai/m2": 0, scripted: -0.4};
  const players = [
    {id: "m1", model: "m1", legal_moves: false},
    {id: "m1-legal", model: "m1", legal_moves: true},
    {id: "m2", model: "m2", legal_moves: false},
  ];
  const manifest = {config: {players: ["scripted", ...players.map((p) => ({id: p.id, provider: "openai", model: p.model}))]}, llm_players: players.map((p) => ({id: p.id, provider: "openai", model_requested: p.model, harness: {legal_moves: p.legal_moves, structured_output: false, retries: 2, votes: 1}}))};
  const settings = agentSettings(manifest);
  const agents = ["scripted", ...players.map((p) => p.id)];
  const effect = 0.7;
  const skill = (a: string) => (a === "scripted" ? strength.scripted : strength[settings.get(a)!.model!] + (settings.get(a)!.legal_moves ? effect : 0));
  const rng = createRng(8);
  const rows: SeatRow[] = [];
  let id = 0;
  for (let c = 0; c < 40; c++) {
    for (const x of agents) {
      for (const y of agents) {
        if (x === y) continue;
        const win = rng.next() < sigmoid(skill(x) - skill(y));
        const base = {game_id: `g${id++}`, family: "f", cluster: `c${c}`, config: String(c), repetition: 0};
        rows.push({...base, seat: 0, agent: x, score: win ? 1 : 0}, {...base, seat: 1, agent: y, score: win ? 0 : 1});
      }
    }
  }
  const byAgent = withCovariates([{rows, turns: [], settings}], ["legal_moves", "persona"], "agent");
  assert.deepEqual(byAgent.left_out.map((l) => l.name), ["persona"]);
  const agentLevel = controlledRatings(ratedGames(byAgent.rows), byAgent.columns, {resamples: 0});
  assert.deepEqual(agentLevel.coefficients, []);
  assert.deepEqual(agentLevel.not_identified, [{name: "legal_moves", reason: "constant within each agent: absorbed by the agent's rating (it is identified only when it varies within an agent)"}]);
  const byModel = withCovariates([{rows, turns: [], settings}], ["legal_moves"], "model");
  const modelLevel = controlledRatings(ratedGames(byModel.rows), byModel.columns, {resamples: 100, by: "model"});
  assert.deepEqual(modelLevel.entrants.map((e) => e.entrant).sort(), ["openai/m1", "openai/m2", "scripted"]);
  assert.deepEqual(modelLevel.entrants.find((e) => e.entrant === "openai/m1")!.agents, ["m1", "m1-legal"]);
  const [legal] = modelLevel.coefficients;
  assert.equal(legal.name, "legal_moves");
  assert.ok(legal.lo! <= effect && effect <= legal.hi! && Math.abs(legal.coefficient - effect) < 0.3, `legal moves ${legal.coefficient} [${legal.lo}, ${legal.hi}]`);
  const gap = (r: typeof modelLevel, a: string, b: string) => r.entrants.find((e) => e.entrant === a)!.rating - r.entrants.find((e) => e.entrant === b)!.rating;
  assert.ok(Math.abs(gap(modelLevel, "openai/m1", "openai/m2") - 0.4) < 0.3, `m1 − m2 at baseline settings: ${gap(modelLevel, "openai/m1", "openai/m2")}`);
});

test("no covariate: no controlled ranking (it would be the raw one)", () => {
  const games: RatedGame[] = [{family: "f", cluster: "c", seats: [{agent: "A", seat: 0, score: 1}, {agent: "B", seat: 1, score: 0}]}];
  assert.deepEqual(controlledRatings(games, []), {by: "agent", entrants: [], coefficients: [], not_identified: [], resamples: 0});
});

test("a seat without turns takes its agent's mean in the source; the page's per-agent form rates as the seat rows do", () => {
  const rows: SeatRow[] = [];
  const turns: SeatTurns[] = [];
  const rng = createRng(4);
  const habit: Record<string, number | null> = {A: 0.1, B: 0.3, S: null};
  let id = 0;
  for (let c = 0; c < 6; c++) {
    for (const x of ["A", "B", "S"]) {
      for (const y of ["A", "B", "S"]) {
        if (x === y) continue;
        const game_id = `g${id++}`;
        const win = rng.next() < 0.5;
        const base = {game_id, family: "f", cluster: `c${c}`, config: String(c), repetition: 0};
        rows.push({...base, seat: 0, agent: x, score: win ? 1 : 0}, {...base, seat: 1, agent: y, score: win ? 0 : 1});
        // A's and B's seats break rules at their habit's rate, except a game now and then without turns; S never breaks one.
        for (const [seat, agent] of [x, y].entries()) if (id % 5 !== 0 || agent === "S") turns.push({game_id, seat, tokens_per_turn: null, reasoning_tokens_per_turn: null, attempts: 10, rule_breaks: 10 * (habit[agent] ?? 0)});
      }
    }
  }
  const values = sourceValues(rows, turns, new Map());
  rows.forEach((r, n) => assert.ok(Math.abs((values[n].rule_break_rate as number) - (habit[r.agent] ?? 0)) < 1e-12, `${r.game_id}/${r.seat}`));
  const perAgent = valuesPerAgent(rows, turns)!;
  assert.deepEqual(perAgent.map((a) => [a.agent, a.seats]), [["A", 24], ["B", 24], ["S", 24]]);
  // Another source where A and B break rules game by game: rule_break_rate varies, pooled.
  const other = styledTournament(createRng(6), [0.2, 0], [0, 0], 0, 6).map((r) => ({...r, agent: r.agent === "a0" ? "A" : "B", cluster: `o${r.cluster}`, game_id: `o${r.game_id}`}));
  const otherTurns = other.map((r) => ({game_id: r.game_id, seat: r.seat, tokens_per_turn: null, reasoning_tokens_per_turn: null, attempts: 4, rule_breaks: rng.int(5)}));
  const settings = new Map();
  const viaRows = withCovariates([{rows, turns, settings}, {rows: other, turns: otherTurns, settings}], ["rule_break_rate"]);
  const fromRows = controlledRatings(ratedGames(viaRows.rows), viaRows.columns, {resamples: 0});
  const pooled = pooledControlGames([{games: compactGames(ratedGames(rows)), perAgent, rows: null, turns: null, settings}, {games: [], perAgent: null, rows: other, turns: otherTurns, settings}], ["rule_break_rate"]);
  assert.deepEqual(pooled.columns.map((c) => [c.name, c.seats]), viaRows.columns.map((c) => [c.name, c.seats]));
  assert.ok(Math.abs(pooled.columns[0].mean - viaRows.columns[0].mean) < 1e-12 && Math.abs(pooled.columns[0].sd! - viaRows.columns[0].sd!) < 1e-12, "the same standardisation (sums in another order)");
  const fromPooled = controlledRatings(pooled.games, pooled.columns, {resamples: 0});
  assert.ok(Math.abs(fromPooled.coefficients[0].coefficient - fromRows.coefficients[0].coefficient) < 1e-9);
  for (const e of fromRows.entrants) assert.ok(Math.abs(fromPooled.entrants.find((f) => f.entrant === e.entrant)!.rating - e.rating) < 1e-9, e.entrant);
});
