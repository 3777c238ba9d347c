/**
 * NegotiationArena (Bianchi et al. 2024): the three scenarios with the
 * tagged protocol (one narrator for all three), the reader of the authors'
 * buy/sell logs, Parley's runs shown beside them, and the pages.
 */
import type {PaperManifest} from "../../contract/paper.js";
import {negotiationArenaAnalysis} from "../../../src/analyses/negotiationarena.js";
import type {Row} from "../../io/schema.js";
import {NA_SCHEMAS} from "./ingest.js";
import {play} from "./play.js";

const SCENARIOS = ["resource_exchange", "ultimatum", "buy_sell"];
const SCENARIO_TITLES: Record<string, string> = {resource_exchange: "resource exchange", ultimatum: "ultimatum", buy_sell: "seller and buyer"};

/** Several runs' rows, table by table (their game ids are distinct: see the ultimatum's idStem). */
function concatRuns(runs: {games: Row[]; players: Row[]; turns: Row[]}[]): Record<string, Row[]> {
  return {games: runs.flatMap((r) => r.games), players: runs.flatMap((r) => r.players), turns: runs.flatMap((r) => r.turns)};
}

export const negotiationarena: PaperManifest = {
  id: "negotiationarena",
  citation: {
    short: "NegotiationArena (Bianchi et al. 2024)",
    title: "How Well Can LLMs Negotiate? NegotiationArena Platform and Analysis",
    authors: "Federico Bianchi, Patrick John Chia, Mert Yuksekgonul, Jacopo Tagliabue, Dan Jurafsky, James Zou",
    firstAuthor: "Bianchi",
    year: 2024,
    venue: "ICML 2024, arXiv:2402.05863",
  },
  play,
  ingest: {
    negotiationarena: {describe: "NegotiationArena buy/sell logs, <run>/game_state.json (NegotiationArena (Bianchi et al. 2024))", input: "file or directory", ingest: async (path) => (await import("./ingest.js")).ingestNegotiationArena(path)},
  },
  datasets: [
    {
      id: "negotiationarena", title: "NegotiationArena buy/sell games (GPT-4 vs GPT-4)", cite: "NegotiationArena (Bianchi et al. 2024) §2.1, §3, §5", schemas: NA_SCHEMAS,
      logs: {path: "negotiationarena", adapter: "negotiationarena", source: "data/sources/negotiationarena.json"},
      supplement: {
        runs: ["negotiationarena", "negotiationarena-acceptance"],
        rows: concatRuns,
        note: "with Parley's built-in agents playing the three scenarios (data/runs/negotiationarena.json: every ordered pair, 60 games each; data/runs/negotiationarena-acceptance.json: §5.2's injected offers) at build time",
      },
    },
  ],
  report: [
    {
      id: "negotiationarena", prefixes: ["negotiationarena/"],
      pages: (games) => ["/negotiationarena", ...SCENARIOS.filter((s) => games.includes(`negotiationarena/${s}`)).map((s) => `/negotiationarena-${s.replace("_", "-")}`)],
    },
  ],
  pages: [
    {path: "/negotiationarena", title: "NegotiationArena", summary: "resource exchange, the multi-turn ultimatum and seller-and-buyer (NegotiationArena (Bianchi et al. 2024) §2), played by Parley's agents beside the authors' GPT-4 buy/sell logs: Figure 3's win rates per ordered pair with ties left out, the buyer's payoff, anchoring, split-the-difference, bad counter-offers and the ultimatum acceptance curve (§5), and transcripts with the hidden reasoning folded away."},
    ...SCENARIOS.map((s) => ({path: `/negotiationarena-${s.replace("_", "-")}`, title: `NegotiationArena: ${SCENARIO_TITLES[s]}`, parameterized: true as const})),
  ],
  analysis: negotiationArenaAnalysis,
  reference: "Played and read: the three scenarios of §2.1 (resource exchange, multi-turn ultimatum with the classical 2- and 3-turn variants, seller and buyer with its variants) with the tagged protocol of §2 and Appendix E.1 ([NegotiationArena](./negotiationarena), [resource exchange](./negotiationarena-resource-exchange), [ultimatum](./negotiationarena-ultimatum), [seller and buyer](./negotiationarena-buy-sell)), the authors' buy/sell logs, §3's win rates and payoffs per ordered pair (Figure 3), and §5's anchoring, split-the-difference, bad counter-offers and acceptance curve. The social behaviours of §4 and Appendix E.2 are options of Parley's LLM players.",
};

export default negotiationarena;
