/**
 * Every paper's analysis (loaders/papers/<paper>/index.ts `analysis`), in
 * the order of the list of papers: looked up by paper id by `parley stats`,
 * the build's first views and the parity test.
 */
import type {Analysis} from "../../src/analyses/analysis.js";
import {papers} from "../papers/index.js";

export const ANALYSES: readonly Analysis[] = papers.flatMap((p) => (p.analysis ? [p.analysis] : []));

/** The analysis of `paper`; throws naming the papers that have one. */
export function analysisOf(paper: string): Analysis {
  const analysis = ANALYSES.find((a) => a.paper === paper);
  if (!analysis) throw new Error(`no analysis for paper "${paper}" (expected one of ${ANALYSES.map((a) => a.paper).join(", ")})`);
  return analysis;
}
