/**
 * Economics Arena (Guo et al. 2024): the beauty contest and the auctions,
 * their prompts (narrators), the simulated run in the senior environment
 * and its page. The paper published no logs, so there is no ingest adapter.
 */
import type {PaperManifest} from "../../contract/paper.js";
import {econarenaAnalysis} from "../../../src/analyses/econarena.js";
import {flatTables} from "../../contract/tables.js";
import {econarenaGames} from "./games.js";
import {play} from "./play.js";

const SCHEMAS = Object.values(flatTables(econarenaGames));
// Pages read one row per seat and run (where the game settles its results) and every rule break; the English clock's other steps stay out.
const WHERE = {turns: "payoff IS NOT NULL OR rule_break"};

export const econarena: PaperManifest = {
  id: "econarena",
  citation: {
    short: "Economics Arena (Guo et al. 2024)",
    title: "Economics Arena for Large Language Models",
    authors: "Shangmin Guo, Haoran Bu, Haochuan Wang, Yi Ren, Dianbo Sui, Yuming Shang, Siting Lu",
    firstAuthor: "Guo",
    year: 2024,
    venue: "arXiv:2401.01735, 2024",
  },
  play,
  ingest: {},
  datasets: [
    {
      id: "econarena", title: "Economics Arena: Parley's built-in strategies in the senior environment (beauty contest, second-price, first-price and English auctions)",
      cite: "Economics Arena (Guo et al. 2024) §4, Tables 1–2", schemas: SCHEMAS, played: {run: "econarena", tables: {schemas: SCHEMAS, where: WHERE}},
    },
  ],
  report: [{id: "econarena", prefixes: ["econarena/"], pages: () => ["/econarena"], where: WHERE}],
  pages: [
    {path: "/econarena", title: "Economics Arena", summary: "beauty contests and second-price, first-price and English auctions (Economics Arena for Large Language Models, Guo et al. 2024, §3–4): payoff and rationality ratios, deviation from equilibrium, win and rule-breaking rates (Tables 1–2), convergence over history sessions and strategy against configuration, for Parley's built-in strategies or any run."},
  ],
  analysis: econarenaAnalysis,
  reference: "Playable: the beauty contest and the second-price sealed-bid auction (§3.1, Appendix A.1), plus the first-price and English auctions it names, in the melee, rational, senior, chain-of-thought and history environments (§4, prompts of Appendix B), with built-in strategies and LLM players; the measures of §3.2 and Appendix A.3 on the [Economics Arena](./econarena) page (Tables 1–2 layouts, Figures 1b, 2b, 3, 4 and 5) and by `parley econarena-stats`.\n",
};

export default econarena;
