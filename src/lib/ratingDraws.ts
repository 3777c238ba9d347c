/**
 * Bootstrap draws that respect how games were sampled: a run draws its
 * configurations (game family × config id: a grid point, a variant), then
 * plays games within each; a draw resamples the configurations of every
 * family with replacement, then the games within each configuration drawn
 * (Davison and Hinkley 1997, "Bootstrap Methods and their Application",
 * §3.8, resampling both stages of a two-stage design). A family with one
 * configuration is resampled by game alone. Used by the models fitted
 * beside the Bradley–Terry ratings (ratingModels.ts).
 *
 * One small function on purpose: the ratings' own resampler (ratings.ts)
 * may move to the same design, and then this one is replaced by it.
 * Pure: no DOM, no Node API.
 */
import type {RatedGame} from "./ratings.js";
import type {Rng} from "./rng.js";

/** Games grouped by family, then configuration: indexes into the games given, and the cumulative counts for drawing one copy. */
export interface DrawDesign {
  games: number;
  families: {games: Int32Array; cumulative: Float64Array}[][];
}

/** The design of `games` (a compact game stands for `count` identical games of its configuration). */
export function drawDesign(games: readonly RatedGame[]): DrawDesign {
  const byFamily = new Map<string, Map<string, number[]>>();
  games.forEach((g, n) => {
    let clusters = byFamily.get(g.family);
    if (!clusters) byFamily.set(g.family, (clusters = new Map()));
    const members = clusters.get(g.cluster);
    if (members) members.push(n);
    else clusters.set(g.cluster, [n]);
  });
  const families = [...byFamily.values()].map((clusters) =>
    [...clusters.values()].map((members) => {
      const cumulative = new Float64Array(members.length);
      let total = 0;
      members.forEach((n, m) => (cumulative[m] = total += games[n].count ?? 1));
      return {games: Int32Array.from(members), cumulative};
    }),
  );
  return {games: games.length, families};
}

/**
 * One two-stage draw: how many copies of each game it holds (a game of
 * count c is expected c times). Stage one draws as many configurations as
 * the family has; stage two draws, in each configuration drawn, as many
 * games as it holds. `into`, when given, is filled and returned.
 */
export function twoStageDraw(design: DrawDesign, rng: Rng, into?: Float64Array): Float64Array {
  // A bootstrap reuses one array: a thousand draws of a big dataset would otherwise allocate a thousand.
  const times = into ?? new Float64Array(design.games);
  times.fill(0);
  for (const clusters of design.families) {
    for (let c = 0; c < clusters.length; c++) {
      const {games, cumulative} = clusters[rng.int(clusters.length)];
      const total = cumulative[cumulative.length - 1];
      // Every game once (no compacted counts): the copy drawn is the game.
      if (total === games.length) {
        for (let d = 0; d < total; d++) times[games[rng.int(total)]]++;
        continue;
      }
      for (let d = 0; d < total; d++) {
        const u = rng.next() * total;
        // The first game whose cumulative count exceeds u (binary search).
        let lo = 0;
        let hi = cumulative.length - 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (cumulative[mid] > u) hi = mid;
          else lo = mid + 1;
        }
        times[games[lo]]++;
      }
    }
  }
  return times;
}
