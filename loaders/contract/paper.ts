/**
 * The manifest of a paper: everything Parley takes from one of the papers it
 * is built from, declared once in `loaders/papers/<paper>/index.ts`. The
 * list of papers (loaders/papers/index.ts) is the only place a paper is
 * named; the game, agent and narrator registries, the browser's play
 * engine, the dataset catalog, the ingest adapters, the report's datasets,
 * the site's navigation and the References page are all read off it.
 *
 * A manifest has a browser-safe part, `play` (the paper's games written in
 * code and their scripted agents, in `loaders/papers/<paper>/play.ts`, which
 * imports no Node module), so that the /play page's bundle can take the
 * games without the ingest adapters, dataset generators and file readers
 * of the rest of the manifest.
 */
import type {GameDef} from "./game.js";
import type {AgentDef} from "./agent.js";
import type {Narrator} from "./narrator.js";
import type {Row, TableSchema} from "../io/schema.js";
import type {IngestResult} from "../ingest/types.js";
import type {Analysis} from "../../src/analyses/analysis.js";

/** How the product cites a paper: "GLEE (Shapira et al. 2024)" in running text, the rest on the References page. */
export interface PaperCitation {
  /** Short name, first author and year: "GLEE (Shapira et al. 2024)". */
  short: string;
  title: string;
  /** Every author, as the paper lists them. */
  authors: string;
  firstAuthor: string;
  year: number;
  /** Where it appeared: "arXiv:2410.05254, 2024", "ICML 2024, arXiv:2402.05863". */
  venue: string;
}

/** One game file of a paper whose games are data (the matrix and tree games of data/games/). */
export interface DataGameFile {
  readonly id: string;
  /** The path it was read from (project-relative in the browser's bundle). */
  readonly file: string;
}

/**
 * The rules of games written as data files rather than code: browser-safe,
 * so the play page's bundle builds the same games and agents from the files
 * the site's data loader read (Node reads them with the manifest's
 * `readDataGames`).
 */
export interface DataGameRules<F extends DataGameFile = DataGameFile> {
  def(file: F): GameDef;
  agents(files: readonly F[]): AgentDef[];
  /** What a language model (or a person on the play page) reads in every one of these games. */
  narrator: Narrator;
}

/**
 * The browser-safe part of a paper: its games written in code, their
 * scripted agents, their narrators (what a language model, or a person on
 * the play page, reads in each game, by game id) and the rules of its data games.
 */
export interface PaperPlay<F extends DataGameFile = never> {
  games: readonly GameDef[];
  agents: readonly AgentDef[];
  /** By game id; a game without one cannot seat an LLM player through a narrator. */
  narrators: Readonly<Record<string, Narrator>>;
  dataGames?: DataGameRules<F>;
}

/** What an ingest adapter reads, checked by `parley ingest` before it starts. */
export type AdapterInput = "file" | "directory" | "file or directory";

/** An ingest adapter (`parley ingest <name>`); its module is imported when it runs, so listing adapters loads none. */
export interface IngestAdapter {
  describe: string;
  input: AdapterInput;
  ingest: (path: string) => IngestResult | Promise<IngestResult>;
}

/**
 * A dataset the site can show (the catalog's entry, loaders/datasets/catalog.ts):
 * raw logs read by one of the paper's ingest adapters, or a run of one of
 * data/runs/ played at build time. Declared as data, so a paper imports
 * neither the runner nor DuckDB; the catalog turns it into functions.
 */
