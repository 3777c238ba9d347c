/**
 * Builds a report (`parley report`): a static site about just some runs.
 *
 * Framework builds one source root with one config, so the report gets a
 * scratch project of its own in the system's temp directory, and the
 * repository's files are never touched: `src/` holds the analysis pages of
 * the study's games (copied from the site's), /ratings about the study's
 * runs, the References page (written from the papers' manifests), the
 * components and shared code they import, a generated front page
 * (front.md), and under `data/` the study's tables as plain files in the
 * layout the pages' data loaders would emit (studyData.ts), so the pages
 * read them unchanged; under `data/runs/` each run's seats tables and
 * run.json as the site's configured runs have them (ownRuns/runArchives.ts),
 * named by `generated/runs.js`; `loaders/` and `node_modules/` link to the
 * project's (for the few data loaders kept, and so Framework bundles
 * libraries from node_modules, offline); the config is the site's with the
 * report's title, pages and output. Framework builds into the scratch
 * project, and the finished site is then moved onto `--out`.
 */
import {cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync} from "node:fs";
import {randomBytes} from "node:crypto";
import {tmpdir} from "node:os";
import {dirname, join, resolve} from "node:path";
import {projectRoot} from "../projectConfig.js";
import {removeStaleTemps} from "../io/staleFiles.js";
import {observable, seedNpmVersions} from "./build.js";
import {RUN_GROUPS, runMembers, runsModuleOf} from "../ownRuns/runArchives.js";
import {runSlug, type RunEntry} from "../ownRuns/configuredRuns.js";
import {RUN_SEATS_GROUP} from "../../src/lib/runSeats.js";
import {readPrices} from "../runner/cost.js";
import siteConfig from "../../observablehq.config.js";
import {writeStudyDataset} from "./reportData.js";
import {REPORT_DATASETS, datasetOfGame} from "../datasets/reportDatasets.js";
import {studySummary} from "./reportSummary.js";
import {referencesPage} from "./referencesPage.js";
import type {StudyRun} from "./reportRuns.js";
import {escapeHtml} from "./markup.js";
import {makeSiteAccessible} from "./accessibleHtml.js";

export interface ReportOptions {
  runs: StudyRun[];
  out: string;
  title: string;
  /** Add the built-in datasets' rows (and the built-in datasets the pages offer beside them). */
  builtin: boolean;
  /** Framework's file list on stdout (off for tests and quiet runs). */
  verbose?: boolean;
}

/** Framework could not build the report (its errors went to stderr). */
export class ReportBuildFailed extends Error {}

/** Pages every report has, after the analyses, and their Markdown (written from the papers' manifests, not copied from src/). */
const ALWAYS: Readonly<Record<string, () => string>> = {"/references": referencesPage};

/**
 * Pages every report has about the study's runs themselves, read from each
 * run's seats tables (the site's configured runs, here the study's), and
 * how the site's source becomes the report's.
 */
const RUN_PAGES: Readonly<Record<string, (source: string) => string>> = {"/ratings": ratingsPageSource};

/** The groups of tables a report's runs carry (the pages in RUN_PAGES read no other). */
const REPORT_RUN_GROUPS = [RUN_SEATS_GROUP];

/**
 * The report's copy of /ratings (src/ratings.md): its built-in sources (the
 * site's GLEE and gamma-Bench archives, whose files a report does not ship)
 * left out, so the page pools the study's runs alone. The code block that
 * defines them starts with the line `// The built-in sources`; it becomes
 * `const builtInSources = {};`. Throws when the page has no such block, so a
 * report never ships a page reading files it lacks.
 */
export function ratingsPageSource(source: string): string {
  const block = /^```js\n\/\/ The built-in sources[^\n]*\n[\s\S]*?^```$/m;
  if (!block.test(source)) throw new Error("src/ratings.md: no code block starting with the line \"// The built-in sources\" to leave out of a report");
  return source.replace(block, "```js\n// A report pools the study's runs alone.\nconst builtInSources = {};\n```");
}

interface PageEntry {name: string; path: string}

/** The site's pages in its order (observablehq.config.ts), flattened. */
function sitePages(): PageEntry[] {
  type Entry = {name: string; path?: string; pages?: Entry[]};
  const walk = (entries: Entry[]): PageEntry[] => entries.flatMap((e) => (e.pages ? walk(e.pages) : e.path ? [{name: e.name, path: e.path}] : []));
  return walk(siteConfig.pages as Entry[]);
}

/**
 * The source file of page `path` under src/: `<path>.md`, or the
 * parameterized page (`glee-[family].md`) whose fixed prefix it starts with.
 */
