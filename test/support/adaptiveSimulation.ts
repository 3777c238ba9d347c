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
 * games of more seats rank their seats by Plackett–Luce.
 */
import {AdaptivePlanner, ratedGamesOf, type AdaptiveFamily, type AdaptiveOptions, type BatchDecision, type PlannedRef} from "../../src/lib/adaptivePlan.js";
import {rateAgents, type RatingsResult} from "../../src/lib/ratings.js";
import {deriveRng} from "../../src/lib/rng.js";

export interface SimulatedField {
  families: AdaptiveFamily[];
  strengths: Record<string, number>;
  seatAdvantage?: number;
}

export interface SimulatedRun {
  decisions: BatchDecision[];
  games: (PlannedRef & {scores: number[]})[];
  stop: BatchDecision["stop"];
}

/** Every two-seat lineup (both seat orders) of `agents`, no self-play. */
export const allPairs = (agents: readonly string[]): string[][] => agents.flatMap((a) => agents.filter((b) => b !== a).map((b) => [a, b]));

/** One seat's score: strength, Gumbel noise, the first seat's advantage. */
function play(field: SimulatedField, seed: number, game: PlannedRef): number[] {
  const rng = deriveRng(seed, JSON.stringify([game.family, game.config, game.lineup, game.repetition]));
  return game.lineup.map((agent, seat) => field.strengths[agent] - Math.log(-Math.log(1 - rng.next())) + (seat === 0 ? (field.seatAdvantage ?? 0) : 0));
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
