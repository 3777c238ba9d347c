/**
 * Which games each catalog dataset holds and which pages analyse it, as a
 * report (loaders/site/reportSite.ts) and a configured run's archive
 * (loaders/ownRuns/runArchives.ts) both group a run's games: every paper's
 * `report` entries (loaders/papers/<paper>/index.ts), in the order of the
 * list of papers.
 */
import type {ReportDataset} from "../contract/paper.js";
import {papers} from "../papers/index.js";

export type {ReportDataset};

export const REPORT_DATASETS: readonly ReportDataset[] = papers.flatMap((p) => p.report);

/** The report dataset that holds game `game`, or undefined (a game no page analyses). */
export function datasetOfGame(game: string): ReportDataset | undefined {
  return REPORT_DATASETS.find((d) => d.prefixes.some((p) => game.startsWith(p)));
}