export interface PaperDataset {
  id: string;
  title: string;
  /** Paper and section the data belongs to. */
  cite: string;
  /** The tables the site reads (an absent dataset still yields them, empty). */
  schemas: TableSchema[];
  /** Raw logs: their path inside the datasets directory (file or folder) and the name of the paper's adapter that reads them. */
  logs?: {
    path: string;
    adapter: string;
    /**
     * Where its authors publish the raw files: a JSON file under data/sources/
     * listing each file's URL, size and sha256 (`parley datasets fetch`).
     */
    source?: string;
  };
  /**
   * A simulated dataset: data/runs/<run>.json played at build time, its
   * tables flattened to `tables` (GLEE's games and turns when absent).
   */
  played?: {run: string; tables?: {schemas: readonly TableSchema[]; where?: Record<string, string>}};
  /**
   * Rows added to the ingested ones, whether or not the raw files are there:
   * the built-in runs `runs` (data/runs/<name>.json) played at build time and
   * shaped into the dataset's tables by `rows`, shown beside the logs they
   * can be compared with; `note` says what they are, for the dataset's status.
   */
  supplement?: {runs: string[]; rows: (played: {games: Row[]; players: Row[]; turns: Row[]}[]) => Record<string, Row[]> | Promise<Record<string, Row[]>>; note: string};
}

/**
 * Published raw files a user can fetch (`parley datasets fetch <id>`) and read
 * with one of the paper's ingest adapters (`parley ingest <adapter> <path>`),
 * which the site does not show: e.g. a split a table of the paper was computed on.
 */
export interface PaperDownload {
  id: string;
  title: string;
  /** Paper and section the files belong to. */
  cite: string;
  /** Their path inside the datasets directory (file or folder). */
  path: string;
  /** The paper's adapter that reads them. */
  adapter: string;
  /** The JSON file under data/sources/ listing each file's URL, size and sha256. */
  source: string;
}

/** A catalog dataset a report (and a configured run's archive) can show: the games it holds and the pages that read it. */
export interface ReportDataset {
  id: string;
  /** Game ids of this dataset start with one of these. */
  prefixes: string[];
  /** The pages that analyse it; `{variant}` pages are listed once per variant present (the part of the game id after the prefix). */
  pages: (games: string[]) => string[];
  /** Per table, a SQL condition keeping only the rows the pages read. */
  where?: Record<string, string>;
  /**
   * When played games' columns are not the dataset's: the rows of a played
   * run (games, turns) reshaped into its tables, as its data loader does.
   */
  reshape?: (run: {games: Row[]; turns: Row[]}) => Record<string, Row[]>;
}

/** A page of the site that belongs to the paper, for the navigation (grouped by paper) and the front page. */
export interface PaperPage {
  path: string;
  title: string;
  /** One sentence for the front page's list of pages (a page without one is in the navigation only). */
  summary?: string;
  /** Made by a parameterized page (src/glee-[family].md), so Framework must be told the path. */
  parameterized?: true;
}

/**
 * A paper's manifest. `F` is the file type of its games written as data;
 * `never` (the default) for a paper whose games are all code.
 */
export interface PaperManifest<F extends DataGameFile = never> {
  /** The folder name under loaders/papers/. */
  id: string;
  citation: PaperCitation;
  /** Games in code and scripted agents; browser-safe (./play.ts). */
  play: PaperPlay<F>;
  /**
   * Reads the paper's data games from disk (Node only), leaving out the ids
   * `taken` by games in code; registered after every paper's coded games.
   */
  readDataGames?: (taken: readonly string[]) => {files: F[]; problems: string[]};
  /** `parley ingest <name>` adapters for the paper's published logs. */
  ingest: Readonly<Record<string, IngestAdapter>>;
  /** The dataset catalog's entries. */
  datasets: readonly PaperDataset[];
  /** Published files to fetch and ingest that no page shows. */
  downloads?: readonly PaperDownload[];
  /** The datasets a report or a configured run can show, and their pages. */
  report: readonly ReportDataset[];
  pages: readonly PaperPage[];
  /** The References page's paragraph after the citation: what Parley plays, reads and measures of the paper, with links to its pages (Markdown). */
  reference: string;
  /**
   * The paper's analysis: its named measures and its pages' first views,
   * browser-safe (src/analyses/<paper>.ts, or a file beside the manifest),
   * looked up by `parley stats <paper>`, the build's first views and the
   * parity test.
   */
  analysis?: Analysis;
  /**
   * A run config (a path in the project, e.g. beside the manifest) that the
   * paper's overview page (/papers/<paper>) plays when the site is built and
   * answers every measure over, for a paper with no pages of its own.
   */
  sampleRun?: string;
}
