// The site's generated Reference (/reference/...), regenerated and compared
// with what it documents: the command line's commands, usage and aliases (as
// `parley help` prints them), the keys the config validators accept (asked
// of the validators themselves, through the error an unknown key gets), each
// game's parameters and columns, the datasets' tables and the papers'
// manifests. Also: every page is the same bytes when generated twice and
// when its page loader runs, and Framework reads no code in it (everything
// from data is text). No site build: the browser tests open the built pages.
import {test} from "node:test";
import assert from "node:assert/strict";
import {execFile} from "node:child_process";
import {existsSync, mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {promisify} from "node:util";
import siteConfig from "../../observablehq.config.js";
import {commands} from "../../loaders/cli/commands/index.js";
import {aliases as statsAliases} from "../../loaders/cli/commands/stats.js";
import {REFERENCE_MARKDOWN, cliReference, configReference, papersReference, referenceIndex, tablesReference} from "../../loaders/site/referenceDocs.js";
import {REFERENCE_INDEX, REFERENCE_PAGES} from "../../loaders/site/referencePages.js";
import {escapeText, html, textTable} from "../../loaders/site/markup.js";
import {parseRunConfig} from "../../loaders/runner/runConfig.js";
import {parseLlmPlayerSpec} from "../../loaders/llm/playerSpec.js";
import {parseExperiment} from "../../loaders/study/experiment.js";
import {datasetsConfig, projectRoot} from "../../loaders/projectConfig.js";
import {readRuns} from "../../loaders/ownRuns/configuredRuns.js";
import {readPrices} from "../../loaders/runner/cost.js";
import {paramValueError} from "../../loaders/contract/params.js";
import {COMMON_GAME_COLUMNS, COMMON_PLAYER_COLUMNS, COMMON_TURN_COLUMNS, gameTables} from "../../loaders/contract/tables.js";
import {dataGamesOf, games} from "../../loaders/registry/games.js";
import {papers} from "../../loaders/papers/index.js";
import {PARTICIPANTS_TABLE} from "../../loaders/study/studyTables.js";
import type {Column, TableSchema} from "../../loaders/io/schema.js";

const run = promisify(execFile);

/**
 * Framework's own Markdown parser (untyped modules of its dist/, named by a
 * template so TypeScript does not look for declarations): what it makes of
 * a page is what the build will.
 */
interface MarkdownIt {
  parse(content: string, context: object): unknown[];
  renderer: {render(tokens: unknown[], options: unknown, context: object): string};
  options: unknown;
}
const FRAMEWORK = "@observablehq/framework/dist";
const {createMarkdownIt} = (await import(`${FRAMEWORK}/markdown.js`)) as {createMarkdownIt(options: {linkify: boolean}): MarkdownIt};
const {readFrontMatter} = (await import(`${FRAMEWORK}/frontMatter.js`)) as {readFrontMatter(input: string): {content: string; data: Record<string, unknown>}};

// ---------------------------------------------------------------- reading the generated HTML back

/** HTML text back to the text it shows: character references decoded (tags left alone). */
const decode = (s: string): string =>
  s.replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n))).replace(/&(amp|lt|gt|quot);/g, (_, e: string) => ({amp: "&", lt: "<", gt: ">", quot: '"'})[e]!);

/** The text of some HTML: tags dropped, references decoded. */
const textOf = (s: string): string => decode(s.replace(/<[^>]*>/g, ""));

/** The section of `page` under the heading with this id, up to the next heading of the same or a higher level. */
function section(page: string, id: string, what: string): string {
  const start = page.search(new RegExp(`<h([2-4]) id="${id}">`));
  assert.ok(start >= 0, `${what}: the page has no section #${id}`);
  const level = Number(page[start + 2]);
  const rest = page.slice(start + 1);
  const next = rest.search(new RegExp(`<h[2-${level}][ >]`));
  return next < 0 ? page.slice(start) : page.slice(start, start + 1 + next);
}

