/**
 * A page's dataset choices: its built-in datasets, then every configured run
 * (src/generated/runs.js, written by loaders/ownRuns/runArchives.ts) that has games the
 * page analyses. A run's option is its name (and description); its tables
 * are fetched only when it is selected and only for a question its
 * build-time first view (when the page names one) does not answer.
 *
 *   import {RUNS} from "./generated/runs.js";
 *   const datasets = withRuns({"Simulated tournament": {first, tables: {games: ...href}, status}}, RUNS, "glee", (g) => g === "glee/bargaining", "glee-bargaining");
 *   ... pageData({first: dataset.first, tables: datasetTables(dataset, ["games", "turns"])}) ... display(await DatasetCard(dataset));
 */
import {DatasetNotice} from "./datasetStatus.js";
import {RunManifest} from "./manifest.js";
import type {RunInfo} from "../lib/runInfo.js";
import type {DatasetStatus} from "../lib/datasetStatus.js";

interface Attachment {
  href: string;
  json(): Promise<unknown>;
}

/** An entry of the generated module's RUNS. */
export interface ConfiguredRun {
  name: string;
  description: string | null;
  slug: string;
  games: string[];
  info: Attachment;
  /** Per analysis group (e.g. "glee"), its tables' URLs. */
  tables: Record<string, Record<string, string>>;
  /** Per analysis group, the indexes of its tables that pages look up by key (table -> index; src/lib/lookups.ts). */
  lookups?: Record<string, Record<string, {json(): Promise<unknown>}>>;
  /** Per analysis group, its pages' first views answered at build time (page name -> snapshot). */
  first?: Record<string, Record<string, {json(): Promise<unknown>}>>;
}

export interface PageDataset {
  first?: {json(): Promise<unknown>};
  /** Table name -> URL. */
  tables: Record<string, string>;
  /** Table name -> index of its row groups, for tables read one key at a time (pageData's `lookup`). */
  lookups?: Record<string, {json(): Promise<unknown>}>;
  status?: {json(): Promise<unknown>};
  run?: ConfiguredRun;
}

/** The label of a run's option: its name, with its description when short enough to read in a menu. */
export function runLabel(run: ConfiguredRun): string {
  const description = run.description && run.description.length > 70 ? `${run.description.slice(0, 69)}…` : run.description;
  return description ? `${run.name} — ${description}` : run.name;
}

/** `page` names the page's first view (e.g. "glee-regression"), which a run's archive holds when its group computes it (loaders/ownRuns/runArchives.ts). */
export function withRuns(builtIn: Record<string, PageDataset>, runs: readonly ConfiguredRun[], group: string, games: (game: string) => boolean = () => true, page?: string): Record<string, PageDataset> {
  const all = {...builtIn};
  for (const run of runs) {
    const tables = run.tables[group];
    if (!tables || !run.games.some(games)) continue;
    let label = runLabel(run);
    while (label in all) label = `${label} (run)`;
    all[label] = {tables, lookups: run.lookups?.[group], run, first: page ? run.first?.[group]?.[page] : undefined};
  }
  return all;
}

/** The notice under the selector: a built-in dataset's status, or a run's card with its manifest. */
export async function DatasetCard(dataset: PageDataset): Promise<HTMLElement> {
  if (dataset.run) return RunManifest((await dataset.run.info.json()) as RunInfo);
  return DatasetNotice((await dataset.status!.json()) as DatasetStatus);
}
