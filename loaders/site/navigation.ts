/**
 * The site's map: its pages grouped by paper and by task, the one list the
 * sidebar (observablehq.config.ts) and the home page's map
 * (src/data/site-map.json.ts) are both made from.
 *
 * First one section per paper (browse: its overview and the pages its
 * manifest, loaders/papers/<paper>/index.ts, lists), then the pages across
 * papers (compare), the pages for running a study (play a game, the Guide's
 * pages on runs, human studies and reports), the rest of the Guide, and the
 * Reference generated from the code. Paper pages come from the manifests;
 * the few pages across papers and the Guide's pages are listed here once.
 */
export interface NavPage {
  name: string;
  path: string;
  /** One sentence on what the page shows, for the home page's map (none: its name says it). */
  summary?: string;
}

export type NavTask = "browse" | "compare" | "study" | "guide" | "reference";

export interface NavSection {
  name: string;
  task: NavTask;
  /** What the section is for, for the home page's map. */
  summary: string;
  pages: NavPage[];
  /** Closed in the sidebar until one of its pages is open. */
  closed?: boolean;
}

/** What a paper's manifest gives the map (a PaperManifest has more). */
export interface PaperPages {
  id: string;
  citation: {short: string};
  pages: readonly {path: string; title: string; summary?: string}[];
}

/** Pages that read more than one paper's games. */
export const COMPARE_PAGES: readonly NavPage[] = [
  {name: "Ratings across games", path: "/ratings", summary: "one strength per agent from every game it played against another (Bradley–Terry with cluster-robust intervals, tiers and settledness), the controlled ranking, Nash averaging and α-Rank, and self-play vs cross-play for runs that declare a generalisation protocol."},
  {name: "Compare two agents", path: "/compare", summary: "two agents (or two runs) side by side on the same games: outcomes, metrics and where they differ."},
  {name: "Study: self-gain and patience", path: "/study-discount", summary: "does an agent gain more when it is more patient? Each agent's self-gain by its own discount factor in GLEE bargaining; the Guide's worked example of a page."},
  {name: "Datasets", path: "/datasets", summary: "what each dataset is, where it comes from, how many rows this build read, and any problems met while reading it."},
];

/** Playing games and running studies: the play page and the Guide's pages on runs, human studies and reports. */
export const STUDY_PAGES: readonly NavPage[] = [
  {name: "Play a game", path: "/play", summary: "play any game in the browser against the built-in agents (or a model, with `parley serve`)."},
  {name: "Playing games", path: "/guide/playing"},
  {name: "Playing against language models", path: "/guide/models"},
  {name: "Your own runs", path: "/guide/own-runs"},
  {name: "Sharded runs", path: "/guide/sharded-runs"},
  {name: "Running a human study", path: "/guide/human-study", summary: "people play a game against a model or a strategy: consent, instructions, checks, conditions, the participants table and exclusions."},
  {name: "Publishing a report", path: "/guide/report", summary: "a static site about your own runs or human study, built with `parley report`."},
];

/** The rest of the manual: written pages in src/guide/ (every example in them is run by test/integration/guideExamples.test.ts). */
export const GUIDE_PAGES: readonly NavPage[] = [
  {name: "Overview", path: "/guide/"},
  {name: "Analysing runs", path: "/guide/analysing"},
  {name: "What models read", path: "/guide/prompts"},
  {name: "Harness factors", path: "/guide/harness"},
  {name: "Writing a page", path: "/guide/pages"},
  {name: "Configuration", path: "/guide/configuration"},
  {name: "Reliability", path: "/guide/reliability"},
  {name: "Accessibility", path: "/guide/accessibility"},
  {name: "Adding a game", path: "/guide/adding-a-game"},
  {name: "Adding a paper", path: "/guide/adding-a-paper"},
  {name: "Adding an analysis", path: "/guide/adding-an-analysis"},
  {name: "Adding a dataset", path: "/guide/adding-a-dataset"},
  {name: "Notes on GLEE", path: "/guide/glee"},
  {name: "Notes on gamma-Bench", path: "/guide/gamabench"},
  {name: "Notes on Game-theoretic LLM workflows", path: "/guide/gtllm"},
  {name: "Notes on Economics Arena", path: "/guide/econarena"},
  {name: "Notes on NegotiationArena", path: "/guide/negotiationarena"},
  {name: "Architecture", path: "/guide/architecture"},
  {name: "Tests", path: "/guide/tests"},
];

/** The bibliography (not the Reference generated from the code). */
export const REFERENCES_PAGE: NavPage = {name: "References", path: "/references", summary: "the five papers, in full, and where each one's games and data appear here."};

/** The site's sections in the sidebar's order. */
export function siteSections(papers: readonly PaperPages[], reference: readonly {name: string; path: string; summary?: string}[]): NavSection[] {
  return [
    ...papers.map((p): NavSection => ({
      name: p.citation.short,
      task: "browse",
      summary: `the games, data and analyses of ${p.citation.short}.`,
      pages: [{name: "Overview", path: `/papers/${p.id}`, summary: "its games, agents, data and measures."}, ...p.pages.map((page) => ({name: page.title, path: page.path, ...(page.summary ? {summary: page.summary} : {})}))],
    })),
    {name: "Compare across papers", task: "compare", summary: "agents and runs compared over every paper's games.", pages: [...COMPARE_PAGES]},
    {name: "Run a study", task: "study", summary: "play games yourself, run models, run a study with people, and publish the results.", pages: [...STUDY_PAGES]},
    {name: "Guide", task: "guide", summary: "how Parley works and how to extend it: analyses, pages, games, papers, datasets.", pages: [...GUIDE_PAGES], closed: true},
    {name: "Reference", task: "reference", summary: "generated from the code when the site is built; the bibliography last.", pages: [...reference.map(({name, path, summary}) => ({name, path, ...(summary ? {summary} : {})})), REFERENCES_PAGE], closed: true},
  ];
}

/** The sections as Observable Framework's `pages` (closed sections collapsible, open when one of their pages is shown). */
export function frameworkPages(sections: readonly NavSection[]): {name: string; open?: boolean; pages: {name: string; path: string}[]}[] {
  return sections.map((s) => ({name: s.name, ...(s.closed ? {open: false} : {}), pages: s.pages.map(({name, path}) => ({name, path}))}));
}

/** Every page path of the map, in order; a path listed twice is a mistake in the lists above, and throws. */
export function mapPaths(sections: readonly NavSection[]): string[] {
  const paths = sections.flatMap((s) => s.pages.map((p) => p.path));
  const twice = paths.filter((p, i) => paths.indexOf(p) !== i);
  if (twice.length) throw new Error(`the site's map lists ${twice.join(", ")} twice`);
  return paths;
}
