/**
 * What /ratings reads of each dataset it pools, computed at build time as
 * the dataset's first view (src/lib/snapshot.ts; `first-ratings.json` in
 * the GLEE and gamma-Bench archives): the rated games, compacted and packed
 * (src/lib/ratings.ts compactGames, ratingsData.ts packGames), the number of
 * seats they came from, the meta-game of every two-seat family for α-Rank,
 * and each agent's recorded tokens (for rating against cost per game); and
 * what its controlled ranking reads of the turns (`ratingCovariates`). The
 * page then fits in the browser without DuckDB-WASM (whose 34 MB start and
 * the transfer of some 100,000 seat rows took most of its time); a margin
 * outcome (`outcome` in the input) asks DuckDB-WASM for the games again.
 */
import {compactGames} from "../ratings.js";
import {commonSeatsSQL, gleeSeatsSQL, packGames, ratedGames, seatMetaGame, inSeatOrder, type PackedGames, type SeatRow} from "../ratingsData.js";
import {outcomeFallbacks, type Outcome} from "../ratingOutcomes.js";
import {seatTurnsSQL, valuesPerAgent, type SeatTurns, type TurnValues} from "../ratingCovariates.js";
import type {Bimatrix} from "../bimatrix.js";
import {commonTokensSQL, gleeTokensSQL, type AgentTokens} from "../agentCost.js";
import type {Computation, FirstView, Query} from "../snapshot.js";
import {runSeatsSQL, runTokensSQL} from "../runSeats.js";

export type RatingSourceId = "glee" | "gamabench";

/**
 * A built-in dataset, or a configured run whose seats tables (src/lib/runSeats.ts) are named `<tables>games`, `<tables>players`, `<tables>turns`;
 * `prefix` keeps its game ids apart from other sources'. `outcome`, given only when it is not "win" (so the first view's key stays
 * the same), is what a two-seat game is compacted to (ratingOutcomes.ts).
 */
export type RatingSourceInput = ({source: RatingSourceId} | {source: "run"; tables: string; prefix: string}) & {outcome?: Exclude<Outcome, "win">};

export interface RatingSource {
  seats: number;
  games: PackedGames;
  /** Two-seat families whose payoff table has at least two agents per seat. */
  metaGames: {family: string; game: Bimatrix & {n: number[][]}}[];
  /** Recorded tokens per agent, for cost per game (agentCost.ts). */
  tokens: AgentTokens[];
  /** With the surplus-share outcome: comparisons counted as win, tie or loss for a negative return (ratingOutcomes.ts outcomeFallbacks, before compacting). */
  surplus_fallbacks?: number;
}

/** `input` asking for two-seat games compacted to `outcome` (the input itself for "win", the first view's). */
export const withOutcome = (input: RatingSourceInput, outcome: Outcome): RatingSourceInput => (outcome === "win" ? input : {...input, outcome});

/** The same seat SQL as `parley ratings` (ratingsData.ts), on the dataset's `games` (and `players`) tables. */
export async function sourceSeats(query: Query, input: RatingSourceInput): Promise<SeatRow[]> {
  if (input.source === "run") return (await query(inSeatOrder(runSeatsSQL({games: `${input.tables}games`, players: `${input.tables}players`, prefix: input.prefix})))) as SeatRow[];
  if (input.source === "glee") return (await query(inSeatOrder(gleeSeatsSQL("games", "glee")))) as SeatRow[];
  const columns = new Set((await query("SELECT column_name FROM (DESCRIBE games)")).map((r) => r.column_name as string));
  return (await query(inSeatOrder(commonSeatsSQL("games", "players", "g.game", columns, "gamabench")))) as SeatRow[];
}

/** The token sums of a source; a dataset's turns may lack the cached and reasoning counts (logs and runs before they were kept). */
async function tokensSQL(query: Query, input: RatingSourceInput): Promise<string> {
  if (input.source === "run") return runTokensSQL({players: `${input.tables}players`, turns: `${input.tables}turns`});
  const columns = new Set((await query("SELECT column_name FROM (DESCRIBE turns)")).map((r) => r.column_name as string));
  return input.source === "glee" ? gleeTokensSQL("games", "turns", columns) : commonTokensSQL("players", "turns", columns);
}

export const ratingSource: Computation<RatingSourceInput, RatingSource> = {
  name: "ratings-source",
  async compute(query, input) {
    const rows = await sourceSeats(query, input);
    const metaGames = [...new Set(rows.map((r) => r.family))]
      .sort()
      .map((family) => ({family, game: seatMetaGame(rows, family)}))
      .filter(({game}) => game.rows.length > 1 && game.cols.length > 1);
    const tokens = (await query(await tokensSQL(query, input))) as AgentTokens[];
    const games = ratedGames(rows);
    return {seats: rows.length, games: packGames(compactGames(games, input.outcome ?? "win")), metaGames, tokens, ...(input.outcome === "surplus-share" && {surplus_fallbacks: outcomeFallbacks(games)})};
  },
};

/**
 * What the controlled ranking reads of a source's turns (ratingCovariates.ts):
 * per agent when each agent's seats all have the same values (a dataset of
 * scripted strategies or of logs without token counts: a few bytes), else
 * per seat, with the seat rows. The players' settings come from a run's
 * manifest, on the page.
 */
export interface RatingCovariates {
  perAgent: {agent: string; seats: number; values: TurnValues}[] | null;
  rows: SeatRow[] | null;
  turns: SeatTurns[] | null;
}

/** A source's turn sums, by the same SQL as `parley ratings` (ratingCovariates.ts seatTurnsSQL). */
async function sourceTurns(query: Query, input: RatingSourceInput): Promise<SeatTurns[]> {
  const turns = input.source === "run" ? `${input.tables}turns` : "turns";
  const columns = new Set((await query(`SELECT column_name FROM (DESCRIBE ${turns})`)).map((r) => r.column_name as string));
  const prefix = input.source === "run" ? input.prefix : input.source;
  return (await query(seatTurnsSQL(turns, columns, {form: input.source === "glee" ? "glee" : "common", prefix}))) as SeatTurns[];
}

export const ratingCovariates: Computation<RatingSourceInput, RatingCovariates> = {
  name: "ratings-covariates",
  async compute(query, input) {
    const rows = await sourceSeats(query, input);
    const turns = await sourceTurns(query, input);
    const perAgent = valuesPerAgent(rows, turns);
    return perAgent ? {perAgent, rows: null, turns: null} : {perAgent: null, rows, turns};
  },
};

/** The tables each source's page data opens (its dataset's archive members). */
export const RATING_TABLES: Record<RatingSourceId, string[]> = {glee: ["games", "turns"], gamabench: ["games", "players", "turns"]};

export const ratingsFirstViews: FirstView[] = (Object.keys(RATING_TABLES) as RatingSourceId[]).map((source) => ({
  page: "ratings",
  dataset: source,
  tables: RATING_TABLES[source],
  script: async (ask) => {
    await ask.memo(ratingSource, {source});
    await ask.memo(ratingCovariates, {source});
  },
}));
