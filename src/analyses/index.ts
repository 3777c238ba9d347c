/** Every paper's analysis (src/analyses/<paper>.ts), looked up by paper id by `parley stats`, the first views and the parity test. */
import type {Analysis} from "./analysis.js";
import {gleeAnalysis} from "./glee.js";
import {negotiationArenaAnalysis} from "./negotiationarena.js";
import {gtllmAnalysis} from "./gtllm.js";
import {gamabenchAnalysis} from "./gamabench.js";
import {econarenaAnalysis} from "./econarena.js";

export const ANALYSES: readonly Analysis[] = [gleeAnalysis, negotiationArenaAnalysis, gtllmAnalysis, gamabenchAnalysis, econarenaAnalysis];

/** The analysis of `paper`; throws naming the papers there are. */
export function analysisOf(paper: string): Analysis {
  const analysis = ANALYSES.find((a) => a.paper === paper);
  if (!analysis) throw new Error(`no analysis for paper "${paper}" (expected one of ${ANALYSES.map((a) => a.paper).join(", ")})`);
  return analysis;
}
