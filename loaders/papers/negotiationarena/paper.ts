/**
 * What NegotiationArena's three scenarios share on the game contract: the
 * citation, the turn-budget parameter, the columns every scenario writes, and
 * `arenaGame`, which turns a scenario's rules into a GameDef.
 */
import type {Chance, GameDef, ParamSpec, Params} from "../../contract/game.js";
import type {Column} from "../../io/schema.js";
import {NA_GAME, NA_PLAYER, NA_TURN} from "./columns.js";
import {ArenaState, NEGOTIATIONARENA_PAPER, SEAT_NAMES, type ArenaRules} from "./protocol.js";

export const citation = (section: string) => ({...NEGOTIATIONARENA_PAPER, section});

/** The turn budget: total messages in the game (Tables 1-3: 8, 8, 10). */
export const iterationsParam = (paperDefault: number, grid: readonly number[], doc: string): ParamSpec => ({
  name: "iterations", label: "Turns", type: "integer", min: 2, max: 1000, default: paperDefault, grid, doc,
});

/** A parameter's value as a number (a run config gives numbers; the runner fills defaults). */
export const valueOf = (params: Params, spec: ParamSpec): number => Number(params[spec.name] ?? spec.default);

/** Columns every scenario's games row carries (the scenario adds its parameters and outcome). */
const COMMON_GAME: Column[] = [
  NA_GAME.iterations, NA_GAME.p1_agent, NA_GAME.p2_agent, NA_GAME.p1_name, NA_GAME.p2_name, NA_GAME.p1_role, NA_GAME.p2_role,
  NA_GAME.p1_resources, NA_GAME.p2_resources, NA_GAME.final_response, NA_GAME.agreement,
  NA_GAME.p1_final_resources, NA_GAME.p2_final_resources, NA_GAME.p1_payoff, NA_GAME.p2_payoff, NA_GAME.winner,
];

export interface ScenarioDef {
  id: string;
  title: string;
  section: string;
  description: string;
  params: ParamSpec[];
  /** The scenario's own games columns (parameters and outcome). */
  columns: Column[];
  turnColumns: Column[];
  checkParams?(params: Params): string | null;
  /** The game-id stem (default: the id with "/" as "."). */
  idStem?(params: Params): string;
  /** Games-row columns of the parameters (default: each under its name). */
  paramColumns?(params: Params): Record<string, unknown>;
  /** The rules of one game; `chance` draws what the game draws (random valuations), by key (contract/game.ts). */
  rules(params: Params, chance: Chance): ArenaRules;
}

/** A scenario on the game contract: two named seats, sequential, parameters stored under their names. */
export function arenaGame(s: ScenarioDef): GameDef {
  return {
    id: s.id,
    title: s.title,
    citation: citation(s.section),
    seats: {min: 2, max: 2, default: 2, names: SEAT_NAMES},
    moves: "sequential",
    description: s.description,
    params: s.params,
    checkParams: s.checkParams,
    columns: {
      games: [...COMMON_GAME, ...s.columns],
      players: Object.values(NA_PLAYER),
      turns: [NA_TURN.role, NA_TURN.trade, NA_TURN.private_goals, NA_TURN.private_resources, NA_TURN.proposal_count, ...s.turnColumns],
    },
    paramColumns: (params) => ({...Object.fromEntries(s.params.map((p) => [p.name, valueOf(params, p)])), ...s.paramColumns?.(params)}),
    lineupColumns: (lineup) => ({p1_agent: lineup[0], p2_agent: lineup[1]}),
    idStem: s.idStem,
    start: (params, context) => new ArenaState(context.gameId, s.rules(params, context.chance)),
  };
}
