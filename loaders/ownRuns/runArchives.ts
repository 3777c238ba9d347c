/**
 * The configured runs in the site.
 *
 * Framework copies only files whose names it can read in the source, so the
 * site gets the runs' names at build time: `prepareRuns()` (called by
 * `parley build` and `parley dev` before Framework starts, like
 * src/generated/inputs.css) writes src/generated/runs.js, a module with one
 * entry per usable run, whose FileAttachment calls name that run's files:
 *
 *   data/runs/<slug>/run.json              what the run holds (RunInfo below)
 *   data/runs/<slug>/<group>/<table>.parquet   one flat table per analysis group, e.g. glee/games.parquet
 *   data/runs/<slug>/<group>/<table>-index.json  the row groups of a table pages look up by key (src/lib/lookups.ts)
 *   data/runs/<slug>/<group>/first-<page>.json the first view of each page of the group (RUN_FIRST_VIEWS)
 *
 * all members of one archive per run that src/data/runs/[run].tar.ts emits
 * (`runArchive`), so a page fetches only the runs a visitor selects, and
 * only the groups it analyses. Entries that cannot be used are listed in
 * the module as one line each (the Datasets page shows them); a run whose
 * tables cannot be read gives an archive with empty tables and a `problem`,
 * never a failed build. src/components/runDatasets.ts puts the runs beside
 * a page's built-in datasets.
 */
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {basename, join} from "node:path";
import {projectRoot} from "../projectConfig.js";
import {formatRunProblem, readRuns, type RunEntry} from "./configuredRuns.js";
import {checkpointFiles, readableTables, readRunJson, readsCheckpoints, runState, summarize, tableContents, type RunState} from "./describe.js";
import {tar} from "../io/tar.js";
import {runTableFiles} from "../io/runTables.js";
import {datasetEntry} from "../datasets/catalog.js";
import {REPORT_DATASETS, datasetOfGame} from "../datasets/reportDatasets.js";
import type {Row, TableSchema} from "../io/schema.js";
import type {RunInfo} from "../../src/lib/runInfo.js";
import {FIRST_VIEWS} from "../registry/firstViews.js";
import type {FirstView} from "../../src/lib/snapshot.js";
import {RUN_SEAT_TABLES, RUN_SEATS_GROUP} from "../../src/lib/runSeats.js";
import {readManifest} from "../runner/manifest.js";
import {DATASET_LOOKUPS, indexName, type Lookup} from "../../src/lib/lookups.js";

/**
 * An analysis group: the games some pages read together, as one flat table
 * per schema, in the tables of the catalog dataset those pages read (the
 * group's id), so a page reads a run as it reads its built-in data.
 */
export interface RunGroup {
  id: string;
  games: (game: string) => boolean;
  schemas: readonly TableSchema[];
  /** Per table, a SQL condition keeping only the rows the pages read. */
  where?: Record<string, string>;
  /**
   * When the played games' columns are not the dataset's: the rows of a
   * played run (games, turns) reshaped into its tables, as the built-in
   * data loader does with the games it plays.
   */
  reshape?: (run: {games: Row[]; turns: Row[]}) => Record<string, Row[]>;
  /** Per table, the key its pages look rows up by (src/lib/lookups.ts): sorted by it, its index beside it. */
  lookups?: Readonly<Record<string, Lookup>>;
}

/**
 * The groups a run's archive holds tables for (a page picks its group in
 * runDatasets.ts): one per catalog dataset a report can show (the same
 * games, tables, row filters and reshaping of played rows as `parley
 * report`, site/reportData.ts, declared by each paper's manifest).
 */
export const RUN_GROUPS: readonly RunGroup[] = [
  ...REPORT_DATASETS.map((d) => ({
    id: d.id,
    games: (game: string) => datasetOfGame(game) === d,
    schemas: datasetEntry(d.id).schemas,
    where: d.where,
    reshape: d.reshape,
    lookups: DATASET_LOOKUPS[d.id],
  })),
  // Every game's seats, returns and tokens (src/lib/runSeats.ts), for the pages comparing agents and runs of any game.
  {id: RUN_SEATS_GROUP, games: () => true, schemas: Object.entries(RUN_SEAT_TABLES).map(([name, columns]) => ({name, columns}))},
];

/**
 * Per group, the pages whose first view the archive answers at build time
 * (the built-in dataset's scripts, run on the group's flat tables), so that a
 * page with a big run selected draws from those answers and fetches the run's
 * rows only for a question they do not hold (a changed input, one game's turns).
 * GLEE's are the GLEE pages' and the study pages' (src/study-*.md, e.g. the
 * worked example /study-discount) that read the glee dataset.
 */
export const RUN_FIRST_VIEWS: Readonly<Record<string, readonly FirstView[]>> = {glee: FIRST_VIEWS.filter((v) => v.dataset === "glee" && /^(glee|study)-/.test(v.page))};


