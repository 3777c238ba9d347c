/**
 * gamma-Bench (Huang et al. 2024): the eight N-player games, their prompts
 * (narrators), the reader of the authors' raw results, the leaderboard
 * dataset (with Parley's strategies played beside the models) and its page.
 */
import type {PaperManifest} from "../../contract/paper.js";
import {gamabenchAnalysis} from "../../../src/analyses/gamabench.js";
import {GAMABENCH_SCHEMAS} from "./ingest.js";
import {play} from "./play.js";

export const gamabench: PaperManifest = {
  id: "gamabench",
  citation: {
    short: "gamma-Bench (Huang et al. 2024)",
    title: "How Far Are We on the Decision-Making of LLMs? Evaluating LLMs' Gaming Ability in Multi-Agent Environments",
    authors: "Jen-tse Huang, Eric John Li, Man Ho Lam, Tian Liang, Wenxuan Wang, Youliang Yuan, Wenxiang Jiao, Xing Wang, Zhaopeng Tu, Michael R. Lyu",
    firstAuthor: "Huang",
    year: 2024,
    venue: "ICLR 2025, arXiv:2403.11807",
  },
  play,
  ingest: {
    gamabench: {describe: "gamma-Bench raw results, <model>_<game>_v1_<run>.json (gamma-Bench (Huang et al. 2024))", input: "file or directory", ingest: async (path) => (await import("./ingest.js")).ingestGamabench(path)},
  },
  datasets: [
    {
      id: "gamabench", title: "gamma-Bench raw results (12 models, 8 games, 5 runs)", cite: "gamma-Bench (Huang et al. 2024) §3, App. E", schemas: GAMABENCH_SCHEMAS,
      logs: {path: "gamabench", adapter: "gamabench", source: "data/sources/gamabench.json"},
      supplement: {
        runs: ["gamabench"],
        rows: ([run]) => ({...run}),
        note: "with Parley's built-in strategies (data/runs/gamabench.json: the paper's vanilla games, ten seats of one strategy, five runs) played at build time",
      },
    },
  ],
  report: [{id: "gamabench", prefixes: ["gamabench/"], pages: () => ["/gamabench"]}],
  pages: [
    {path: "/gamabench", title: "gamma-Bench leaderboard", summary: "twelve models in eight N-player games, scored 0–100 (gamma-Bench (Huang et al. 2024), Tables 1, 2, 5), with round-by-round charts (Figure 2) and the pirate proposals (Table 3)."},
  ],
  analysis: gamabenchAnalysis,
  reference: "Playable: the eight games of §3 with the paper's vanilla parameters and generalisation grids, built-in strategies and LLM players (prompts of Appendix C); read from its raw results and scored as Appendix E does ([gamma-Bench leaderboard](./gamabench): Tables 1, 2, 3, 5 and Figure 2).",
};

export default gamabench;
