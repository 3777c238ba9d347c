/**
 * The site's Reference (/reference/...), generated from what the code
 * declares rather than written by hand, so it cannot drift from it:
 *
 * - /reference/cli: each command's usage as `parley help` prints it
 *   (loaders/usage/), with the synopsis, options and aliases read off it;
 * - /reference/config: the keys of run configs, LLM player objects,
 *   experiments and parley.config.json, from the tables their validators
 *   check keys against (loaders/io/configKeys.ts), and each game's
 *   parameters from its declaration;
 * - /reference/tables: the common columns of games, players and turns
 *   (loaders/contract/tables.ts), each game's own columns, the datasets'
 *   tables and the human study's participants table;
 * - /reference/papers: the papers' manifests (loaders/papers/index.ts).
 *
 * Every value from the code or the manifests goes into the page as text
 * (markup.ts), never as Markdown or HTML. The page loaders
 * src/reference/<page>.md.ts print these; test/integration/reference.test.ts
 * regenerates them and checks them against their sources.
 */
import type {ConfigKey} from "../io/configKeys.js";
import type {Column, TableSchema} from "../io/schema.js";
import type {GameDef, ParamSpec} from "../contract/game.js";
import {COMMAND_HELP_FLAGS, commandUsage, HELP_NAMES, type CommandUsage} from "../usage/commands.js";
import {RUN_CONFIG_KEYS} from "../runner/runConfigKeys.js";
import {GENERALISATION_KEYS} from "../runner/generalisationConfig.js";
import {LLM_PLAYER_FIELDS} from "../llm/playerSpec.js";
import {ATTENTION_CHECK_KEYS, CONDITION_KEYS, EXPERIMENT_KEYS, QUIZ_KEYS} from "../study/experiment.js";
import {PROJECT_CONFIG_KEYS} from "../projectConfig.js";
import {RUN_ENTRY_KEYS} from "../ownRuns/configuredRuns.js";
import {PRICE_FIELDS} from "../runner/cost.js";
import {paramDomain} from "../contract/params.js";
import {COMMON_GAME_COLUMNS, COMMON_PLAYER_COLUMNS, COMMON_TURN_COLUMNS, gameTables} from "../contract/tables.js";
import {dataGamesOf, games} from "../registry/games.js";
import {papers} from "../papers/index.js";
import {PARTICIPANTS_TABLE} from "../study/studyTables.js";
import {code, escapeHtml, escapeText, html, inline, textTable} from "./markup.js";
import {REFERENCE_INDEX, REFERENCE_PAGES, type ReferencePage} from "./referencePages.js";

const pageNamed = (path: string): ReferencePage => REFERENCE_PAGES.find((p) => p.path === path)!;

/** The page's front matter and heading. */
function front(page: ReferencePage, intro: string): string {
  return `---\ntitle: ${JSON.stringify(page.name)}\ntoc: false\n---\n\n# ${inline(page.name)}\n\n${intro}\n`;
}

/** An anchor id from any text: lower-case letters, digits and "-". */
export const anchor = (prefix: string, text: string): string => `${prefix}-${text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")}`;

const heading = (level: 2 | 3 | 4, id: string, markup: string): string => `<h${level} id="${id}">${markup}</h${level}>`;

/** Text from a table or manifest, its `backquoted` parts as code. */
const prose = (text: string): string => text.split("`").map((part, i) => (i % 2 ? code(part) : inline(part))).join("");

/** Links to the sections `[id, label]`, as one paragraph. */
const contents = (label: string, links: readonly (readonly [string, string])[]): string =>
  `<p>${inline(label)}: ${links.map(([id, text]) => `<a href="#${id}">${inline(text)}</a>`).join(", ")}.</p>`;

/** Sections that render the same (games with the same columns, say) listed once, under all their names. */
function grouped<T>(items: readonly T[], name: (item: T) => string, body: (item: T) => string): {names: string[]; body: string}[] {
  const groups = new Map<string, string[]>();
  for (const item of items) {
    const b = body(item);
    groups.set(b, [...(groups.get(b) ?? []), name(item)]);
  }
  return [...groups].map(([b, names]) => ({names, body: b}));
}

