/**
 * `parley ratings <dir ...>`: Bradley–Terry ratings pooled across every game
 * in the given run or ingest directories, with bootstrap intervals, rank
 * intervals and tiers (src/lib/ratings.ts), and α-Rank over each two-seat
 * family's meta-game (src/lib/alphaRank.ts). JSON on stdout. With
 * --generalisation, the generalisation report instead (./generalisation.ts).
 */
import {alphaRank} from "../../../src/lib/alphaRank.js";
import {rateAgents} from "../../../src/lib/ratings.js";
import {ratedGames, seatMetaGame, type SeatRow} from "../../../src/lib/ratingsData.js";
import {seatRows} from "./seats.js";
import {intOption, parse, printJson, UsageError} from "./args.js";
import {usage} from "../../usage/ratings.usage.js";
import {generalisation} from "./generalisation.js";

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("ratings", argv, {
    weighting: {type: "string", default: "families"},
    resamples: {type: "string"},
    seed: {type: "string"},
    generalisation: {type: "boolean", default: false},
  });
  if (!positionals.length) throw new UsageError(`parley ${usage}`);
  const weighting = values.weighting;
  if (weighting !== "families" && weighting !== "games") throw new UsageError(`parley ratings: --weighting: expected families or games, got "${weighting}"`);
  const resamples = intOption("ratings", "resamples", values.resamples, {min: 0, max: 100_000}, 1000);
  const seed = intOption("ratings", "seed", values.seed, {min: 0, max: 2 ** 31 - 1}, 1);
  if (values.generalisation) {
    printJson(await generalisation(positionals, {resamples, seed}));
    return 0;
  }
  const rows: SeatRow[] = [];
  for (const [i, dir] of positionals.entries()) rows.push(...(await seatRows("ratings", dir, positionals.length > 1 ? `run${i}` : "")));
  const result = rateAgents(ratedGames(rows), {weighting, resamples, seed});
  const families = [...new Set(rows.map((r) => r.family))].sort();
  const alpha_rank = families.flatMap((family) => {
    const game = seatMetaGame(rows, family);
    if (game.rows.length < 2 || game.cols.length < 2) return [];
    const r = alphaRank(game);
    return [{family, alpha: r.alpha, population_size: r.populationSize, seat0: game.rows.map((agent, i) => ({agent, mass: r.rowMass[i]})), seat1: game.cols.map((agent, j) => ({agent, mass: r.colMass[j]}))}];
  });
  printJson({weighting, resamples: result.resamples, agents: result.agents, unrated: result.unrated, components: result.components, families: result.families, alpha_rank});
  return 0;
}
