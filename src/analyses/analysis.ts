/**
 * What a paper's analysis declares (src/analyses/<paper>.ts): its named
 * measures, each SQL over the common tables (games, players, turns) or pure
 * computation over such SQL's rows (a fit, equilibria), with their
 * parameters, and the pages' first views. Everything that shows a measure
 * looks it up by name: the pages (`measureSQL`, `answerMeasure`),
 * `parley stats <paper>`, the build's first views (loaders/registry/firstViews.ts)
 * and the test that native DuckDB and DuckDB-WASM answer each alike.
 *
 * Browser-safe: no DOM, no Node API, nothing of loaders/.
 */
import type {FirstView, Query} from "../lib/snapshot.js";

export type TableName = "games" | "players" | "turns";

/** How `parley stats` prints an answer: indented JSON, one JSON object a line, or CSV (rows only). */
export type OutputFormat = "json" | "jsonl" | "csv";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["json", "jsonl", "csv"];

export type ParamValue = string | number | boolean;
export type Params = Record<string, ParamValue>;

/** One parameter of a measure; on the command line `--<name> <value>` (a boolean: `--<name>`). */
export interface Parameter {
  name: string;
  description: string;
  kind: "string" | "boolean" | "integer";
  default: ParamValue;
  /** The values a string parameter may take. */
  choices?: readonly string[];
  /** The range of an integer parameter. */
  range?: {min: number; max: number};
}

/**
 * Which games of a run directory a measure reads (partitions `game=<id>/`):
 * given the game id, the measure's parameters, and the project's games
 * (whether an id is a matrix or tree game defined as data, which only the
 * engine knows).
 */
export type GameSelector = (game: string, params: Params, games: GameCatalog) => boolean;

export interface GameCatalog {
  isDataGame(id: string): boolean;
}

export interface Measure {
  name: string;
  /** What it holds, citing the paper's section or table. */
  description: string;
  /** The tables its SQL reads, by their common names. */
  tables: readonly TableName[];
  /** Which games of a run directory it reads; the analysis's when absent. */
  games?: GameSelector;
  parameters?: readonly Parameter[];
  /** How `parley stats` prints it unless --format says otherwise. */
  format: OutputFormat;
  /** The catalog dataset whose page shows it: the parity test answers it there. */
  dataset: string;
  /** How to produce its input, added to the error when a directory lacks it. */
  inputHint?: (dir: string) => string;
  /** Its SQL (given every parameter), when the answer is that query's rows. */
  sql?: (params: Params) => string;
  /** Creates the views or tables `sql` reads (once per database; a page runs it as its FirstView's prepare). */
  prepare?: (query: Query) => Promise<void>;
  /** The answer: the rows of `sql`, or pure computation over rows (must survive JSON). */
  answer(query: Query, params: Params): Promise<unknown>;
}

export interface Analysis {
  /** The paper's id, as its folder loaders/papers/<paper>/. */
  paper: string;
  /** The paper, cited by title, first author and year. */
  title: string;
  /** Which games of a run directory its measures read unless a measure says otherwise. */
  games: GameSelector;
  /** How to produce its input, added to the error when a directory lacks it. */
  inputHint: (dir: string) => string;
  measures: readonly Measure[];
  /** The measure `parley stats <paper>` prints without --measure. */
  defaultMeasure: string;
  /** The pages' first views, answered at build time (src/lib/snapshot.ts). */
  firstViews: readonly FirstView[];
}

/** The tables hold none of the games a measure needs (e.g. a regression's family); the message says which. */
export class NothingToMeasure extends Error {}

/** A measure that is one query's rows: `answer` runs `sql`. */
export function sqlMeasure(measure: Omit<Measure, "answer" | "sql"> & {sql: (params: Params) => string}): Measure {
  return {
    ...measure,
    async answer(query, params) {
      await measure.prepare?.(query);
      return query(measure.sql(params));
    },
  };
}

/** The measure named `name` of `analysis`; throws naming the measures there are. */
export function measureNamed(analysis: Analysis, name: string): Measure {
  const measure = analysis.measures.find((m) => m.name === name);
  if (!measure) throw new Error(`${analysis.paper} has no measure "${name}" (expected one of ${analysis.measures.map((m) => m.name).join(", ")})`);
  return measure;
}

/** `given` with each absent parameter at its default; throws naming a parameter the measure does not have. */
export function withDefaults(measure: Measure, given: Params = {}): Params {
  const declared = measure.parameters ?? [];
  for (const name of Object.keys(given)) {
    if (!declared.some((p) => p.name === name)) throw new Error(`measure ${measure.name} has no parameter "${name}"${declared.length ? ` (expected one of ${declared.map((p) => p.name).join(", ")})` : ""}`);
  }
  return Object.fromEntries(declared.map((p) => [p.name, given[p.name] ?? p.default]));
}

/** The SQL of the measure `name` of `analysis` with `params` (the rest at their defaults), for a page to ask by name. */
export function measureSQL(analysis: Analysis, name: string, params: Params = {}): string {
  const measure = measureNamed(analysis, name);
  if (!measure.sql) throw new Error(`measure ${analysis.paper}/${name} is a computation, not one query; ask answerMeasure`);
  return measure.sql(withDefaults(measure, params));
}

/** The answer of the measure `name` of `analysis` with `params` (the rest at their defaults), over the tables `query` reads. */
export function answerMeasure(analysis: Analysis, name: string, query: Query, params: Params = {}): Promise<unknown> {
  const measure = measureNamed(analysis, name);
  return measure.answer(query, withDefaults(measure, params));
}

/** The games a measure reads: its own selector, else the analysis's. */
export function measureGames(analysis: Analysis, measure: Measure): GameSelector {
  return measure.games ?? analysis.games;
}