// ---------------------------------------------------------------- the command line

/** One way to call a command: its synopsis and what it does, read off its usage text. */
export interface UsageForm {
  synopsis: string;
  description: string;
}

/**
 * The forms of a command's usage text as `parley help` prints it ("parley "
 * + usage): a line indented by two spaces starts another form (`parley
 * datasets fetch ...`), deeper lines continue the one before; on a form's
 * first line the synopsis ends at the first run of two or more spaces, and a
 * continuation line belongs to the synopsis only while no description has
 * started and it begins with "[", "<" or "--".
 */
export function usageForms(usage: string): UsageForm[] {
  const forms: {synopsis: string[]; description: string[]}[] = [];
  const start = (line: string) => {
    const text = line.trim().startsWith("parley ") ? line.trim() : `parley ${line.trim()}`;
    const split = /\s{2,}/.exec(text);
    forms.push(split ? {synopsis: [text.slice(0, split.index)], description: [text.slice(split.index).trim()]} : {synopsis: [text], description: []});
  };
  `parley ${usage}`.split("\n").forEach((line, i) => {
    const indent = /^ */.exec(line)![0].length;
    if (i === 0 || indent === 2) return start(line);
    const form = forms.at(-1)!;
    const text = line.trim();
    if (!form.description.length && /^(\[|<|--)/.test(text)) form.synopsis.push(text);
    else form.description.push(text);
  });
  return forms.map((f) => ({synopsis: f.synopsis.join(" "), description: f.description.join(" ")}));
}

/** An option as a synopsis writes it: `[--shard i/n]` is {flag: "--shard", argument: "i/n", optional: true}. */
export interface UsageOption {
  flag: string;
  argument: string;
  optional: boolean;
}

const FLAG = String.raw`--(?:[a-z][a-z0-9-]*|<[a-z]+>)`;

/** The options a synopsis names, each once, in order: bracketed ones are optional, the argument is what follows the flag. */
export function synopsisOptions(synopsis: string): UsageOption[] {
  const found = new Map<string, UsageOption & {at: number}>();
  for (const m of synopsis.matchAll(new RegExp(String.raw`\[(${FLAG})(?:[ =]([^\]]*))?\]`, "g"))) {
    if (!found.has(m[1])) found.set(m[1], {flag: m[1], argument: (m[2] ?? "").trim(), optional: true, at: m.index});
  }
  const bare = synopsis.replace(/\[[^\]]*\]/g, (s) => " ".repeat(s.length));
  for (const m of bare.matchAll(new RegExp(String.raw`(${FLAG})(?: ((?!--)[^\s|]+))?`, "g"))) {
    if (!found.has(m[1])) found.set(m[1], {flag: m[1], argument: m[2] ?? "", optional: false, at: m.index});
  }
  return [...found.values()].sort((a, b) => a.at - b.at).map(({flag, argument, optional}) => ({flag, argument, optional}));
}

const aliasOf = (c: CommandUsage): string | undefined => c.statsAliasOf;

function commandSection(name: string, c: CommandUsage): string {
  const forms = usageForms(c.usage);
  const options = forms.flatMap((f) => synopsisOptions(f.synopsis)).filter((o, i, all) => all.findIndex((x) => x.flag === o.flag) === i);
  const aliases = Object.entries(commandUsage).filter(([, other]) => aliasOf(other) !== undefined && name === "stats").map(([n, other]) => [n, aliasOf(other)!] as const);
  const paper = aliasOf(c);
  const parts = [heading(2, anchor("cmd", name), code(`parley ${name}`))];
  if (paper) parts.push(`<p>An alias kept from before <a href="#cmd-stats"><code>parley stats</code></a>: it prints a measure of ${code(`parley stats ${paper}`)} with its own flags and output, as it always did.</p>`);
  if (aliases.length) parts.push(`<p>Per-paper commands kept as aliases of its measures: ${aliases.map(([n, p]) => `<a href="#${anchor("cmd", n)}"><code>${inline(n)}</code></a> (${code(`parley stats ${p}`)})`).join(", ")}.</p>`);
  parts.push(textTable(["synopsis", "what it does"], forms.map((f) => [html(code(f.synopsis)), f.description])));
  if (options.length) parts.push(textTable(["option", "argument", "optional"], options.map((o) => [html(code(o.flag)), o.argument ? html(code(o.argument)) : "", o.optional ? "yes" : "no"])));
  parts.push(`<p>As <code>parley help</code> prints it:</p>`);
  parts.push(`<pre>${escapeText(`parley ${c.usage}`)}</pre>`);
  return parts.join("\n\n");
}

