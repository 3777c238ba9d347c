/**
 * Resource exchange (NegotiationArena (Bianchi et al. 2024) §2.1, Table 1;
 * prompt Appendix E.1.1, Fig. 15): RED holds 25 X and 5 Y, BLUE 5 X and 25
 * Y; both want "more resources in general"; 8 turns. A player may accept
 * the other's standing trade, propose a new one (at most iterations // 2 − 1
 * proposals each, the authors' repository), or wait (NONE). The game ends on
 * an ACCEPT or when the turns run out.
 *
 * Payoff: the change in total resources, Σfinal − Σinitial (the 2.45 and
 * 1.38 of §3 are on this scale). Trades move units between the players, so
 * the game is constant-sum: one player's gain is the other's loss, and two
 * rational players never trade (a tie, left out of win rates).
 *
 * The extended variant (Fig. 14) gives BLUE also Z: 10 and W: 7:
 * `{"grid": {"blue_z": [10], "blue_w": [7]}}`.
 */
import type {NumberSpec, ParamSpec, Params} from "../../contract/game.js";
import {NA_GAME} from "./columns.js";
import {arenaGame, iterationsParam, valueOf} from "./paper.js";
import {total, type ArenaRules, type Holdings} from "./protocol.js";

const amount = (name: string, label: string, paperDefault: number, grid: number[], doc: string): ParamSpec => ({name, label, type: "integer", min: 0, max: 1e6, default: paperDefault, grid, doc});

const PARAMS: ParamSpec[] = [
  iterationsParam(8, [8], "messages in the game (Table 1: 8 rounds of interaction)"),
  amount("red_x", "RED's X", 25, [25], "Table 1"),
  amount("red_y", "RED's Y", 5, [5], "Table 1"),
  amount("blue_x", "BLUE's X", 5, [5], "Table 1"),
  amount("blue_y", "BLUE's Y", 25, [25], "Table 1"),
  amount("blue_z", "BLUE's Z", 0, [0], "extended variant (Fig. 14): 10"),
  amount("blue_w", "BLUE's W", 0, [0], "extended variant (Fig. 14): 7"),
];
const P = Object.fromEntries(PARAMS.map((p) => [p.name, p]));

/** Holdings without the resources a player has none of. */
const holdings = (entries: [string, number][]): Holdings => Object.fromEntries(entries.filter(([, n]) => n > 0));

export function resourceExchangeRules(params: Params): ArenaRules {
  const v = (name: string) => valueOf(params, P[name]);
  const initial: [Holdings, Holdings] = [
    holdings([["X", v("red_x")], ["Y", v("red_y")]]),
    holdings([["X", v("blue_x")], ["Y", v("blue_y")], ["Z", v("blue_z")], ["W", v("blue_w")]]),
  ];
  const tradeFields: Record<string, NumberSpec> = {};
  initial.forEach((h, s) => {
    for (const r in h) tradeFields[`${s === 0 ? "red" : "blue"}_${r}`] = {min: 0, max: h[r], integer: true};
  });
  const iterations = v("iterations");
  return {
    scenario: "resource_exchange",
    game: resourceExchange.id,
    iterations,
    initial,
    goals: [{kind: "maximise"}, {kind: "maximise"}],
    roles: [null, null],
    tradeFields,
    wait: true,
    reject: false,
    proposalLimit: Math.floor(iterations / 2) - 1,
    finalDecider: null,
    payoffs: (final) => [total(final[0]) - total(initial[0]), total(final[1]) - total(initial[1])],
    outcome: () => ({}),
    turnColumns: () => ({}),
  };
}

export const resourceExchange = arenaGame({
  id: "negotiationarena/resource_exchange",
  title: "Resource exchange",
  section: "§2.1, Table 1, Appendix E.1.1",
  description: "RED (25 X, 5 Y) and BLUE (5 X, 25 Y) trade for 8 turns; each wants more resources in total.",
  params: PARAMS,
  columns: [NA_GAME.red_x, NA_GAME.red_y, NA_GAME.blue_x, NA_GAME.blue_y, NA_GAME.blue_z, NA_GAME.blue_w],
  turnColumns: [],
  rules: resourceExchangeRules,
});
