/**
 * Seller and buyer (NegotiationArena (Bianchi et al. 2024) §2.1, Table 3;
 * §5.1; the authors' buy_sell prompt): RED sells one X that cost 40 ZUP to
 * make; BLUE holds 100 ZUP and would pay at most 60; 10 turns. Each sees only
 * its own valuation. A message proposes a trade ("Player RED Gives X: 1 |
 * Player BLUE Gives ZUP: p", whole ZUP, at most iterations // 2 − 1
 * proposals each), accepts the other's proposal, or rejects (the game ends
 * without a trade).
 *
 * Payoffs (the repository's Valuation, Fig. 4): seller p − cost, buyer
 * value − p; no deal gives both 0. The buyer wins when p is below the
 * midpoint of cost and value (§3: 50).
 *
 * Variants: contrasting objectives (E.3: cost 60, value 40); random
 * valuations (§5.1: cost ~ U{20, 40}, value ~ U{60, 80}: `valuation_spread`
 * 20, whole numbers drawn from the game's chance under the keys
 * `seller_cost` and `buyer_value`); the over-valued buyer (§5.1: "an order
 * of magnitude" above cost, the value is not given; 400 is Parley's
 * choice); denominations (§5.1: 40X, 60X, 100X: `denomination`).
 */
import type {Chance, ParamSpec, Params} from "../../contract/game.js";
import {NA_GAME, NA_TURN} from "./columns.js";
import {arenaGame, iterationsParam, valueOf} from "./paper.js";
import type {ArenaRules, Trade} from "./protocol.js";

const PARAMS: ParamSpec[] = [
  iterationsParam(10, [10], "messages in the game (Table 3: 10)"),
  {name: "seller_cost", label: "Seller's cost (ZUP)", type: "integer", min: 0, max: 1e9, default: 40, grid: [40, 60], doc: "Table 3: 40; contrasting objectives (E.3): 60"},
  {name: "buyer_value", label: "Buyer's willingness to pay (ZUP)", type: "integer", min: 0, max: 1e9, default: 60, grid: [60, 40, 400], doc: "Table 3: 60; contrasting objectives: 40; over-valued buyer (§5.1): 400, Parley's choice"},
  {name: "budget", label: "Buyer's ZUP", type: "integer", min: 1, max: 1e9, default: 100, grid: [100], doc: "Table 3: 100 (the repository's runner: 1000)"},
  {name: "valuation_spread", label: "Valuation spread", type: "integer", min: 0, max: 1e6, default: 0, grid: [0, 20], doc: "s > 0: cost ~ U{cost − s, cost}, value ~ U{value, value + s} (§5.1: 20)"},
  {name: "denomination", label: "Denomination X", type: "integer", min: 1, max: 1e6, default: 1, grid: [1, 10, 100, 1000], doc: "cost, value and budget times X (§5.1)"},
];
const P = Object.fromEntries(PARAMS.map((p) => [p.name, p]));

/** ZUP the buyer gives in a trade. */
export const priceOf = (trade: Trade): number => trade.blue.ZUP ?? 0;

export function buySellRules(params: Params, chance: Chance): ArenaRules {
  const v = (name: string) => valueOf(params, P[name]);
  const spread = v("valuation_spread");
  const x = v("denomination");
  const cost = (v("seller_cost") - (spread ? chance("seller_cost").int(spread + 1) : 0)) * x;
  const value = (v("buyer_value") + (spread ? chance("buyer_value").int(spread + 1) : 0)) * x;
  const budget = v("budget") * x;
  const iterations = v("iterations");
  return {
    scenario: "buy_sell",
    game: buySell.id,
    iterations,
    initial: [{X: 1}, {ZUP: budget}],
    goals: [{kind: "sell", cost}, {kind: "buy", value}],
    roles: ["seller", "buyer"],
    tradeFields: {red_X: {min: 1, max: 1, integer: true}, blue_ZUP: {min: 0, max: budget, integer: true}},
    required: ["red_X"],
    wait: false,
    reject: true,
    proposalLimit: Math.floor(iterations / 2) - 1,
    finalDecider: null,
    payoffs: (_final, agreed, trade) => (agreed && trade ? [priceOf(trade) - cost, value - priceOf(trade)] : [0, 0]),
    outcome: ({agreed, trade, history}) => {
      const first = history.find((m) => m.seat === 0 && m.trade);
      return {price: agreed && trade ? priceOf(trade) : null, first_price: first ? priceOf(first.trade!) : null, seller_cost: cost, buyer_value: value, budget};
    },
    turnColumns: (trade) => ({price: priceOf(trade)}),
  };
}

export const buySell = arenaGame({
  id: "negotiationarena/buy_sell",
  title: "Seller and buyer",
  section: "§2.1, Table 3, §5.1",
  description: "RED sells one object that cost it 40 ZUP to BLUE, who would pay at most 60 and holds 100; 10 turns, each knows only its own valuation.",
  params: PARAMS,
  columns: [NA_GAME.seller_cost, NA_GAME.buyer_value, NA_GAME.budget, NA_GAME.valuation_spread, NA_GAME.denomination, NA_GAME.price, NA_GAME.first_price],
  turnColumns: [NA_TURN.price],
  rules: buySellRules,
});