/** /reference/cli. */
export function cliReference(): string {
  const entries = Object.entries(commandUsage) as [string, CommandUsage][];
  const intro = [
    `<p>Generated when the site is built from each command's usage text (${code("loaders/usage/<command>.usage.ts")}, listed in order by ${code("loaders/usage/commands.ts")}): the same text ${code("parley help")} prints, shown verbatim under each command. The synopsis, description and options above it are read off that text.</p>`,
    `<p>${code("parley help")} lists every command; ${HELP_NAMES.filter((n) => n !== "help").map(code).join(" and ")} are other names for it, and ${code("parley")} with no command prints the same list and exits with code 2. ${code("parley <command> --help")} (or ${COMMAND_HELP_FLAGS.filter((f) => f !== "--help").map(code).join(", ")}, anywhere before a ${code("--")}) and ${code("parley help <command>")} print that command's usage block below and exit 0, without running it.</p>`,
    contents("Commands", entries.map(([name]) => [anchor("cmd", name), name])),
  ].join("\n\n");
  return `${front(pageNamed("/reference/cli"), intro)}\n${entries.map(([name, c]) => commandSection(name, c)).join("\n\n")}\n`;
}

// ---------------------------------------------------------------- configuration


function keyTable(keys: readonly ConfigKey[]): string {
  return textTable(
    ["key", "value", "default", "meaning"],
    keys.map((k) => [html(code(k.key)), html(prose(k.type)), html(prose(k.default)), html(k.aliasOf ? `another name of ${code(k.aliasOf)} (give one or the other): ${prose(k.meaning)}` : prose(k.meaning))]),
  );
}

const json = (v: unknown): string => JSON.stringify(v);

function paramTable(def: GameDef): string {
  if (!def.params.length) return "<p>No parameters.</p>";
  const what = (p: ParamSpec) => [p.label, p.doc].filter(Boolean).join(": ");
  return textTable(
    ["parameter", "values", "default", "paper's grid", "regression baseline", "what"],
    def.params.map((p) => [html(code(p.name)), paramDomain(p), json(p.default), p.grid.map(json).join(", "), p.baseline === undefined ? "" : json(p.baseline), what(p)]),
  );
}

const gameList = (ids: readonly string[]): string => ids.map(code).join(", ");