/** The game ids a run has, without reading its tables when it can (partitions, or a running run's checkpoints). */
async function runGames(dir: string, state: RunState): Promise<string[]> {
  if (readsCheckpoints(state)) {
    const games = new Set(state.partitions);
    for (const file of checkpointFiles(dir)) {
      try {
        games.add(JSON.parse(readFileSync(file, "utf8")).game);
      } catch {
        // being written or broken: the archive reports it
      }
    }
    return [...games].filter((g) => typeof g === "string").sort();
  }
  if (state.partitions.length) return state.partitions;
  return (await tableContents(dir)).games.map((g) => g.game);
}

const TEMPLATE = (runs: unknown[], problems: string[]) => `// Generated by parley build / parley dev from the "runs" of parley.config.json (loaders/ownRuns/runArchives.ts); never edit.
import {FileAttachment} from "observablehq:stdlib";

/** The configured runs: name, description, games, and their files (data/runs/<slug>.tar members). */
export const RUNS = [${runs.join(",")}
];

/** Entries of "runs" that could not be used, one line each. */
export const RUN_PROBLEMS = ${JSON.stringify(problems, null, 2)};
`;

function runModuleEntry(entry: RunEntry, games: string[], kept: readonly RunGroup[] = RUN_GROUPS): string {
  // Tables by URL (.href): a bare FileAttachment of a .parquet file makes Framework import apache-arrow from npm, which the offline build cannot.
  const file = (member: string) => `FileAttachment(${JSON.stringify(`../data/runs/${entry.slug}/${member}`)})`;
  const groups = kept.filter((g) => games.some(g.games)).map((g) => `${JSON.stringify(g.id)}: {${g.schemas.map((s) => `${s.name}: ${file(`${g.id}/${s.name}.parquet`)}.href`).join(", ")}}`);
  const first = kept.filter((g) => games.some(g.games) && RUN_FIRST_VIEWS[g.id]).map((g) => `${JSON.stringify(g.id)}: {${RUN_FIRST_VIEWS[g.id].map((v) => `${JSON.stringify(v.page)}: ${file(`${g.id}/first-${v.page}.json`)}`).join(", ")}}`);
  const lookups = kept.filter((g) => games.some(g.games) && g.lookups).map((g) => `${JSON.stringify(g.id)}: {${Object.keys(g.lookups!).map((t) => `${t}: ${file(`${g.id}/${indexName(t)}`)}`).join(", ")}}`);
  return `
  {name: ${JSON.stringify(entry.name)}, description: ${JSON.stringify(entry.description)}, slug: ${JSON.stringify(entry.slug)}, games: ${JSON.stringify(games)},
   info: ${file("run.json")},
   tables: {${groups.join(", ")}},
   lookups: {${lookups.join(", ")}},
   first: {${first.join(", ")}}}`;
}

/** The generated module's text for the runs configured in `env`. */
export async function runsModule(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  let config;
  try {
    config = readRuns(env);
  } catch (error) {
    return TEMPLATE([], [(error as Error).message]);
  }
  const file = basename(config.configPath);
  const problems = config.problems.map((p) => formatRunProblem(p, file));
  const entries: string[] = [];
  for (const entry of config.runs) {
    try {
      entries.push(runModuleEntry(entry, await runGames(entry.dir, runState(entry.dir))));
    } catch (error) {
      problems.push(formatRunProblem({index: entry.index, path: entry.path, message: `unreadable (${(error as Error).message.split("\n")[0]})`}, file));
    }
  }
  return TEMPLATE(entries, problems);
}

/**
 * The generated module's text for given runs with only the analysis groups
 * `groups` (ids of RUN_GROUPS): a report's (site/reportSite.ts), whose runs'
 * files `runMembers` gives for the same groups.
 */
export function runsModuleOf(runs: readonly {entry: RunEntry; games: string[]}[], groups: readonly string[]): string {
  const kept = RUN_GROUPS.filter((g) => groups.includes(g.id));
  return TEMPLATE(runs.map(({entry, games}) => runModuleEntry(entry, games, kept)), []);
}

export const RUNS_MODULE = join(projectRoot, "src/generated/runs.js");

/** Writes src/generated/runs.js (only when its text changes, so a watching preview is not reloaded for nothing); returns whether it changed. */
export async function prepareRuns(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const text = await runsModule(env);
  let old: string | null = null;
  try {
    old = readFileSync(RUNS_MODULE, "utf8");
  } catch {
    // first build
  }
  if (old === text) return false;
  mkdirSync(join(projectRoot, "src/generated"), {recursive: true});
  writeFileSync(RUNS_MODULE, text);
  return true;
}

/**
 * The archive of the run named `slug`: run.json, each group's flat
 * tables and its pages' first views. A run still going is read from its checkpoints. Whatever goes
 * wrong, the archive has every member the generated module names (empty
 * tables and a `problem`), so the build goes on.
 */
