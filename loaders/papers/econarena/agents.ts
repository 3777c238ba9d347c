/**
 * Built-in agents for the Economics Arena games (Economics Arena (Guo et al.
 * 2024) §4.1: the "hard-coded rational agents" of the rational environment,
 * plus baselines). They read only the view (loaders/papers/econarena/views.ts).
 */
import type {Rng} from "../../../src/lib/rng.js";
import {firstPriceBid} from "../../../src/lib/auctionEquilibria.js";
import type {Action, GameObservation} from "../../contract/game.js";
import type {AuctionView, BeautyView} from "./views.js";
import type {Agent, AgentDef, SeatContext} from "../../contract/agent.js";

const BEAUTY = "econarena/beauty_contest";
const AUCTION = "econarena/auction";

type Policy = (obs: GameObservation, rng: Rng) => Action;

/**
 * An auction bidder by the highest price it will pay this run: sealed bids
 * bid it, the English clock stays in while the price is at most it (and
 * within the assets). `limit` is asked once per run (a random bidder keeps
 * its draw for the whole clock).
 */
function bidder(limit: (v: AuctionView, rng: Rng) => number): Agent {
  let run = 0;
  let current = 0;
  return {
    act: (obs, rng) => {
      const v = obs.view as AuctionView;
      if (v.run !== run) [run, current] = [v.run, Math.min(v.assets, limit(v, rng))];
      if (v.clock) return {action: {type: "clock", choice: v.clock.price <= current + 1e-9 ? "stay" : "drop"}};
      return {action: {type: "bid", amount: current}};
    },
  };
}

/** One agent per seat that answers every observation with `policy`. */
const stateless = (policy: Policy): Agent => ({act: (obs, rng) => ({action: policy(obs, rng)})});

const beauty = (choose: (v: BeautyView, rng: Rng) => number): Policy => (obs, rng) => ({type: "choose", amount: choose(obs.view as BeautyView, rng)});

/** The equilibrium: 0 in the beauty contest; the value (second price, English) or the risk-neutral BNE bid (first price), capped at assets. */
const rationalLimit = (v: AuctionView): number => (v.pricing === "first" ? firstPriceBid(v.value, v.n_players, v.value_mean, v.value_sd) : v.value);

/**
 * Level-k (Nagel 1995): level 0 chooses the middle of [0, c̄]; level k
 * best-responds to a population of level k − 1, c̄/2 · (2/3)^k (ignoring its
 * own weight in the average, as Nagel's model does).
 */
export const levelK = (k: number, upperBound: number): number => (upperBound / 2) * (2 / 3) ** k;

const SOURCE = "Economics Arena (Guo et al. 2024) §4.1";

function agent(id: string, games: readonly string[], description: string, source: string, create: (c: SeatContext) => Agent): AgentDef {
  return {id, games, description, source, create};
}

/** Picks the policy for the seat's game. */
const perGame = (byGame: Record<string, () => Agent>) => (c: SeatContext): Agent => byGame[c.game]();

export const econarenaAgents: AgentDef[] = [
  agent("rational", [BEAUTY, AUCTION], "Economics Arena: the equilibrium (0 in the beauty contest; bids its value at second price and in the English auction, the risk-neutral BNE bid at first price; never above its assets).", `${SOURCE}, Appendix A.1`,
    perGame({[BEAUTY]: () => stateless(beauty(() => 0)), [AUCTION]: () => bidder(rationalLimit)})),
  ...[0, 1, 2, 3].map((k) => agent(`level-${k}`, [BEAUTY], `Economics Arena beauty contest: level-${k} reasoning, c̄/2 · (2/3)^${k}.`, "Nagel (1995), level-k; Economics Arena (Guo et al. 2024) Appendix A.1", () => stateless(beauty((v) => levelK(k, v.upper_bound))))),
  agent("random", [BEAUTY, AUCTION], "Economics Arena: a uniform number in [0, c̄]; a uniform bid (or clock limit) in [0, assets].", "baseline",
    perGame({[BEAUTY]: () => stateless(beauty((v, rng) => rng.next() * v.upper_bound)), [AUCTION]: () => bidder((v, rng) => rng.next() * v.assets)})),
  agent("shade-25", [AUCTION], "Economics Arena auctions: bids (or stays in up to) 75% of its value.", "bid shading below value; Economics Arena (Guo et al. 2024) §4.1 reports overbidding and underbidding", () => bidder((v) => 0.75 * v.value)),
];