/** /reference/config. */
export function configReference(): string {
  const sections: [string, string, string][] = [];
  sections.push([
    "config-run",
    "Run configuration (parley run <config.json>)",
    `<p>A JSON object with these keys; any other key is an error naming it. ${code("loaders/runner/runConfigKeys.ts")} is the table the validator checks keys against.</p>\n\n${keyTable(RUN_CONFIG_KEYS)}`,
  ]);
  sections.push([
    "config-generalisation",
    "A run config's generalisation protocol",
    `<p>The object under a run config's ${code("generalisation")} key (${code("loaders/runner/generalisationConfig.ts")}); any other key is an error naming it. The run's manifest records it with the held-out configurations as configuration ids; ${code("parley ratings --generalisation")} and /ratings report it.</p>\n\n${keyTable(GENERALISATION_KEYS)}`,
  ]);
  sections.push([
    "config-llm-player",
    "LLM player objects (run configs' players; experiments' opponent and opponents)",
    `<p>An entry of ${code("players")} that is an object with a ${code("provider")} is an LLM player; any other field is an error naming it (${code("loaders/llm/playerSpec.ts")}).</p>\n\n${keyTable(LLM_PLAYER_FIELDS)}`,
  ]);
  const params = grouped(games, (g) => g.id, paramTable);
  sections.push([
    "config-params",
    "Game parameters (run configs' grid; experiment conditions' params)",
    [
      `<p>Each game's parameters as it declares them: the values a run config's ${code("grid")} lists and a condition's ${code("params")} gives one of. Left out, a parameter takes its default (${code('"grid": "full"')}: the paper's grid). Games with the same parameters are listed together.</p>`,
      contents("Games", params.map((g) => [anchor("params", g.names[0]), g.names.join(", ")])),
      ...params.map((g) => `${heading(3, anchor("params", g.names[0]), gameList(g.names))}\n\n${g.body}`),
    ].join("\n\n"),
  ]);
  sections.push([
    "config-experiment",
    "Experiment configuration (parley play --config <experiment.json>)",
    [
      `<p>A JSON object with these keys (${code("loaders/study/experiment.ts")}); any other key is an error naming it.</p>`,
      keyTable(EXPERIMENT_KEYS),
      heading(3, "config-condition", `Each of ${code("conditions")}`),
      keyTable(CONDITION_KEYS),
      heading(3, "config-attention-check", code("attention_check")),
      keyTable(ATTENTION_CHECK_KEYS),
      heading(3, "config-quiz", `Each question of ${code("quiz")}`),
      keyTable(QUIZ_KEYS),
    ].join("\n\n"),
  ]);
  sections.push([
    "config-project",
    "Project configuration (parley.config.json)",
    [
      `<p>The project's ${code("parley.config.json")} (or the file the ${code("PARLEY_CONFIG")} environment variable names). Each key is read where it is used (${code("loaders/projectConfig.ts")}).</p>`,
      keyTable(PROJECT_CONFIG_KEYS),
      heading(3, "config-runs-entry", `Each entry of ${code("runs")} given as an object`),
      keyTable(RUN_ENTRY_KEYS),
      heading(3, "config-price", `Each price of ${code("prices")}`),
      keyTable(PRICE_FIELDS),
    ].join("\n\n"),
  ]);
  const intro = [
    `<p>Generated when the site is built from the tables the validators check keys against, and from each game's declared parameters.</p>`,
    contents("Sections", sections.map(([id, title]) => [id, title])),
  ].join("\n\n");
  return `${front(pageNamed("/reference/config"), intro)}\n${sections.map(([id, title, body]) => `${heading(2, id, inline(title))}\n\n${body}`).join("\n\n")}\n`;
}

// ---------------------------------------------------------------- tables

function columnTable(columns: readonly Column[]): string {
  return textTable(["column", "type", "null", "what"], columns.map((c) => [html(code(c.name)), c.type, c.nullable === false ? "never" : "may be", c.doc ?? ""]));
}

function schemaBlock(schema: TableSchema, level: 3 | 4, id: string): string {
  const key = schema.key?.length ? ` <small>(one row per ${schema.key.map(code).join(", ")})</small>` : "";
  return `${heading(level, id, `${code(schema.name)}${key}`)}\n\n${columnTable(schema.columns)}`;
}

const TABLES = ["games", "players", "turns"] as const;

/** A game's own columns per table: the columns of its tables that are not common to every game. */
export function ownColumns(def: GameDef): Record<(typeof TABLES)[number], Column[]> {
  const tables = gameTables(def);
  const common = {games: COMMON_GAME_COLUMNS, players: COMMON_PLAYER_COLUMNS, turns: COMMON_TURN_COLUMNS};
  const own = (t: (typeof TABLES)[number]) => tables[t].columns.filter((c) => !common[t].some((k) => k.name === c.name));
  return {games: own("games"), players: own("players"), turns: own("turns")};
}

function ownColumnsBody(def: GameDef): string {
  const own = ownColumns(def);
  return TABLES.map((t) => `<p>${code(t)}:</p>\n\n${own[t].length ? columnTable(own[t]) : "<p>none beyond the common columns.</p>"}`).join("\n\n");
}

