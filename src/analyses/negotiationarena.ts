/**
 * The analysis of NegotiationArena (Bianchi et al. 2024): §3's win rates
 * (ties left out) and mean payoffs per scenario and ordered pair, Figure 3's
 * per-scenario pairs with agents labelled by social behaviour (§5), and the
 * irrationality probes of §4–5 (buyer payoffs, price sequences for anchoring
 * and splitting the difference, the ultimatum's acceptance curve and stake
 * shares). The SQL is src/lib/negotiationArena.ts's; this file names it, and
 * declares the pages' first views.
 */
import {acceptanceCurveSQL, anchoring, badCounterOffers, buyerPayoffSQL, NA_PREFIX, NA_SCENARIOS, pairStatsSQL, priceSequencesSQL, splitTheDifference, stakeShareSQL, type NaScenario} from "../lib/negotiationArena.js";
import {ARENA_TURNS_SQL, NA_PAGES, prepareArena, prepareArenaWithTurns, scenarioPairsSQL, tradesSQL, transcriptChoicesSQL} from "../lib/pages/negotiationArena.js";
import type {FirstView, Query} from "../lib/snapshot.js";
import {measureSQL, sqlMeasure, type Analysis, type Measure, type Parameter, type Params} from "./analysis.js";

const scenarioParameter: Parameter = {name: "scenario", kind: "string", default: "buy_sell", choices: NA_SCENARIOS, description: "the scenario"};
const scenarioOf = (params: Params) => String(params.scenario) as NaScenario;

/** A row of priceSequencesSQL, as the computations below read it. */
interface PriceSequence {
  p2_agent: string;
  p1: number | null;
  p2: number | null;
  final_price: number | null;
  prices: number[];
}

/**
 * §5.1's three buy/sell probes computed from the price sequences, as the
 * scenario page computes them (points left out: the page draws them).
 */
function sequenceMeasures(): Measure[] {
  const sequences = async (query: Query): Promise<PriceSequence[]> => {
    await prepareArenaWithTurns(query);
    return (await query(priceSequencesSQL("arena", "arena_turns"))) as unknown as PriceSequence[];
  };
  const base = {tables: ["games", "turns"] as const, format: "json" as const, dataset: "negotiationarena"};
  return [
    {
      ...base,
      name: "anchoring",
      description: "Buy/sell, §5.1, Figure 8a: Spearman ρ of the seller's first proposal p₁ against the final price over the deals, with its 95% interval (the paper: ρ = 0.716 for GPT-4)",
      answer: async (query) => {
        const {points, ...rest} = anchoring((await sequences(query)).map((s) => ({p1: s.p1, final_price: s.final_price})));
        return rest;
      },
    },
    {
      ...base,
      name: "split-the-difference",
      description: "Buy/sell, §5.1, Figure 17: Pearson r of each proposal against the midpoint of the two before it, with its 95% interval",
      answer: async (query) => {
        const {points, ...rest} = splitTheDifference((await sequences(query)).map((s) => [...s.prices]));
        return rest;
      },
    },
    {
      ...base,
      name: "bad-counter-offers",
      description: "Buy/sell, §5.1, Figure 8b: per buyer, how often its first counter p₂ is above the seller's first proposal p₁, tested one-sided against 0.11",
      answer: async (query) => {
        const rows = await sequences(query);
        const buyers = [...new Set(rows.map((s) => s.p2_agent))].sort();
        return buyers.map((buyer) => ({buyer, ...badCounterOffers(rows.filter((s) => s.p2_agent === buyer), 0.11)}));
      },
    },
  ];
}