export async function runArchive(slug: string, env: NodeJS.ProcessEnv = process.env): Promise<Buffer> {
  const entry = (() => {
    try {
      return readRuns(env).runs.find((r) => r.slug === slug) ?? null;
    } catch {
      return null;
    }
  })();
  return tar(await runMembers(entry, slug, RUN_GROUPS));
}

/**
 * The files of run `entry` (null: no run is configured under `slug` any
 * more) for the analysis groups `groups`, by their names in the archive:
 * run.json, each group's flat tables, lookup indexes and first views.
 */
export async function runMembers(entry: RunEntry | null, slug: string, groups: readonly RunGroup[]): Promise<Record<string, Uint8Array | string>> {
  const {flattenRunTable, lookupIndex, writeParquet} = await import("../io/parquet.js");
  const {firstView} = await import("../datasets/emit.js");
  const scratch = mkdtempSync(join(tmpdir(), "parley-run-archive-"));
  const members: Record<string, Uint8Array | string> = {};
  const info: RunInfo = {name: entry?.name ?? slug, description: entry?.description ?? null, path: entry?.path ?? "", kind: null, games: [], total: 0, agents: [], models: [], started: null, finished: null, running: false, config: null, llm_players: [], parley: null, manifest: null, problem: entry ? null : `no run named ${JSON.stringify(slug)} is configured any more (rebuild)`};
  const empty = join(scratch, "empty");
  mkdirSync(empty);
  let tablesDir = empty;
  try {
    if (entry) {
      const state = runState(entry.dir);
      tablesDir = await readableTables(entry.dir, state, join(scratch, "checkpoints"));
      const {manifests, partitions, checkpoints, running, ...described} = summarize(state, await tableContents(tablesDir));
      const manifest = manifests[0];
      Object.assign(info, described, {
        kind: manifest?.kind ?? null,
        running: running !== null,
        config: manifest?.config ?? null,
        llm_players: manifest?.llm_players ?? [],
        parley: readRunJson(entry.dir, "manifest.json")?.parley ?? null,
        manifest: readManifest(entry.dir),
      });
    }
  } catch (error) {
    info.problem = `its tables could not be read (${(error as Error).message.split("\n")[0]}); shown empty`;
    tablesDir = empty;
  }
  try {
    for (const group of groups) {
      mkdirSync(join(scratch, group.id), {recursive: true});
      // A group the run has no games of stays empty (an ingest's flat tables would otherwise be copied whole into every group).
      const source = info.games.some((g) => group.games(g.game)) ? tablesDir : empty;
      const reshaped = await reshapedRows(group, source).catch((error: Error): Record<string, Row[]> => {
        info.problem ??= `its ${group.id} games could not be read (${error.message.split("\n")[0]}); shown empty`;
        return {};
      });
      for (const schema of group.schemas) {
        const path = join(scratch, group.id, `${schema.name}.parquet`);
        const lookup = group.lookups?.[schema.name];
        try {
          if (reshaped) await writeParquet(path, schema, reshaped[schema.name] ?? []);
          else await flattenRunTable(source, schema, path, group.games, group.where?.[schema.name], lookup);
        } catch (error) {
          info.problem ??= `its ${group.id} ${schema.name} could not be read (${(error as Error).message.split("\n")[0]}); shown empty`;
          await flattenRunTable(empty, schema, path);
        }
        members[`${group.id}/${schema.name}.parquet`] = readFileSync(path);
        if (lookup) members[`${group.id}/${indexName(schema.name)}`] = JSON.stringify(await lookupIndex(path, lookup));
      }
      if (source !== empty) for (const view of RUN_FIRST_VIEWS[group.id] ?? []) members[`${group.id}/first-${view.page}.json`] = JSON.stringify(await firstView(view, join(scratch, group.id)));
    }
    members["run.json"] = JSON.stringify(info, null, 2);
    return members;
  } finally {
    rmSync(scratch, {recursive: true, force: true});
  }
}

/**
 * A group's rows reshaped (RunGroup.reshape) when the run played its games
 * (partitioned tables); null when it needs no reshaping, or is an ingest,
 * whose flat tables are already the dataset's.
 */
async function reshapedRows(group: RunGroup, tablesDir: string): Promise<Record<string, Row[]> | null> {
  const files = runTableFiles(tablesDir, "games", group.games);
  if (!group.reshape || !files.partitioned || !files.files.length) return null;
  const {queryRun} = await import("../io/parquet.js");
  const [games, turns] = await Promise.all(["games", "turns"].map((t) => queryRun(tablesDir, [t], `SELECT * FROM ${t}`, group.games)));
  return group.reshape({games, turns});
}

/** Entry point of src/data/runs/[run].tar.ts. */
export async function emitRun(argv: string[]): Promise<void> {
  const slug = argv.find((a) => a.startsWith("--run="))?.slice("--run=".length) ?? "";
  const archive = await runArchive(slug);
  await new Promise<void>((resolve, reject) => process.stdout.write(archive, (error) => (error ? reject(error) : resolve())));
}

