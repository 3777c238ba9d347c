/**
 * Multi-turn ultimatum (NegotiationArena (Bianchi et al. 2024) §2.1,
 * Table 2; §5.2; the authors' ultimatum prompt): RED starts with $100, BLUE
 * with nothing; 8 turns. RED proposes a split ("Player RED Gives Dollars: k
 * | Player BLUE Gives Dollars: 0"); on each later turn a player accepts the
 * other's proposal, rejects it ("both players lose all their resources and
 * the game ends immediately"), or proposes anew. The player holding the last
 * move may only ACCEPT or REJECT on it.
 *
 * Payoff: dollars held at the end; a REJECT gives both 0 (and so would the
 * turns running out, the paper's "draw", L110; the repository instead hands
 * RED its $100 back, which the paper contradicts: the paper is followed).
 *
 * Variants (§5.2): the classical 2-turn game and the 3-turn game with a
 * 10-unit pie (`iterations` 2 or 3, `stake` 10); stake scaling up to
 * $10,000,000,000 (`stake`); the counterfactual acceptance test, where the
 * game itself makes the penultimate proposal giving the decider
 * `injected_offer` units (0..10, 20 trials each).
 *
 * Backward induction (the last mover accepts any positive offer): the
 * second-to-last mover keeps stake − 1 and gives 1, so T = 8 ends (99, 1)
 * and an odd T (1, 99); see `ultimatumEquilibrium`.
 */
import type {ParamSpec, Params, Seat} from "../../contract/game.js";
import {NA_GAME, NA_TURN} from "./columns.js";
import {arenaGame, iterationsParam, valueOf} from "./paper.js";
import type {ArenaRules, Trade} from "./protocol.js";

const PARAMS: ParamSpec[] = [
  iterationsParam(8, [2, 3, 8], "messages in the game (Table 2: 8; §5.2: the classical 2-turn and the 3-turn games)"),
  {name: "stake", label: "Stake ($)", type: "integer", min: 1, max: 1e10, default: 100, grid: [10, 100, 1e4, 1e6, 1e8, 1e10], doc: "dollars RED starts with (Table 2: 100; §5.2: 10 units, and up to $10,000,000,000)"},
  {name: "injected_offer", label: "Injected offer", type: "integer", min: -1, max: 1e10, default: -1, grid: [-1], doc: "−1: played; k ≥ 0: the game proposes that the decider gets k on the penultimate turn (§5.2 acceptance test)"},
];
const [ITERATIONS, STAKE, INJECTED] = PARAMS;

/** The seat holding the last move of a T-turn game (RED moves on odd turns). */
export const lastMover = (iterations: number): Seat => (iterations - 1) % 2;

/** A trade that leaves the decider `amount` of `stake` (the decider's share; RED's proposals always give from RED). */
export function splitGiving(decider: Seat, amount: number, stake: number): Trade {
  return {red: {Dollars: decider === 1 ? amount : stake - amount}, blue: {}};
}

/** The subgame-perfect split [RED, BLUE] of a T-turn game: the penultimate mover keeps stake − 1. */
export function ultimatumEquilibrium(iterations: number, stake: number): [number, number] {
  return lastMover(iterations) === 1 ? [stake - 1, 1] : [1, stake - 1];
}

export function ultimatumRules(params: Params): ArenaRules {
  const iterations = valueOf(params, ITERATIONS);
  const stake = valueOf(params, STAKE);
  const injected = valueOf(params, INJECTED);
  const decider = lastMover(iterations);
  return {
    scenario: "ultimatum",
    game: ultimatum.id,
    iterations,
    initial: [{Dollars: stake}, {Dollars: 0}],
    goals: [{kind: "split"}, {kind: "split"}],
    roles: [null, null],
    tradeFields: {red_Dollars: {min: 0, max: stake, integer: true}},
    wait: false,
    reject: true,
    proposalLimit: Infinity,
    finalDecider: decider,
    ...(injected >= 0 && {injected: {turn: iterations - 1, trade: splitGiving(decider, injected, stake)}}),
    payoffs: (final, agreed) => (agreed ? [final[0].Dollars ?? 0, final[1].Dollars ?? 0] : [0, 0]),
    outcome: ({agreed, payoffs}) => ({p1_share: agreed ? payoffs[0] / stake : null, injected_offer: injected >= 0 ? injected : null}),
    turnColumns: (trade) => ({offer: trade.red.Dollars ?? 0}),
  };
}

export const ultimatum = arenaGame({
  id: "negotiationarena/ultimatum",
  title: "Multi-turn ultimatum",
  section: "§2.1, Table 2, §5.2",
  description: "RED splits $100 with BLUE over 8 turns; either may accept, reject (both get 0) or counter; the last mover may only accept or reject.",
  params: PARAMS,
  columns: [NA_GAME.stake, NA_GAME.injected_offer, NA_GAME.p1_share],
  turnColumns: [NA_TURN.offer, NA_TURN.made_by_game],
  // Games whose penultimate proposal the game made are a separate experiment (§5.2): their ids say so,
  // so that they never collide with played games of the same configuration number.
  idStem: (params) => (valueOf(params, INJECTED) >= 0 ? "negotiationarena.ultimatum-injected" : "negotiationarena.ultimatum"),
  paramColumns: (params) => ({injected_offer: valueOf(params, INJECTED) >= 0 ? valueOf(params, INJECTED) : null}),
  checkParams: (params) => {
    const stake = valueOf(params, STAKE);
    const injected = valueOf(params, INJECTED);
    if (injected > stake) return `injected_offer: ${injected} is more than the stake ${stake}`;
    if (injected >= 0 && valueOf(params, ITERATIONS) < 2) return "injected_offer needs at least 2 turns";
    return null;
  },
  rules: ultimatumRules,
});