const measures: Measure[] = [
  sqlMeasure({
    name: "pairs",
    description: "§3: per scenario and ordered pair, games, decisive games, each player's win rate with ties left out, and each player's mean payoff",
    tables: ["games"],
    format: "jsonl",
    dataset: "negotiationarena",
    sql: () => pairStatsSQL("games"),
  }),
  sqlMeasure({
    name: "labelled-pairs",
    description: "§3, §5: the pairs with agents labelled by their social behaviour, without the acceptance test's injected offers (the /negotiationarena overview)",
    tables: ["games"],
    format: "jsonl",
    dataset: "negotiationarena",
    prepare: prepareArena,
    sql: () => pairStatsSQL("arena", "injected_offer IS NULL"),
  }),
  sqlMeasure({
    name: "scenario-pairs",
    description: "Figure 3: one scenario's labelled ordered pairs",
    tables: ["games"],
    parameters: [scenarioParameter],
    format: "jsonl",
    dataset: "negotiationarena",
    prepare: prepareArena,
    sql: (params) => scenarioPairsSQL(scenarioOf(params)),
  }),
  sqlMeasure({
    name: "trades",
    description: "Resource exchange: how often each ordered pair trades, and the second player's mean payoff",
    tables: ["games"],
    parameters: [{...scenarioParameter, default: "resource_exchange"}],
    format: "jsonl",
    dataset: "negotiationarena",
    prepare: prepareArena,
    sql: (params) => tradesSQL(scenarioOf(params)),
  }),
  sqlMeasure({
    name: "buyer-payoff",
    description: "Buy/sell, Figure 4: the buyer's payoff (willingness to pay − price) and mean price per ordered pair, over the games that ended in a deal",
    tables: ["games"],
    format: "jsonl",
    dataset: "negotiationarena",
    prepare: prepareArena,
    sql: () => buyerPayoffSQL("arena"),
  }),
  sqlMeasure({
    name: "price-sequences",
    description: "Buy/sell (§5, anchoring and splitting the difference): each game's proposed prices in order, the first proposal and counter, and the final price",
    tables: ["games", "turns"],
    format: "jsonl",
    dataset: "negotiationarena",
    prepare: prepareArenaWithTurns,
    sql: () => priceSequencesSQL("arena", "arena_turns"),
  }),
  ...sequenceMeasures(),
  sqlMeasure({
    name: "acceptance",
    description: "Ultimatum, §5.2: the acceptance rate of injected offers by amount, per ordered pair and stake",
    tables: ["games"],
    format: "jsonl",
    dataset: "negotiationarena",
    prepare: prepareArena,
    sql: () => acceptanceCurveSQL("arena"),
  }),
  sqlMeasure({
    name: "stake-share",
    description: "Ultimatum, Figure 10: RED's final share of the stake by stake, over played games that ended in a deal",
    tables: ["games"],
    format: "jsonl",
    dataset: "negotiationarena",
    prepare: prepareArena,
    sql: () => stakeShareSQL("arena"),
  }),
];

/** The measures of each scenario page's own section, after its pairs. */
const SCENARIO_SECTIONS: Record<NaScenario, readonly string[]> = {buy_sell: ["buyer-payoff", "price-sequences"], ultimatum: ["acceptance", "stake-share"], resource_exchange: ["trades"]};

/** Everything a scenario page asks before any input is touched. */
async function scenarioScript(query: Query, scenario: NaScenario): Promise<void> {
  await query(measureSQL(negotiationArenaAnalysis, "scenario-pairs", {scenario}));
  for (const name of SCENARIO_SECTIONS[scenario]) await query(measureSQL(negotiationArenaAnalysis, name, name === "trades" ? {scenario} : {}));
  const [first] = await query(transcriptChoicesSQL(scenario));
  if (first) await query(ARENA_TURNS_SQL, [first.game_id]);
}

const firstViews: FirstView[] = [
  {page: "negotiationarena", dataset: "negotiationarena", tables: ["games"], prepare: prepareArena, script: async ({query}) => void (await query(measureSQL(negotiationArenaAnalysis, "labelled-pairs")))},
  ...Object.entries(NA_PAGES).map(([slug, scenario]): FirstView => ({
    page: `negotiationarena-${slug}`,
    dataset: "negotiationarena",
    tables: ["games", "turns"],
    prepare: prepareArenaWithTurns,
    script: ({query}) => scenarioScript(query, scenario),
  })),
];

export const negotiationArenaAnalysis: Analysis = {
  paper: "negotiationarena",
  title: "NegotiationArena (Bianchi et al. 2024)",
  games: (game) => game.startsWith(NA_PREFIX),
  inputHint: (dir) => `run "parley run <config.json> --out ${dir}" (e.g. data/runs/negotiationarena.json) or "parley ingest negotiationarena <logs> --out ${dir}" first`,
  measures,
  defaultMeasure: "pairs",
  firstViews,
};
