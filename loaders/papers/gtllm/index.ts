/**
 * Game-theoretic LLM workflows (Hua et al. 2024): the matrix and tree games
 * written as data (data/games/, §4 and the §6 probes), Deal or No Deal
 * (§5.3) with its narrator, the reader of the human dialogues and pages,
 * and the meta-game of adopting the workflow (§5.5.3–5.6).
 */
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {projectRoot} from "../../projectConfig.js";
import type {PaperManifest} from "../../contract/paper.js";
import {gtllmAnalysis} from "../../../src/analyses/gtllm.js";
import {DOND_GAMES, DOND_TURNS, hardPointHumanRows, playedDondRows} from "./dond/ingest.js";
import {hardPoints} from "./dond/hardPoints.js";
import {hasEnvyFree} from "../../../src/lib/dondAllocation.js";
import {dataGameSchemas, readGameFiles} from "./dataGames.js";
import {dataGameDef} from "./dataGame.js";
import {parseGameFile, type GameFile} from "./files.js";
import {play} from "./play.js";

/** Every matrix and tree game has the same columns; the Prisoner's Dilemma's stand for all. */
const PD_FILE = join(projectRoot, "data", "games", "prisoners_dilemma.json");
const DATA_GAME_SCHEMAS = dataGameSchemas(dataGameDef(parseGameFile(JSON.parse(readFileSync(PD_FILE, "utf8")), PD_FILE)));

export const gtllm: PaperManifest<GameFile> = {
  id: "gtllm",
  citation: {
    short: "Game-theoretic LLM workflows (Hua et al. 2024)",
    title: "Game-theoretic LLM: Agent Workflow for Negotiation Games",
    authors: "Wenyue Hua, Ollie Liu, Lingyao Li, Alfonso Amayuelas, Julie Chen, Lucas Jiang, Mingyu Jin, Lizhou Fan, Fei Sun, William Wang, Xintong Wang, Yongfeng Zhang",
    firstAuthor: "Hua",
    year: 2024,
    venue: "arXiv:2411.05990, 2024",
  },
  play,
  readDataGames: readGameFiles,
  ingest: {
    dond: {describe: "Deal-or-No-Deal dialogues, one per line (end-to-end-negotiator format)", input: "file", ingest: async (path) => (await import("./dond/ingest.js")).ingestDond(path)},
    "dond-hard50": {describe: "the paper's 50 hard Deal-or-No-Deal points with their recorded human outcomes (data/dond/hard50.json): Table 10's Human and Best rows", input: "file", ingest: async (path) => (await import("./dond/ingest.js")).ingestHardPoints(path)},
  },
  datasets: [
    {
      id: "dond", title: "Deal or No Deal (human–human, validation split)", cite: "Game-theoretic LLM workflows (Hua et al. 2024) §5.3", schemas: [DOND_GAMES, DOND_TURNS],
      logs: {path: "dealornodeal/val.txt", adapter: "dond", source: "data/sources/dond.json"},
      supplement: {
        runs: ["dond"],
        // The 50 points' human outcomes, then the played games reshaped into the dialogues' tables.
        rows: ([run]) => {
          const played = playedDondRows(run);
          const human = hardPointHumanRows(hardPoints(), (p) => hasEnvyFree(p.counts, p.values_a, p.values_b));
          return {games: [...human, ...played.games], turns: played.turns};
        },
        note: "with the human outcomes of the paper's 50 hard points and Parley's negotiators on them (data/runs/dond.json) played at build time",
      },
    },
    {
      id: "gtllm", title: "Matrix and tree games: every ordered pair of built-in strategies, with and without talk", cite: "Game-theoretic LLM workflows (Hua et al. 2024) §4, Tables 5–8",
      schemas: DATA_GAME_SCHEMAS, played: {run: "gtllm", tables: {schemas: DATA_GAME_SCHEMAS}},
    },
  ],
  downloads: [
    {
      id: "dond-test", title: "Deal or No Deal (human–human, test split: Table 9's dialogues)", cite: "Game-theoretic LLM workflows (Hua et al. 2024) §5.4, Table 9",
      path: "dealornodeal/test.txt", adapter: "dond", source: "data/sources/dond-test.json",
    },
  ],
  report: [
    // Played Deal or No Deal turns are reshaped into the human dialogues' turns, as the /dond pages' data loader does.
    {id: "dond", prefixes: ["dond/"], pages: () => ["/dond", "/dond-played", "/dond-beliefs"], reshape: playedDondRows},
    {id: "gtllm", prefixes: ["gtllm/"], pages: () => ["/gtllm", "/gtllm-metagame"]},
  ],
  pages: [
    {path: "/gtllm", title: "Complete-information games", summary: "ten matrix and tree games (Game-theoretic LLM workflows (Hua et al. 2024) §4): their equilibria, Tables 5–8 as a player × game grid beside the paper's models, the Duopoly Pareto-action counts and the pre-play talk."},
    {path: "/gtllm-metagame", title: "Adopt the workflow? (meta-game)", summary: "Table 19 of Game-theoretic LLM workflows (Hua et al. 2024) as printed and from its source tables, with equilibria, dominant strategies and Pareto-optimal cells, and the same game built from runs."},
    {path: "/dond", title: "Deal or No Deal", summary: "agreement, envy freeness and Pareto optimality of human negotiations by difficulty (Game-theoretic LLM workflows (Hua et al. 2024) §5.3–5.4), and a transcript browser."},
    {path: "/dond-played", title: "Deal or No Deal played"},
    {path: "/dond-beliefs", title: "Deal or No Deal: valuation estimation"},
  ],
  analysis: gtllmAnalysis,
  reference: "Playable: the ten complete-information games of §4.1 and the §6 probes as JSON files, with pre-play talk (§4.2–4.3), the personality line (§6.3) and the prompts of §6.5, built-in equilibrium and workflow agents (§4.4) and LLM players with the workflow ([Complete-information games](./gtllm): Tables 5–8, §4.3's Duopoly counts). Read from its data: Deal or No Deal ([Deal or No Deal](./dond), §5.3–5.4, Table 9, reproduced exactly by the authors' selection of the test split, `parley datasets fetch dond-test`; Table 10's Human and Best rows from the 50 points). The meta-game of Table 19, as printed and from its source tables ([Adopt the workflow?](./gtllm-metagame), §5.5.3–5.6), also solved by `parley equilibria`.",
};

export default gtllm;
