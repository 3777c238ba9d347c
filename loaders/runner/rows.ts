/**
 * The games and players rows of a finished game, as every writer of the
 * common tables builds them (`parley run`, a game a person played). Pure:
 * the browser's play page builds the same rows (src/play.md).
 */
import type {GameResult} from "../contract/game.js";
import {seatName} from "../contract/game.js";
import type {RunConfig} from "./runConfigTypes.js";
import type {PlannedGame} from "./grid.js";
import type {TurnRow} from "./gameLoop.js";

/** One finished game: its rows in the three tables. */
export interface GameRecord {
  game: string;
  row: Record<string, unknown> & {game_id: string};
  players: Record<string, unknown>[];
  turns: TurnRow[];
}

/** The games row of a finished game: identity, parameters, outcome, and `<seat name>_agent` where the game has such columns. */
export function gameRow(planned: PlannedGame, config: Pick<RunConfig, "run_id" | "seed">, result: GameResult, traits: readonly (Record<string, unknown> | undefined)[] = []): GameRecord["row"] {
  const {def} = planned;
  const row: GameRecord["row"] = {
    game_id: planned.game_id,
    source: "simulated",
    run_id: config.run_id,
    seed: config.seed,
    config_id: planned.config_id,
    repetition: planned.repetition,
    n_players: planned.lineup.length,
    rounds: result.rounds,
    ended_by: result.ended_by,
  };
  Object.assign(row, def.paramColumns ? def.paramColumns(planned.params) : planned.params);
  if (def.lineupColumns) Object.assign(row, def.lineupColumns(planned.lineup, planned.repetition));
  if (def.seats.names) {
    planned.lineup.forEach((id, s) => {
      const column = `${seatName(def, s)}_agent`;
      if (def.columns.games.some((c) => c.name === column)) row[column] = id;
      for (const [trait, value] of Object.entries(traits[s] ?? {})) {
        if (def.columns.games.some((c) => c.name === `${seatName(def, s)}_${trait}`)) row[`${seatName(def, s)}_${trait}`] = value;
      }
    });
  }
  for (const k in result.game) if (result.game[k] !== null && result.game[k] !== undefined) row[k] = result.game[k];
  return row;
}

/** The players rows of a finished game. */
export function playerRows(planned: PlannedGame, result: GameResult): Record<string, unknown>[] {
  return planned.lineup.map((agent, seat) => ({
    game_id: planned.game_id,
    seat,
    seat_name: planned.def.seats.names?.[seat] ?? null,
    agent,
    return: result.returns[seat],
    ...result.seats[seat],
  }));
}