/** /reference/tables. */
export function tablesReference(): string {
  const common = gameTables(games[0]);
  const owns = grouped(games, (g) => g.id, ownColumnsBody);
  const datasets = papers.flatMap((p) => p.datasets.map((d) => ({paper: p, dataset: d})));
  const sections: [string, string, string][] = [
    [
      "tables-common",
      "Columns every game writes",
      [
        `<p>${code("parley run")} writes ${code("<out>/game=<id>/games.parquet")}, ${code("players.parquet")} and ${code("turns.parquet")} (the game id with its ${code("/")} written ${code("%2F")}); ingests write flat ${code("<out>/<table>.parquet")} with a ${code("game")} column. Each table starts with these columns (${code("loaders/contract/tables.ts")}), then the game's own.</p>`,
        ...TABLES.map((t) => schemaBlock({...common[t], columns: t === "games" ? COMMON_GAME_COLUMNS : t === "players" ? COMMON_PLAYER_COLUMNS : COMMON_TURN_COLUMNS}, 3, `tables-common-${t}`)),
      ].join("\n\n"),
    ],
    [
      "tables-games",
      "Each game's own columns",
      [
        `<p>The columns a game adds to the three tables: its parameters and outcomes in ${code("games")}, per-seat outcomes in ${code("players")}, its actions' fields in ${code("turns")} (declared with the game, ${code("GameDef.columns")}). Games with the same columns are listed together.</p>`,
        contents("Games", owns.map((g) => [anchor("columns", g.names[0]), g.names.join(", ")])),
        ...owns.map((g) => `${heading(3, anchor("columns", g.names[0]), gameList(g.names))}\n\n${g.body}`),
      ].join("\n\n"),
    ],
    [
      "tables-datasets",
      "The datasets' tables",
      [
        `<p>The tables the site's pages read for each dataset of the catalog (declared in the papers' manifests), whether ingested from published logs or played when the site is built.</p>`,
        contents("Datasets", datasets.map(({dataset}) => [anchor("dataset", dataset.id), dataset.id])),
        ...datasets.map(({paper, dataset}) =>
          [
            heading(3, anchor("dataset", dataset.id), `${code(dataset.id)}: ${inline(dataset.title)}`),
            `<p>${inline(paper.citation.short)}; ${inline(dataset.cite)}.</p>`,
            ...dataset.schemas.map((s) => schemaBlock(s, 4, anchor(`dataset-${dataset.id}`, s.name))),
          ].join("\n\n"),
        ),
      ].join("\n\n"),
    ],
    [
      "tables-study",
      "A human study's tables (parley play)",
      `<p>Finished games land in the same three tables as ${code("parley run")} writes (the person's seat has agent ${code("human")}), and one more table, ${code("<out>/participants.parquet")}:</p>\n\n${schemaBlock(PARTICIPANTS_TABLE, 3, "tables-participants")}`,
    ],
  ];
  const intro = [`<p>Generated when the site is built from the tables' declared schemas.</p>`, contents("Sections", sections.map(([id, title]) => [id, title]))].join("\n\n");
  return `${front(pageNamed("/reference/tables"), intro)}\n${sections.map(([id, title, body]) => `${heading(2, id, inline(title))}\n\n${body}`).join("\n\n")}\n`;
}

// ---------------------------------------------------------------- papers

type Paper = (typeof papers)[number];

/** The paper's games in code and as data, in the registry's order. */
const paperGames = (p: Paper): string[] => {
  const ids = new Set([...p.play.games.map((g) => g.id), ...dataGamesOf(p.id).map((f) => f.id)]);
  return games.filter((g) => ids.has(g.id)).map((g) => g.id);
};

