/**
 * The pages of the site's Reference: generated when the site is built from
 * what the code declares (loaders/site/referenceDocs.ts writes them; their
 * page loaders are src/reference/<page>.md.ts). Imports nothing, so the
 * site's configuration (observablehq.config.ts) lists them in the
 * navigation without loading the engine.
 */
export interface ReferencePage {
  path: string;
  /** Its name in the navigation and its title. */
  name: string;
  /** What it lists and where from, for the Reference's index. */
  summary: string;
}

export const REFERENCE_INDEX: ReferencePage = {
  path: "/reference/",
  name: "Reference: overview",
  summary: "what the Reference pages list, each generated from the code when the site is built",
};

export const REFERENCE_PAGES: readonly ReferencePage[] = [
  {path: "/reference/cli", name: "Reference: command line", summary: "every parley command with its usage, options and aliases, from the usage lines parley help prints (loaders/usage/)"},
  {path: "/reference/config", name: "Reference: configuration", summary: "every key of run configs, LLM player objects, game parameters, experiments and parley.config.json, from the tables their validators check against"},
  {path: "/reference/tables", name: "Reference: tables", summary: "the columns of the games, players and turns tables, each game's own columns, and the datasets' and human study's tables, from their declared schemas"},
  {path: "/reference/papers", name: "Reference: papers", summary: "the papers Parley is built from, with their games, datasets, pages and measures, from the papers' manifests (loaders/papers/)"},
];
