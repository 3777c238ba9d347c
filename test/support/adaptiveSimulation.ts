/**
 * Simulated tournaments for adaptive sampling (src/lib/adaptivePlan.ts):
 * agents with known strengths play through the planner the runner uses
 * (`AdaptivePlanner`), batch by batch, with the runner's lag (a batch's results
 * are seen two decisions later). A game's outcome is drawn from its own
 * identity (game, configuration, lineup, repetition) under the run seed, as
 * the runner seeds a game from its id: the adaptive and the round-robin arm
 * of one seed play the same game alike whenever both choose it.
 *
 * Outcomes: each seat scores its agent's strength plus Gumbel noise, plus
 * `seatAdvantage` for the first seat; the difference of two Gumbel draws
 * is logistic, so two agents i, j meet under Bradley–Terry,
 * P(i beats j) = 1 / (1 + e^(s_j − s_i)) (before the seat advantage), and
 * games of more seats rank their seats by Plackett–Luce. With
 * `configurationSd`, each agent also gets an effect u in each configuration
 * (normal, drawn from the run seed, game, configuration and agent): the
 * configurations differ, as the ratings' intervals (cluster-robust over
 * configurations) allow, and the truth is then the population rating
 * (`trueRatings`).
 */
import {AdaptivePlanner, ratedGamesOf, type AdaptiveFamily, type AdaptiveOptions, type BatchDecision, type PlannedRef} from "../../src/lib/adaptivePlan.js";
import {fitBradleyTerry, rateAgents, type RatingsResult} from "../../src/lib/ratings.js";
import {deriveRng, type Rng} from "../../src/lib/rng.js";

export interface SimulatedField {
  families: AdaptiveFamily[];
  strengths: Record<string, number>;
  seatAdvantage?: number;
  /** SD of an agent's effect in a configuration (default 0: configurations alike). */
  configurationSd?: number;
}

export interface SimulatedRun {
  decisions: BatchDecision[];
  games: (PlannedRef & {scores: number[]})[];
  stop: BatchDecision["stop"];
}

/** Every two-seat lineup (both seat orders) of `agents`, no self-play. */
export const allPairs = (agents: readonly string[]): string[][] => agents.flatMap((a) => agents.filter((b) => b !== a).map((b) => [a, b]));

/** One seat's score: strength, its effect in the configuration, Gumbel noise, the first seat's advantage. */
function play(field: SimulatedField, seed: number, game: PlannedRef): number[] {
  const rng = deriveRng(seed, JSON.stringify([game.family, game.config, game.lineup, game.repetition]));
  const sd = field.configurationSd ?? 0;
  const effect = (agent: string) => (sd ? sd * normal(deriveRng(seed, JSON.stringify(["configuration", game.family, game.config, agent]))) : 0);
  return game.lineup.map((agent, seat) => field.strengths[agent] + effect(agent) - Math.log(-Math.log(1 - rng.next())) + (seat === 0 ? (field.seatAdvantage ?? 0) : 0));
}

/** A standard normal draw (Box–Muller). */
function normal(rng: Rng): number {
  let u = rng.next();
  while (u === 0) u = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/**
 * The true ratings of a two-seat field without a seat advantage: the
 * Bradley–Terry rating (no prior, centred) of the expected results over the
 * population of configurations, every pair alike, infinitely many games.
 * With configuration effects, P(i beats j) = E σ(s_i − s_j + u_i − u_j),
 * u_i − u_j normal with SD √2·configurationSd, by quadrature on a fine grid;
 * without, the strengths centred.
 */
export function trueRatings(field: SimulatedField): Record<string, number> {
  const sd = Math.SQRT2 * (field.configurationSd ?? 0);
  if (!sd) return centred(field.strengths);
  const agents = Object.keys(field.strengths);
  const k = agents.length;
  const nodes = Array.from({length: 241}, (_, q) => -8 + q / 15);
  const weights = nodes.map((x) => Math.exp((-x * x) / 2));
  const total = weights.reduce((t, w) => t + w, 0);
  const expected = new Float64Array(k * k);
  agents.forEach((a, i) =>
    agents.forEach((b, j) => {
      if (i !== j) expected[i * k + j] = nodes.reduce((t, x, q) => t + (weights[q] / total) / (1 + Math.exp(field.strengths[b] - field.strengths[a] - sd * x)), 0);
    }),
  );
  const theta = fitBradleyTerry(k, expected, 0);
  const mean = theta.reduce((t, x) => t + x, 0) / k;
  return Object.fromEntries(agents.map((a, i) => [a, theta[i] - mean]));
}

/** Plays `field` through the planner until it stops; every game's result is known at once (the planner looks at it two batches later). */
export function simulateAdaptive(field: SimulatedField, options: AdaptiveOptions, seed: number): SimulatedRun {
  const planner = new AdaptivePlanner(field.families, options);
  const games: SimulatedRun["games"] = [];
  while (!planner.stopped) {
    const d = planner.decide();
    for (const game of planner.gamesOf(d.batch)) {
      const scores = play(field, seed, game);
      planner.finished(game, scores);
      games.push({...game, scores});
    }
  }
  return {decisions: planner.decisions, games, stop: planner.stopped};
}

/** rateAgents on every game of a simulated run. */
export function rateRun(run: SimulatedRun, resamples = 1000): RatingsResult {
  return rateAgents(ratedGamesOf(run.games), {resamples});
}

/** Kendall's τ between the ratings' order and the true strengths (τ-a; ties in the ratings count 0). */
export function kendallTau(ratings: RatingsResult, strengths: Record<string, number>): number {
  const a = ratings.agents;
  let sum = 0;
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      sum += Math.sign(a[i].rating - a[j].rating) * Math.sign(strengths[a[i].agent] - strengths[a[j].agent]);
      n++;
    }
  }
  return sum / n;
}

/** Strengths centred on their mean over `agents`, as ratings are. */
export function centred(strengths: Record<string, number>): Record<string, number> {
  const values = Object.values(strengths);
  const mean = values.reduce((t, v) => t + v, 0) / values.length;
  return Object.fromEntries(Object.entries(strengths).map(([a, s]) => [a, s - mean]));
}