function paperSection(p: Paper): string {
  const c = p.citation;
  const link = (path: string, text: string) => `<a href="..${escapeHtml(path)}">${inline(text)}</a>`;
  const facts = textTable(
    ["field", "value"],
    [
      ["title", c.title],
      ["authors", c.authors],
      ["first author", c.firstAuthor],
      ["year", c.year],
      ["venue", c.venue],
      ["package", html(code(`loaders/papers/${p.id}/`))],
      ["overview", html(link(`/papers/${p.id}`, `${c.short}: overview`))],
      ["games", html(gameList(paperGames(p)) || "none")],
      ["ingest adapters", html(Object.keys(p.ingest).map((a) => code(`parley ingest ${a}`)).join(", ") || "none")],
    ],
  );
  const datasets = p.datasets.length
    ? textTable(["dataset", "what", "cited", "from"], p.datasets.map((d) => [html(`<a href="./tables#${anchor("dataset", d.id)}">${code(d.id)}</a>`), d.title, d.cite, d.logs ? `logs: ${d.logs.path} (parley ingest ${d.logs.adapter})` : d.played ? `played: data/runs/${d.played.run}.json` : ""]))
    : "<p>No datasets.</p>";
  const pages = p.pages.length ? `<ul>\n${p.pages.map((page) => `<li>${link(page.path, page.title)}${page.summary ? `: ${prose(page.summary)}` : ""}</li>`).join("\n")}\n</ul>` : "<p>No pages of its own (its overview answers its measures over a sample run).</p>";
  const measures = p.analysis?.measures.length
    ? textTable(
        ["measure", "what it holds", "command"],
        p.analysis.measures.map((m) => {
          const params = (m.parameters ?? []).map((q) => `[--${q.name} ${q.choices ? q.choices.join("|") : q.kind}]`).join(" ");
          return [html(code(m.name)), html(prose(m.description)), html(code(`parley stats ${p.id} <dir> --measure ${m.name}${params ? ` ${params}` : ""}`))];
        }),
      )
    : "<p>No analysis.</p>";
  return [
    heading(2, anchor("paper", p.id), inline(c.short)),
    facts,
    heading(3, anchor(`paper-${p.id}`, "datasets"), "Datasets"),
    datasets,
    heading(3, anchor(`paper-${p.id}`, "pages"), "Pages"),
    pages,
    heading(3, anchor(`paper-${p.id}`, "measures"), "Measures"),
    measures,
  ].join("\n\n");
}

/** /reference/papers. */
export function papersReference(): string {
  const intro = [
    `<p>Generated when the site is built from the papers' manifests (${code("loaders/papers/<paper>/index.ts")}, listed by ${code("loaders/papers/index.ts")}), in the list's order. The bibliography with what Parley takes from each paper is <a href="../references">References</a>.</p>`,
    contents("Papers", papers.map((p) => [anchor("paper", p.id), p.citation.short])),
  ].join("\n\n");
  return `${front(pageNamed("/reference/papers"), intro)}\n${papers.map(paperSection).join("\n\n")}\n`;
}

// ---------------------------------------------------------------- index

/** /reference/ (src/reference/index.md.ts). */
export function referenceIndex(): string {
  const counts: Record<string, string> = {
    "/reference/cli": `${Object.keys(commandUsage).length} commands`,
    "/reference/config": `${RUN_CONFIG_KEYS.length} run-config keys, ${LLM_PLAYER_FIELDS.length} LLM player fields, ${games.length} games' parameters, ${EXPERIMENT_KEYS.length + CONDITION_KEYS.length + ATTENTION_CHECK_KEYS.length + QUIZ_KEYS.length} experiment keys, ${PROJECT_CONFIG_KEYS.length + RUN_ENTRY_KEYS.length + PRICE_FIELDS.length} parley.config.json keys`,
    "/reference/tables": `${games.length} games' columns, ${papers.reduce((n, p) => n + p.datasets.length, 0)} datasets`,
    "/reference/papers": `${papers.length} papers`,
  };
  const list = `<ul>\n${REFERENCE_PAGES.map((p) => `<li><a href=".${p.path.slice("/reference".length)}">${inline(p.name)}</a>: ${inline(p.summary)} (${inline(counts[p.path])}).</li>`).join("\n")}\n</ul>`;
  const intro = `<p>These pages are generated from the code when the site is built, so they say what this version of Parley does; the tests regenerate them and check them against their sources.</p>`;
  return `${front(REFERENCE_INDEX, intro)}\n${list}\n`;
}

/** Every Reference page's Markdown, by path. */
export const REFERENCE_MARKDOWN: Readonly<Record<string, () => string>> = {
  [REFERENCE_INDEX.path]: referenceIndex,
  "/reference/cli": cliReference,
  "/reference/config": configReference,
  "/reference/tables": tablesReference,
  "/reference/papers": papersReference,
};
