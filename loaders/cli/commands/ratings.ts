/**
 * `parley ratings <dir ...>`: Bradley–Terry ratings pooled across every game
 * in the given run or ingest directories, with cluster-robust intervals,
 * rank intervals, tiers and settledness labels, optionally clone-robust
 * (src/lib/ratings.ts), on a chosen outcome (win or a margin,
 * src/lib/ratingOutcomes.ts); beside them the model with a ties parameter
 * (src/lib/davidson.ts, `--ties davidson`), the ranking controlled for
 * covariates read from the turns and the manifests
 * (src/lib/controlledRatings.ts), Nash averaging (src/lib/nashAveraging.ts)
 * and α-Rank over each two-seat family's meta-game (src/lib/alphaRank.ts).
 * JSON on stdout. With --generalisation, the generalisation report
 * instead (./generalisation.ts).
 */
import {alphaRank} from "../../../src/lib/alphaRank.js";
import {CLONE_HANDLINGS, rateAgents, WEIGHTINGS} from "../../../src/lib/ratings.js";
import {ratedGames, seatMetaGame, type SeatRow} from "../../../src/lib/ratingsData.js";
import {OUTCOMES, outcomeFallbacks} from "../../../src/lib/ratingOutcomes.js";
import {davidsonRatings, nashRatings} from "../../../src/lib/ratingModels.js";
import {controlledRatings} from "../../../src/lib/controlledRatings.js";
import {CONTROLS, parseControls, withCovariates, type CovariateSource} from "../../../src/lib/ratingCovariates.js";
import {seatCovariateInputs, seatRows} from "./seats.js";
import {choiceOption, intOption, parse, printJson, UsageError} from "./args.js";
import {usage} from "../../usage/ratings.usage.js";
import {generalisation} from "./generalisation.js";

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("ratings", argv, {
    weighting: {type: "string"},
    clones: {type: "string"},
    outcome: {type: "string"},
    ties: {type: "string"},
    controls: {type: "string"},
    "control-by": {type: "string"},
    "nash-matrix": {type: "string"},
    resamples: {type: "string"},
    seed: {type: "string"},
    generalisation: {type: "boolean", default: false},
  });
  if (!positionals.length) throw new UsageError(`parley ${usage}`);
  const weighting = choiceOption("ratings", "weighting", values.weighting, WEIGHTINGS, "families");
  const clones = choiceOption("ratings", "clones", values.clones, CLONE_HANDLINGS, "entrants");
  const outcome = choiceOption("ratings", "outcome", values.outcome, OUTCOMES, "win");
  const ties = choiceOption("ratings", "ties", values.ties, ["half", "davidson"] as const, "half");
  if (ties === "davidson" && outcome !== "win") throw new UsageError(`parley ratings: --ties davidson needs --outcome win (a margin outcome has no ties to model), got --outcome ${outcome}`);
  const controls = parseControls(values.controls ?? "all");
  if (!Array.isArray(controls)) throw new UsageError(`parley ratings: --controls: expected all, none or a comma-separated list of ${CONTROLS.join(", ")}, got ${JSON.stringify(controls.unknown)}`);
  const by = choiceOption("ratings", "control-by", values["control-by"], ["agent", "model"] as const, "agent");
  const matrix = choiceOption("ratings", "nash-matrix", values["nash-matrix"], ["empirical", "bradley-terry"] as const, "empirical");
  const resamples = intOption("ratings", "resamples", values.resamples, {min: 0, max: 100_000}, 1000);
  const seed = intOption("ratings", "seed", values.seed, {min: 0, max: 2 ** 31 - 1}, 1);
  if (values.generalisation) {
    // Its intervals are cluster-robust, as the ratings': no draws, so --resamples and --seed change nothing.
    printJson(await generalisation(positionals));
    return 0;
  }
  const sources: CovariateSource[] = [];
  for (const [i, dir] of positionals.entries()) {
    const prefix = positionals.length > 1 ? `run${i}` : "";
    const rows = await seatRows("ratings", dir, prefix);
    sources.push({rows, ...(controls.length ? await seatCovariateInputs("ratings", dir, prefix) : {turns: [], settings: new Map()})});
  }
  const rows: SeatRow[] = sources.flatMap((s) => s.rows);
  const covariates = withCovariates(sources, controls, by);
  const games = ratedGames(covariates.rows);
  // The models beside the ratings fit every agent as an entrant (`--clones` is the ratings' option; Nash averaging is clone-invariant by itself).
  const options = {weighting, outcome, resamples, seed} as const;
  const result = rateAgents(games, {...options, clones});
  const families = [...new Set(rows.map((r) => r.family))].sort();
  const alpha_rank = families.flatMap((family) => {
    const game = seatMetaGame(rows, family);
    if (game.rows.length < 2 || game.cols.length < 2) return [];
    const r = alphaRank(game);
    return [{family, alpha: r.alpha, population_size: r.populationSize, seat0: game.rows.map((agent, i) => ({agent, mass: r.rowMass[i]})), seat1: game.cols.map((agent, j) => ({agent, mass: r.colMass[j]}))}];
  });
  const controlled = {...controlledRatings(games, covariates.columns, {...options, by}), left_out: covariates.left_out};
  printJson({
    weighting,
    clones,
    outcome,
    ...(outcome === "surplus-share" && {surplus_fallbacks: outcomeFallbacks(games)}),
    resamples: result.resamples,
    tier_confidence: result.tier_confidence,
    agents: result.agents,
    unrated: result.unrated,
    components: result.components,
    clone_groups: result.clone_groups,
    families: result.families,
    alpha_rank,
    ties: ties === "davidson" ? davidsonRatings(games, options) : {model: "half"},
    controlled,
    nash_averaging: nashRatings(games, {...options, matrix}),
  });
  return 0;
}
