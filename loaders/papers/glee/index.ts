/**
 * GLEE (Shapira et al. 2024): bargaining, negotiation and persuasion over
 * Table 1's parameter grid, the simulated tournament, the human-vs-LLM
 * sample, and their pages.
 */
import type {PaperManifest} from "../../contract/paper.js";
import {gleeAnalysis} from "../../../src/analyses/glee.js";
import {GLEE_GAMES, GLEE_TURNS} from "./tables.js";
import {play} from "./play.js";

const FAMILIES = ["bargaining", "negotiation", "persuasion"];

export const glee: PaperManifest = {
  id: "glee",
  citation: {
    short: "GLEE (Shapira et al. 2024)",
    title: "GLEE: A Unified Framework and Benchmark for Language-based Economic Environments",
    authors: "Eilam Shapira, Omer Madmon, Itamar Reinman, Samuel Joseph Amouyal, Roi Reichart, Moshe Tennenholtz",
    firstAuthor: "Shapira",
    year: 2024,
    venue: "arXiv:2410.05254, 2024",
  },
  play,
  ingest: {
    glee: {describe: "GLEE human-vs-LLM games, <family>/<id>/{config.json, game.csv} (GLEE (Shapira et al. 2024))", input: "directory", ingest: async (path) => (await import("./ingest.js")).ingestGleeHuman(path)},
  },
  datasets: [
    {id: "glee", title: "GLEE simulated tournament: full grid × every ordered pair of built-in agents", cite: "GLEE (Shapira et al. 2024) §2, Table 1", schemas: [GLEE_GAMES, GLEE_TURNS], played: {run: "default"}},
    {id: "glee-human", title: "GLEE human-vs-LLM games (sample of 75)", cite: "GLEE (Shapira et al. 2024) §4, App. E", schemas: [GLEE_GAMES, GLEE_TURNS], logs: {path: "glee-human", adapter: "glee", source: "data/sources/glee-human.json"}},
  ],
  report: [
    {id: "glee", prefixes: ["glee/"], pages: (games) => [...FAMILIES.filter((f) => games.includes(`glee/${f}`)).map((f) => `/glee-${f}`), "/glee-regression", "/glee-pairs"]},
  ],
  pages: [
    {path: "/glee-human", title: "GLEE: humans vs LLM", summary: "people against gemini-1.5-flash in bargaining, negotiation and persuasion, in the common GLEE tables (GLEE (Shapira et al. 2024))."},
    ...FAMILIES.map((f) => ({
      path: `/glee-${f}`,
      title: `GLEE: ${f}`,
      summary: `a simulated tournament of built-in agents over Table 1's full grid (GLEE (Shapira et al. 2024) §2): metric distributions, the impact of each parameter, and Table 6 statistics for ${f}.`,
      parameterized: true as const,
    })),
    {path: "/glee-regression", title: "GLEE: what moves the outcome", summary: "one-hot regressions with 95% CIs (GLEE (Shapira et al. 2024) §3, Appendix F): market effects on efficiency and fairness (Table 2), each agent's effect on its self-gain (Table 3), and a coefficient plot for any family and metric."},
    {path: "/glee-pairs", title: "GLEE: model pairs and the meta-game", summary: "the effect of each (Alice agent, Bob agent) pair relative to the mean (Figures 1, 21–23), and the Nash equilibria of choosing an agent (footnote 13)."},
  ],
  analysis: gleeAnalysis,
  reference: "Playable: bargaining, negotiation and persuasion (§2, Table 1) with every built-in agent and LLM players (prompts of Appendix D.2). Pages: [bargaining](./glee-bargaining), [negotiation](./glee-negotiation), [persuasion](./glee-persuasion), [what moves the outcome](./glee-regression) (§3, Tables 2–3, Appendix F), [model pairs and the meta-game](./glee-pairs) (Figures 1, 21–23, footnote 13), [humans vs LLM](./glee-human) (§4, Appendix E).",
};

export default glee;