export function pageSource(path: string, files: readonly string[] = readdirSync(join(projectRoot, "src"))): string {
  const name = path.slice(1);
  if (files.includes(`${name}.md`)) return `${name}.md`;
  const match = files.find((f) => /^[^[\]]*\[[a-z]+\]\.md$/.test(f) && name.startsWith(f.slice(0, f.indexOf("["))));
  if (!match) throw new Error(`no source for page ${path} in src/`);
  return match;
}

/** The datasets (data/<id>/...) a page's source reads. */
export function pageDatasets(source: string): Set<string> {
  return new Set([...source.matchAll(/FileAttachment\("data\/([^/"]+)\//g)].map((m) => m[1]));
}

/**
 * The report's pages, in the site's order: the analyses of the study's
 * games; the project's own analysis pages (`src/study-*.md`, see the Guide's
 * "Writing a page", src/guide/pages.md) whose datasets are all in the study; the References page.
 */
export function reportPages(runs: readonly StudyRun[], readSource: (file: string) => string = (file) => readFileSync(join(projectRoot, "src", file), "utf8")): PageEntry[] {
  const games = [...new Set(runs.flatMap((r) => r.games))];
  const datasets = REPORT_DATASETS.filter((d) => games.some((g) => datasetOfGame(g) === d));
  const ids = new Set(datasets.map((d) => d.id));
  const own = (path: string) => {
    if (!path.startsWith("/study-")) return false;
    const reads = pageDatasets(readSource(pageSource(path)));
    return reads.size > 0 && [...reads].every((id) => ids.has(id));
  };
  const wanted = new Set([...datasets.flatMap((d) => d.pages(games)), ...Object.keys(RUN_PAGES), ...Object.keys(ALWAYS)]);
  return sitePages().filter((p) => wanted.has(p.path) || own(p.path));
}

/**
 * A page's source for the report: pages that offer a choice of datasets
 * (`const datasets = {"Label": {... FileAttachment("data/<id>/...") ...}, ...}`)
 * keep only the entries of datasets in the report, renamed after the study;
 * with `builtin`, every entry stays and those of the study's datasets say so.
 */
export function reportPageSource(source: string, studyDatasets: ReadonlySet<string>, title: string, builtin: boolean): string {
  // Pages that also offer the configured runs wrap the object: `withRuns({...}, RUNS, "glee")` (a report's runs have only the seats group, which these pages do not read).
  return source.replace(/^const datasets = (withRuns\()?\{\n([\s\S]*?)\n\}(, RUNS[^;\n]*\))?;$/m, (_, open: string | undefined, body: string, close: string | undefined) => {
    const entries = body.split("\n").map((line) => line.replace(/,$/, ""));
    const kept = entries.flatMap((line) => {
      const id = /FileAttachment\("data\/([^/"]+)\//.exec(line)?.[1];
      const inStudy = id !== undefined && studyDatasets.has(id);
      if (!inStudy) return builtin ? [line] : [];
      const label = builtin ? `${title} (with the built-in data)` : title;
      return [line.replace(/^(\s*)"(?:[^"\\]|\\.)*"/, (_m, indent: string) => `${indent}${jsString(label)}`)];
    });
    return `const datasets = ${open ?? ""}{\n${kept.join(",\n")}\n}${close ?? ""};`;
  });
}

/**
 * An own analysis page's one-line data source (`const SOURCES = withRuns({"<name>": {... FileAttachment("data/<id>/...") ...}}, RUNS, ...)`,
 * see src/study-discount.md) is named after the study when its dataset is the study's.
 */
export function renameSource(source: string, studyDatasets: ReadonlySet<string>, title: string): string {
  return source.replace(/^(const SOURCES = withRuns\(\{)"(?:[^"\\]|\\.)*"(: [^\n]*FileAttachment\("data\/([^/"]+)\/[^\n]*)$/m, (line, head: string, tail: string, id: string) => (studyDatasets.has(id) ? `${head}${jsString(title)}${tail}` : line));
}

/**
 * Text as a JavaScript string literal safe inside an HTML <script>:
 * Framework inlines a page's code in the page, where `</script>` in a
 * string would end the script and start markup; `<` is written `\u003c`.
 */
export const jsString = (text: string): string => JSON.stringify(text).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");

/**
 * Text written for the site alone (the built-in tournament, `parley runs
 * add`, the project's own file names), between the lines
 * `<!-- site only -->` and `<!-- /site only -->` of a page's source, is
 * left out of the report's copy.
 */
export function dropSiteOnly(source: string): string {
  return source.replace(/^<!-- site only -->\n[\s\S]*?^<!-- \/site only -->\n?/gm, "");
}

/**
 * A dataset menu with a single dataset is no menu: in a report's copy, the
 * line `const datasetName = view(urlInput("dataset", ... Inputs.select(names, ...) ...));`
 * shows its menu only when `names` has more than one entry (the page's
 * dataset card still says what the data is).
 */
export function dropSingleDatasetMenu(source: string): string {
  return source.replace(/^const (\w+) = (view\(urlInput\("dataset", [^\n]*?Inputs\.select\((\w+), [^\n]*\));$/gm, (_line, name: string, menu: string, names: string) => `const ${name} = ${names}.length === 1 ? ${names}[0] : ${menu};`);
}

/**
 * The games of participants a human study excluded, with the reason, written
 * into a page's `const EXCLUDED_GAMES = new Map([]);` (src/glee-[family].md),
 * which marks them in its games table and transcript.
 */
export function markExcludedGames(source: string, excluded: readonly {game_id: string; reason: string}[]): string {
  if (!excluded.length) return source;
  const pairs = JSON.stringify(excluded.map((g) => [g.game_id, g.reason]));
  return source.replace(/^const EXCLUDED_GAMES = new Map\(\[\]\);$/m, () => `const EXCLUDED_GAMES = new Map(JSON.parse(${jsString(pairs)}));`);
}

/** Markdown links to site pages the report leaves out become their plain text (no link leads to a missing page). */
export function unlinkMissingPages(source: string, kept: ReadonlySet<string>): string {
  return source.replace(/\[([^\]]+)\]\(\.\/([a-z0-9-]+)(#[^)]*)?\)/g, (link, text: string, page: string) => (kept.has(`/${page}`) ? link : text));
}

/** Copies what the pages import (components, shared code, style) and the kept data loaders into the scratch root. */
function copySupport(root: string, pages: PageEntry[]): void {
  const src = join(projectRoot, "src");
  for (const dir of ["components", "lib", "analyses"]) cpSync(join(src, dir), join(root, dir), {recursive: true});
  cpSync(join(src, "style.css"), join(root, "style.css"));
  // The matrix and tree games' descriptions are read from the game files, not from runs.
  mkdirSync(join(root, "data"), {recursive: true});
  if (pages.some((p) => p.path.startsWith("/gtllm"))) cpSync(join(src, "data/gtllm-games.json.ts"), join(root, "data/gtllm-games.json.ts"));
}

/**
 * The study's runs as the site's configured runs, for the pages of
 * RUN_PAGES: each run's files for REPORT_RUN_GROUPS (run.json with its
 * manifest, the seats tables) under `data/runs/<slug>/` as plain files, and
 * the text of `generated/runs.js` naming them. A run's path shows as its name.
 */
async function writeReportRuns(root: string, runs: readonly StudyRun[]): Promise<string> {
  const groups = RUN_GROUPS.filter((g) => REPORT_RUN_GROUPS.includes(g.id));
  const slugs = new Set<string>();
  const entries: {entry: RunEntry; games: string[]}[] = [];
  for (const [index, run] of runs.entries()) {
    let slug = runSlug(run.name);
    for (let i = 2; slugs.has(slug); i++) slug = `${runSlug(run.name)}-${i}`;
    slugs.add(slug);
    const entry: RunEntry = {name: run.name, slug, description: null, dir: run.dir, path: run.name, index};
    for (const [member, bytes] of Object.entries(await runMembers(entry, slug, groups))) {
      const file = join(root, "data", "runs", slug, member);
      mkdirSync(dirname(file), {recursive: true});
      writeFileSync(file, bytes);
    }
    entries.push({entry, games: run.games});
  }
  return runsModuleOf(entries, REPORT_RUN_GROUPS);
}

/** The project's price table as a plain object; a table that cannot be read fails the build with its one line. */
function reportPrices(): Record<string, unknown> {
  try {
    return Object.fromEntries(readPrices());
  } catch (error) {
    throw new ReportBuildFailed(`the price table for /ratings' cost per game: ${(error as Error).message}`);
  }
}

/** Builds the report; throws on a failed Framework build (its errors are on stderr). */
export async function buildReport({runs, out, title, builtin, verbose = false}: ReportOptions): Promise<{pages: PageEntry[]; datasets: string[]}> {
  removeStaleTemps(tmpdir(), "parley-");
  const project = join(tmpdir(), `parley-report.tmp-${process.pid}-${randomBytes(4).toString("hex")}`);
  const root = join(project, "src");
  const target = resolve(out);
  const staged = `${target}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    mkdirSync(root, {recursive: true});
    symlinkSync(join(projectRoot, "loaders"), join(project, "loaders"));
    symlinkSync(join(projectRoot, "node_modules"), join(project, "node_modules"));
    const pages = reportPages(runs);
    copySupport(root, pages);

    const datasets = REPORT_DATASETS.filter((d) => runs.some((r) => r.games.some((g) => datasetOfGame(g) === d)));
    const dirs: Record<string, string> = {};
    for (const d of datasets) {
      dirs[d.id] = join(root, "data", d.id);
      await writeStudyDataset(d, runs, dirs[d.id], {builtin, title});
    }
    const ids = new Set(datasets.map((d) => d.id));
    const analyses = pages.filter((p) => !(p.path in ALWAYS) && !(p.path in RUN_PAGES));
    if (builtin) {
      // The built-in datasets the kept pages offer beside the study's (e.g. GLEE's human sample), as the site has them.
      const others = new Set(analyses.flatMap((p) => [...pageDatasets(readFileSync(join(projectRoot, "src", pageSource(p.path)), "utf8"))]).filter((id) => !ids.has(id)));
      for (const id of others) await writeStudyDataset({id, prefixes: [], pages: () => []}, [], join(root, "data", id), {builtin, title});
    }
    const prefixed = builtin || runs.filter((r) => r.games.some((g) => datasetOfGame(g)?.id === "glee")).length > 1;
    const summary = await studySummary(title, runs, dirs, pages.filter((p) => !(p.path in ALWAYS)), {prefixed});
    writeFileSync(join(root, "data", "study.json"), JSON.stringify(summary));
    const kept = new Set(["/", ...pages.map((p) => p.path)]);
    for (const source of new Set(analyses.map((p) => pageSource(p.path)))) {
      const text = renameSource(reportPageSource(readFileSync(join(projectRoot, "src", source), "utf8"), ids, title, builtin), builtin ? new Set() : ids, title);
      const own = dropSingleDatasetMenu(markExcludedGames(dropSiteOnly(text), summary.participants?.excludedGames ?? []));
      writeFileSync(join(root, source), unlinkMissingPages(own, kept));
    }
    for (const p of pages.filter((p) => p.path in RUN_PAGES)) {
      const source = pageSource(p.path);
      writeFileSync(join(root, source), unlinkMissingPages(dropSiteOnly(RUN_PAGES[p.path](readFileSync(join(projectRoot, "src", source), "utf8"))), kept));
    }
    for (const p of pages.filter((p) => p.path in ALWAYS)) writeFileSync(join(root, `${p.path.slice(1)}.md`), unlinkMissingPages(ALWAYS[p.path](), kept));
    const front = readFileSync(join(projectRoot, "loaders", "site", "reportFront.md"), "utf8");
    writeFileSync(join(root, "index.md"), front.replace(/^---\n/, `---\ntitle: ${JSON.stringify(title)}\n`));

    // The pages' module of configured runs: the study's, with the seats tables alone (the analysis pages read the study's datasets instead).
    mkdirSync(join(root, "generated"), {recursive: true});
    writeFileSync(join(root, "generated", "runs.js"), await writeReportRuns(root, runs));
    // /ratings' cost per game: the project's price table, as the site's data loader (src/data/prices.json.ts) writes it.
    writeFileSync(join(root, "data", "prices.json"), JSON.stringify(reportPrices()));
    seedNpmVersions(root);
    const paths = new Set(pages.map((p) => p.path));
    const config = {
      ...siteConfig,
      title,
      root,
      output: join(project, "dist"),
      pages,
      dynamicPaths: siteConfig.dynamicPaths.filter((p: string) => paths.has(p)),
      // Framework puts the footer into every page as HTML: the title goes in as text.
      footer: `${escapeHtml(title)}: a study made with Parley. Built offline with Observable Framework.`,
    };
    writeFileSync(join(project, "observablehq.config.js"), `export default ${JSON.stringify(config, null, 2)};\n`);
    const code = await observable(["build", "--config", join(project, "observablehq.config.js")], process.env, {cwd: project, root, stdio: verbose ? "inherit" : "pipe"});
    if (code !== 0) throw new ReportBuildFailed(`the report's site build failed (Framework exited with code ${code}; its errors are above)`);
    makeSiteAccessible(join(project, "dist"));

    // The finished site replaces --out whole: staged beside it, then swapped in by rename.
    mkdirSync(dirname(target), {recursive: true});
    cpSync(join(project, "dist"), staged, {recursive: true});
    rmSync(target, {recursive: true, force: true});
    renameSync(staged, target);
    return {pages, datasets: datasets.map((d) => d.id)};
  } finally {
    rmSync(project, {recursive: true, force: true});
    if (existsSync(staged)) rmSync(staged, {recursive: true, force: true});
  }
}