/** The rows of the first table in `html`, each a list of its cells' text. */
function tableRows(markup: string): string[][] {
  const table = /<table>[\s\S]*?<\/table>/.exec(markup);
  assert.ok(table, `no table in: ${markup.slice(0, 200)}`);
  return [...table[0].matchAll(/<tr><td>([\s\S]*?)<\/td><\/tr>/g)].map((m) => m[1].split("</td><td>").map(textOf));
}

/** The first column of the first table. */
const tableKeys = (markup: string): string[] => tableRows(markup).map((r) => r[0]);

/** "a, b, c" or `"a", "b" and "c"` as a list. */
const listOf = (text: string): string[] => text.split(/, | and /).map((s) => s.trim().replace(/^"|"$/g, ""));

/** The message of the error `f` throws. */
function thrown(f: () => unknown): string {
  try {
    f();
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail(`expected an error from ${f}`);
}

// ---------------------------------------------------------------- the pages as a whole

test("every Reference page is listed, generated the same bytes twice, printed so by its page loader, and in the navigation", async () => {
  const paths = [REFERENCE_INDEX.path, ...REFERENCE_PAGES.map((p) => p.path)];
  assert.deepEqual(Object.keys(REFERENCE_MARKDOWN), paths, "REFERENCE_MARKDOWN generates exactly the pages referencePages.ts lists");
  const generated = Object.fromEntries(paths.map((p) => [p, REFERENCE_MARKDOWN[p]()]));
  for (const p of paths) assert.equal(REFERENCE_MARKDOWN[p](), generated[p], `${p}: a second generation differs from the first (something unordered or time-dependent went in)`);

  // Framework builds src/reference/<name>.md.ts into <path>: each prints, in its own process, what was generated here.
  const loaders = paths.map((p) => join(projectRoot, "src", `${p.endsWith("/") ? `${p}index` : p}.md.ts`));
  for (const file of loaders) assert.ok(existsSync(file), `no page loader ${file}`);
  const printed = await Promise.all(loaders.map((file) => run(process.execPath, ["--import", "tsx", file], {cwd: projectRoot, maxBuffer: 64 << 20})));
  paths.forEach((p, i) => assert.equal(printed[i].stdout, generated[p], `${p}: its page loader printed something else than the generator (another process, another result)`));

  type Entry = {name: string; path?: string; pages?: Entry[]};
  const section = (siteConfig.pages as Entry[]).find((e) => e.name === "Reference");
  assert.ok(section?.pages, 'observablehq.config.ts has a "Reference" section');
  // The bibliography (References) closes the section (loaders/site/navigation.ts).
  assert.deepEqual(section.pages.map((e) => e.path), [...paths, "/references"], "the navigation's Reference section lists every page, in order, then the bibliography");

  const md = createMarkdownIt({linkify: false});
  for (const page of [REFERENCE_INDEX, ...REFERENCE_PAGES]) {
    const {content, data} = readFrontMatter(generated[page.path]);
    assert.equal(data.title, page.name, `${page.path}: its title`);
    const context = {code: [] as unknown[], startLine: 0, currentLine: 0, path: page.path};
    md.renderer.render(md.parse(content, context), md.options, context);
    assert.equal(context.code.length, 0, `${page.path}: Framework would run code from the page (a \${...} or a code block from data)`);
    assert.ok(!/<script|<style|<img|<iframe/i.test(generated[page.path]), `${page.path}: an element that is not text`);
  }
  const index = generated[REFERENCE_INDEX.path];
  for (const page of REFERENCE_PAGES) assert.ok(index.includes(`href=".${page.path.slice("/reference".length)}"`), `the index links to ${page.path}`);
});

test("text from data stays text: markup, Markdown and Framework's ${ are escaped", () => {
  const hostile = '<img src=x onerror=alert(1)> ${alert(1)} *em* _em_ [a](javascript:x) `code` | # \\ ~~s~~ {x}';
  const escaped = escapeText(hostile);
  assert.ok(!/[<>"'$*_[\]`|#\\~{}]/.test(escaped.replace(/&#\d+;/g, "")), escaped);
  assert.equal(decode(escaped), hostile);
  const table = textTable(["a"], [[hostile], [html("<code>ok</code>")]]);
  assert.ok(!table.includes("<img") && !table.includes("${"), table);
  assert.deepEqual(tableRows(table).map((r) => r[0]), [hostile, "ok"]);
});

// ---------------------------------------------------------------- /reference/cli

test("/reference/cli: every command and alias of the command line, its usage verbatim as parley help prints it", async () => {
  const page = cliReference();
  const ids = [...page.matchAll(/<h2 id="cmd-([^"]+)">/g)].map((m) => m[1]);
  assert.deepEqual(ids, Object.keys(commands), "one section per command of loaders/cli/commands/index.ts, in parley help's order");

  const shown: string[] = [];
  for (const [name, command] of Object.entries(commands)) {
    const s = section(page, `cmd-${name}`, `parley ${name}`);
    assert.ok(textOf(s).includes(`parley ${name}`), `parley ${name}: its heading`);
    const pre = /<pre>([\s\S]*?)<\/pre>/.exec(s);
    assert.ok(pre, `parley ${name}: no usage block`);
    assert.equal(decode(pre[1]), `parley ${command.usage}`, `parley ${name}: the usage shown is not the command line's, verbatim`);
    shown.push(decode(pre[1]));
    // Every option the usage names is in the options table.
    const flags = [...new Set([...command.usage.matchAll(/\[(--[a-z][a-z0-9-]*)/g)].map((m) => m[1]))];
    if (flags.length) {
      const rows = tableRows(s.slice(s.lastIndexOf("<table>", s.indexOf("<th>option</th>"))));
      for (const flag of flags) assert.ok(rows.some((r) => r[0] === flag), `parley ${name}: option ${flag} of its usage is not in its options table`);
    }
    // An alias of `parley stats <paper>` says so, and nothing else does.
    const alias = statsAliases[name];
    if (alias) assert.ok(textOf(s).includes(`An alias`) && textOf(s).includes(`parley stats ${alias.paper}`), `parley ${name}: an alias of parley stats ${alias.paper} (loaders/cli/commands/stats.ts), not noted`);
    else assert.ok(!textOf(s).includes("An alias"), `parley ${name}: noted as an alias, but stats.ts has no such alias`);
  }
  const stats = textOf(section(page, "cmd-stats", "parley stats"));
  for (const [name, alias] of Object.entries(statsAliases)) assert.ok(stats.includes(`${name} (parley stats ${alias.paper})`), `parley stats does not list its alias ${name}`);

  // The blocks, in order, are what the command line prints for help and its other names.
  const expected = `${["usage: parley <command> [options]", "", ...shown.map((u) => `  ${u}`)].join("\n")}\n`;
  const cli = (...args: string[]) => run(process.execPath, [join(projectRoot, "bin/parley.js"), ...args], {cwd: projectRoot}).then(
    (r) => ({code: 0, stdout: r.stdout}),
    (e: {code: number; stdout: string}) => ({code: e.code, stdout: e.stdout}),
  );
  const names = ["help", "--help", "-h"];
  const outputs = await Promise.all([...names.map((n) => cli(n)), cli()]);
  names.forEach((n, i) => {
    assert.equal(outputs[i].code, 0, `parley ${n}`);
    assert.equal(outputs[i].stdout, expected, `parley ${n} prints other text than the page's usage blocks`);
    assert.ok(page.includes(`<code>${escapeText(n === "help" ? "parley help" : n)}</code>`), `the page does not name ${n}`);
  });
  assert.equal(outputs[names.length].code, 2, "parley alone exits 2");
  assert.equal(outputs[names.length].stdout, expected, "parley alone prints the list");
});

// ---------------------------------------------------------------- /reference/config

/** The keys an "unknown key" error lists: what the validator accepts. */
function acceptedKeys(message: string, pattern: RegExp): string[] {
  const m = pattern.exec(message);
  assert.ok(m, `unexpected error: ${message}`);
  return listOf(m[1]);
}

/**
 * Configs that give every key the validators accept (a key removed from a
 * validator's table makes them fail, naming it). A key added to a table
 * needs a value here: the test says which.
 */
const SAMPLES = {
  run: [
    {game: "glee/bargaining", grid: {delta_a: [0.9]}, n_players: 2, players: "all", lineups: "all", games_per_lineup: 1, seed: 1, chance: "per-game", concurrency: 1, max_attempts: 3, run_id: "r", description: "d"},
    {family: "bargaining", pairs: [["fair", "greedy"]], players: ["fair", "greedy"], games_per_pair: 1, generalisation: {focal: ["fair"], seen: ["greedy"], unseen: [], held_out: {delta_a: [0.9]}}},
  ],
  llm: {
    id: "m", provider: "openai", model: "x", base_url: "http://127.0.0.1:1/v1", api_key_env: "KEY", temperature: 1, max_tokens: 10, top_p: 1, seed: 1, persona: null,
    chain_of_thought: false, personality: "rational", negotiation_suffix: 1, workflow: false, prompts: null, timeout_ms: 1000, max_retries: 0, max_concurrency: 1, requests_per_minute: 1,
    max_response_bytes: 1024, max_retry_wait_ms: 0, reasoning_effort: "low", thinking_budget: 2048, reasoning_model: true,
    legal_moves: false, structured_output: false, retries: null, votes: 1, prompt_layout: "authors",
  },
  experiment: {
    id: "x", title: "t", description: "d", consent: "c", instructions: ["one", "two"], attention_check: {sentence: "Type sdkot.", answer: "sdkot", position: 1, on_fail: "stop"},
    quiz: [{question: "q", options: ["a", "b"], answer: 0}], completion_code: "CODE", max_attempts: 3,
    panel: {id_param: "pid", params: ["wave"], return_url: "https://panel.example/done?code={code}"}, results: {heading: "h", text: "t", show_outcome: false}, quiz_failure: "paid",
    conditions: [
      {id: "c1", game: "glee/bargaining", params: {delta_a: 0.9}, n_players: 2, human_seat: 0, opponent: "fair", instructions: "i", quiz: []},
      {id: "c2", game: "glee/bargaining", opponents: ["fair"]},
    ],
  },
};

const keysOf = (...objects: object[]): string[] => [...new Set(objects.flatMap((o) => Object.keys(o)))].sort();

/** The documented `keys` are exactly those a sample gives (which the validator accepted). */
function assertSampled(documented: readonly string[], sampled: readonly string[], what: string): void {
  for (const key of documented) assert.ok(sampled.includes(key), `${what}: the documented key ${key} has no value in this test's SAMPLES; add one, so that its removal from the validator's table fails here`);
  for (const key of sampled) assert.ok(documented.includes(key), `${what}: the key ${key} is accepted but not documented`);
}

test("/reference/config: every key each validator accepts, and no other, with its documented defaults", () => {
  const page = configReference();

  // Every documented key is accepted: configs giving them all pass their validators.
  for (const config of SAMPLES.run) parseRunConfig(config);
  parseLlmPlayerSpec(SAMPLES.llm, "SAMPLES.llm");
  parseRunConfig({game: "glee/bargaining", players: [SAMPLES.llm]});
  parseExperiment(SAMPLES.experiment);
  assertSampled(tableKeys(section(page, "config-run", "run config")), keysOf(...SAMPLES.run), "run config");
  assertSampled(tableKeys(section(page, "config-llm-player", "LLM players")), keysOf(SAMPLES.llm), "LLM player");
  assertSampled(tableKeys(section(page, "config-experiment", "experiments")), keysOf(SAMPLES.experiment), "experiment");
  assertSampled(tableKeys(section(page, "config-condition", "conditions")), keysOf(...SAMPLES.experiment.conditions), "experiment condition");
  assertSampled(tableKeys(section(page, "config-attention-check", "attention check")), keysOf(SAMPLES.experiment.attention_check), "attention check");
  assertSampled(tableKeys(section(page, "config-quiz", "quiz")), keysOf(...SAMPLES.experiment.quiz), "quiz question");

  // Run configs.
  const runKeys = acceptedKeys(thrown(() => parseRunConfig({game: "glee/bargaining", not_a_key: 1})), /^not_a_key: unknown key; expected one of (.*)$/);
  const runRows = tableRows(section(page, "config-run", "run config"));
  assert.deepEqual(runRows.map((r) => r[0]), runKeys, "the run-config keys documented are not the ones parseRunConfig accepts");
  const parsed = parseRunConfig({game: "glee/bargaining"}, "x") as unknown as Record<string, unknown>;
  for (const key of ["games_per_lineup", "seed", "concurrency", "max_attempts"]) {
    assert.equal(runRows.find((r) => r[0] === key)?.[2], String(parsed[key]), `run config ${key}: the documented default is not the one filled in`);
  }
  assert.ok(runRows.find((r) => r[0] === "chance")?.[2].startsWith(JSON.stringify(parsed.chance)), "run config chance: the documented default is not the one filled in");
  for (const [key, , , meaning] of runRows) {
    const of = /^another name of (\S+) \(give one or the other\)/.exec(meaning)?.[1];
    if (!of) continue;
    const value = key === "pairs" ? [["fair", "fair"]] : 1;
    assert.match(thrown(() => parseRunConfig({game: "glee/bargaining", [key]: value, [of]: value})), new RegExp(`give either "${key}" or "${of}"`), `run config ${key}: documented as another name of ${of}`);
  }

  // A run config's generalisation protocol: the documented keys are the ones it accepts.
  const generalisationKeys = acceptedKeys(thrown(() => parseRunConfig({...SAMPLES.run[1], generalisation: {focal: ["fair"], not_a_key: 1}})), /^generalisation\.not_a_key: unknown key; expected one of (.*)$/);
  const generalisationRows = tableRows(section(page, "config-generalisation", "generalisation protocol"));
  assert.deepEqual(generalisationRows.map((r) => r[0]), generalisationKeys, "the generalisation keys documented are not the ones parseRunConfig accepts");
  assertSampled(generalisationKeys, keysOf(SAMPLES.run[1].generalisation!), "generalisation protocol");

  // LLM player objects.
  const llmKeys = acceptedKeys(thrown(() => parseLlmPlayerSpec({id: "m", provider: "openai", model: "x", not_a_key: 1}, "p")), /unknown field "not_a_key" \(expected one of (.*)\)$/);
  const llmRows = tableRows(section(page, "config-llm-player", "LLM players"));
  assert.deepEqual(llmRows.map((r) => r[0]), llmKeys, "the LLM player fields documented are not the ones parseLlmPlayerSpec accepts");
  const spec = parseLlmPlayerSpec({id: "m", provider: "openai", model: "x"}, "p") as unknown as Record<string, unknown>;
  for (const [key, , fallback] of llmRows) {
    if (/^\d+$/.test(fallback)) assert.equal(String(spec[key]), fallback, `LLM player ${key}: the documented default is not the one filled in`);
  }

  // Experiments: the experiment, a condition, the attention check, a quiz question.
  const experiment = {id: "x", title: "t", consent: "c", completion_code: "CODE"};
  const experimentSection = section(page, "config-experiment", "experiments");
  const cases: [string, string, RegExp, string][] = [
    ["experiment", experimentSection, /^not_a_key: unknown key; expected one of (.*)$/, thrown(() => parseExperiment({not_a_key: 1}))],
    ["condition", section(page, "config-condition", "conditions"), /^conditions\[0\]\.not_a_key: unknown key; expected one of (.*)$/, thrown(() => parseExperiment({...experiment, conditions: [{not_a_key: 1}]}))],
    ["attention_check", section(page, "config-attention-check", "attention check"), /^attention_check\.not_a_key: unknown key; expected (.*)$/, thrown(() => parseExperiment({...experiment, attention_check: {not_a_key: 1}}))],
    ["quiz", section(page, "config-quiz", "quiz"), /^quiz\[0\]\.not_a_key: unknown key; expected (.*)$/, thrown(() => parseExperiment({...experiment, quiz: [{not_a_key: 1}]}))],
  ];
  for (const [what, markup, pattern, message] of cases) assert.deepEqual(tableKeys(markup), acceptedKeys(message, pattern), `the ${what} keys documented are not the ones parseExperiment accepts`);

  // parley.config.json: each documented key is read (a bad value is refused naming it), an entry of runs has the documented keys, a price the documented fields.
  const dir = mkdtempSync(join(tmpdir(), "parley-reference-"));
  try {
    const env = (config: unknown) => {
      const file = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(file, JSON.stringify(config));
      return {PARLEY_CONFIG: file};
    };
    const projectKeys = tableKeys(section(page, "config-project", "parley.config.json"));
    assert.match(thrown(() => datasetsConfig(env({datasets: 5}))), /"datasets" must be/);
    assert.match(readRuns(env({runs: 5})).problems[0]?.message ?? "", /expected a list of run entries/);
    assert.match(thrown(() => readPrices(env({prices: 5}))), /"prices" must be/);
    writeFileSync(join(dir, "manifest.json"), "{}");
    const sample = {datasets: dir, runs: [{path: dir, name: "n", description: "d"}], prices: {"a/b": {input_per_million: 1, cached_input_per_million: 0.5, cache_write_per_million: 1.25, output_per_million: 2, as_of: "2026-01-01"}}};
    assert.deepEqual(readRuns(env(sample)).problems, [], "a runs entry giving every documented key");
    assert.equal(readPrices(env(sample)).size, 1);
    assert.equal(datasetsConfig(env(sample)).dir, dir);
    assertSampled(projectKeys, keysOf(sample), "parley.config.json");
    assertSampled(tableKeys(section(page, "config-runs-entry", "runs entries")), keysOf(...sample.runs), "runs entry");
    assertSampled(tableKeys(section(page, "config-price", "prices")), keysOf(sample.prices["a/b"]), "price");
    const entry = readRuns(env({runs: [{path: dir, not_a_key: 1}]})).problems[0]?.message ?? "";
    assert.deepEqual(tableKeys(section(page, "config-runs-entry", "runs entries")), acceptedKeys(entry, /\(an entry has (.*)\)$/), "the keys of a runs entry");
    assert.match(thrown(() => readPrices(env({prices: {"a/b": {}}}))), /input_per_million/);
    assert.match(thrown(() => readPrices(env({prices: {"a/b": {input_per_million: 1}}}))), /output_per_million/);
    assert.match(thrown(() => readPrices(env({prices: {"a/b": {input_per_million: 1, output_per_million: 1, as_of: 5}}}))), /as_of/);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }

  // Each game's parameters: the values in the validator's words, the default.
  for (const def of games) {
    const heading = [...page.matchAll(/<h3 id="(params-[^"]+)">([\s\S]*?)<\/h3>/g)].find((m) => textOf(m[2]).split(", ").includes(def.id));
    assert.ok(heading, `${def.id}: its parameters are not on the page`);
    const rows = tableRows(section(page, heading[1], def.id));
    assert.deepEqual(rows.map((r) => r[0]), def.params.map((p) => p.name), `${def.id}: its parameters`);
    for (const p of def.params) {
      const row = rows.find((r) => r[0] === p.name)!;
      const domain = /^expected (.*), got \{\}$/.exec(paramValueError(p, {}) ?? "")?.[1];
      assert.equal(row[1], domain, `${def.id} ${p.name}: the values documented are not the validator's`);
      assert.equal(row[2], JSON.stringify(p.default), `${def.id} ${p.name}: its default`);
    }
  }
});

// ---------------------------------------------------------------- /reference/tables

/** Each column of `columns` is a row of the first table of `markup` with its type, and no other. */
function assertColumns(markup: string, columns: readonly Column[], what: string): void {
  const rows = tableRows(markup);
  assert.deepEqual(rows.map((r) => r[0]), columns.map((c) => c.name), `${what}: its columns`);
  for (const c of columns) assert.equal(rows.find((r) => r[0] === c.name)?.[1], c.type, `${what}: the type of ${c.name}`);
}

test("/reference/tables: the common columns, every game's own columns, the datasets' and the study's tables, with types", () => {
  const page = tablesReference();
  const common = {games: COMMON_GAME_COLUMNS, players: COMMON_PLAYER_COLUMNS, turns: COMMON_TURN_COLUMNS};
  for (const [t, columns] of Object.entries(common)) assertColumns(section(page, `tables-common-${t}`, t), columns, `the common ${t} columns`);

  const headings = [...page.matchAll(/<h3 id="(columns-[^"]+)">([\s\S]*?)<\/h3>/g)];
  for (const def of games) {
    const heading = headings.find((m) => textOf(m[2]).split(", ").includes(def.id));
    assert.ok(heading, `${def.id}: its columns are not on the page`);
    const body = section(page, heading[1], def.id);
    const tables = gameTables(def);
    for (const t of ["games", "players", "turns"] as const) {
      const own = tables[t].columns.filter((c) => !common[t].some((k) => k.name === c.name));
      const start = body.indexOf(`<p><code>${t}</code>:</p>`);
      assert.ok(start >= 0, `${def.id}: no ${t} part`);
      const part = body.slice(start);
      if (own.length) assertColumns(part, own, `${def.id} ${t}`);
      else assert.ok(/^<p><code>[a-z]+<\/code>:<\/p>\s*<p>none/.test(part), `${def.id} ${t}: documented columns it does not have`);
    }
  }

  const schemaOnPage = (schema: TableSchema, id: string, what: string) => {
    const s = section(page, id, what);
    assert.ok(textOf(s).startsWith(schema.name), `${what}: its heading`);
    assertColumns(s, schema.columns, what);
  };
  for (const p of papers) {
    for (const d of p.datasets) {
      const s = section(page, `dataset-${d.id.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`, `dataset ${d.id}`);
      assert.ok(textOf(s).includes(d.id) && textOf(s).includes(d.title), `dataset ${d.id}: its heading`);
      for (const schema of d.schemas) schemaOnPage(schema, `dataset-${d.id}-${schema.name}`.toLowerCase().replace(/[^a-z0-9]+/g, "-"), `dataset ${d.id} table ${schema.name}`);
    }
  }
  schemaOnPage(PARTICIPANTS_TABLE, "tables-participants", "the participants table");
});

// ---------------------------------------------------------------- /reference/papers

test("/reference/papers: every paper of loaders/papers/index.ts with its citation, games, datasets, pages and measures", () => {
  const page = papersReference();
  assert.deepEqual([...page.matchAll(/<h2 id="paper-([^"]+)">/g)].map((m) => m[1]), papers.map((p) => p.id), "one section per paper, in the list's order");
  for (const p of papers) {
    const s = section(page, `paper-${p.id}`, p.id);
    const text = textOf(s);
    const facts = Object.fromEntries(tableRows(s).map(([k, v]) => [k, v]));
    const c = p.citation;
    assert.ok(text.startsWith(c.short), `${p.id}: its heading is not its short citation`);
    assert.deepEqual(
      {title: facts.title, authors: facts.authors, first: facts["first author"], year: facts.year, venue: facts.venue},
      {title: c.title, authors: c.authors, first: c.firstAuthor, year: String(c.year), venue: c.venue},
      `${p.id}: its citation`,
    );
    const ids = [...p.play.games.map((g) => g.id), ...dataGamesOf(p.id).map((f) => f.id)];
    assert.deepEqual(new Set(facts.games.split(", ")), new Set(ids.length ? ids : ["none"]), `${p.id}: its games`);
    for (const d of p.datasets) assert.ok(textOf(section(page, `paper-${p.id}-datasets`, `${p.id} datasets`)).includes(d.id), `${p.id}: dataset ${d.id}`);
    for (const pg of p.pages) assert.ok(section(page, `paper-${p.id}-pages`, `${p.id} pages`).includes(`href="..${pg.path}"`), `${p.id}: page ${pg.path}`);
    const measures = p.analysis?.measures ?? [];
    if (measures.length) assert.deepEqual(tableKeys(section(page, `paper-${p.id}-measures`, `${p.id} measures`)), measures.map((m) => m.name), `${p.id}: its measures`);
  }
});

test("/reference/: the index names each page", () => {
  const page = referenceIndex();
  for (const p of REFERENCE_PAGES) assert.ok(textOf(page).includes(p.name), `the index lacks ${p.name}`);
});
