/**
 * A paper's measures (src/analyses/) answered by native DuckDB over run or
 * ingest directories, either layout (io/runTables.ts), several read as one
 * run: what `parley stats`, the home page's headlines and a report's
 * summaries call, so that they run the measure the pages run.
 */
import {withRunViews} from "../io/parquet.js";
import {dataGame} from "../registry/games.js";
import {measureGames, measureNamed, withDefaults, type Analysis, type GameCatalog, type Params} from "../../src/analyses/analysis.js";

/** The project's games, as a measure's game selector asks about them. */
export const projectGames: GameCatalog = {isDataGame: (id) => dataGame(id) !== undefined};

/**
 * The answer of `analysis`'s measure `name` with `params` (the rest at their
 * defaults) over the games of `dirs` it selects. Throws RunTablesMissing
 * naming a directory without a table the measure reads.
 */
export async function answerOverRuns(analysis: Analysis, name: string, dirs: string | readonly string[], params: Params = {}): Promise<unknown> {
  const measure = measureNamed(analysis, name);
  const resolved = withDefaults(measure, params);
  const selects = measureGames(analysis, measure);
  return withRunViews(dirs, measure.tables, (game) => selects(game, resolved, projectGames), (db) => measure.answer((sql, args) => db.query(sql, args), resolved));
}
