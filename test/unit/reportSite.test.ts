// The pure parts of `parley report`'s site assembly (loaders/site/reportSite.ts):
// which pages a study gets, where each page's source is, and how a page's
// dataset choice and its links to left-out pages are rewritten.
import {test} from "node:test";
import assert from "node:assert/strict";
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {dropSingleDatasetMenu, dropSiteOnly, markExcludedGames, pageDatasets, pageSource, ratingsPageSource, renameSource, reportPageSource, reportPages, unlinkMissingPages} from "../../loaders/site/reportSite.js";
import type {StudyRun} from "../../loaders/site/reportRuns.js";
import {projectRoot} from "../../loaders/projectConfig.js";

const run = (games: string[]): StudyRun => ({name: "r", dir: "/r", games, manifests: [], spendUsd: null});

test("a study's pages: the analyses of its games in the site's order, /ratings of its runs, then References", () => {
  assert.deepEqual(reportPages([run(["glee/persuasion", "glee/bargaining"])]).map((p) => p.path), ["/glee-bargaining", "/glee-persuasion", "/glee-regression", "/glee-pairs", "/ratings", "/study-discount", "/references"]);
  assert.deepEqual(reportPages([run(["gamabench/guessing"]), run(["negotiationarena/buy_sell"])]).map((p) => p.path), ["/gamabench", "/negotiationarena", "/negotiationarena-buy-sell", "/ratings", "/references"]);
  assert.deepEqual(reportPages([run(["mine/chicken-unknown"])]).map((p) => p.path), ["/ratings", "/references"]);
});

test("a report's /ratings: the site's page without its built-in sources, so it reads no file a report lacks", () => {
  const source = readFileSync(join(projectRoot, "src/ratings.md"), "utf8");
  const own = ratingsPageSource(source);
  assert.match(source, /FileAttachment\("data\/(glee|gamabench)\//);
  assert.doesNotMatch(own, /FileAttachment\("data\/(glee|gamabench)\/|simulated tournament/);
  assert.match(own, /^const builtInSources = \{\};$/m);
  // Everything else is the site's page: the same text with the one block replaced.
  const [before, after] = own.split("// A report pools the study's runs alone.\nconst builtInSources = {};");
  assert.ok(source.startsWith(before) && source.endsWith(after));
  assert.throws(() => ratingsPageSource("# Ratings\n```js\nconst x = 1;\n```\n"), /no code block starting with the line "\/\/ The built-in sources"/);
});

test("page sources: a page's own file, or the parameterized page it is a route of", () => {
  const files = ["glee-[family].md", "glee-pairs.md", "negotiationarena.md", "negotiationarena-[scenario].md"];
  assert.equal(pageSource("/glee-pairs", files), "glee-pairs.md");
  assert.equal(pageSource("/glee-bargaining", files), "glee-[family].md");
  assert.equal(pageSource("/negotiationarena", files), "negotiationarena.md");
  assert.equal(pageSource("/negotiationarena-ultimatum", files), "negotiationarena-[scenario].md");
  assert.throws(() => pageSource("/nope", files), /no source for page \/nope/);
});

const page = `x
const datasets = {
  "Simulated tournament (built-in agents, full grid)": {first: FileAttachment("data/glee/first-glee-pairs.json"), games: FileAttachment("data/glee/games.parquet").href},
  "GLEE humans vs LLM (sample)": {games: FileAttachment("data/glee-human/games.parquet").href}
};
y`;

test("a page's dataset choice: the study alone, renamed; with the built-in data, every entry", () => {
  assert.equal(reportPageSource(page, new Set(["glee"]), 'My "study"', false), `x
const datasets = {
  "My \\"study\\"": {first: FileAttachment("data/glee/first-glee-pairs.json"), games: FileAttachment("data/glee/games.parquet").href}
};
y`);
  const both = reportPageSource(page, new Set(["glee"]), "S", true);
  assert.match(both, /"S \(with the built-in data\)": \{first/);
  assert.match(both, /"GLEE humans vs LLM \(sample\)": \{games: FileAttachment\("data\/glee-human/);
  assert.equal(reportPageSource("no choice here", new Set(["glee"]), "S", false), "no choice here");
  // Pages that offer the configured runs too keep the wrapper.
  const wrapped = page.replace("const datasets = {", "const datasets = withRuns({").replace("\n};", '\n}, RUNS, "glee");');
  assert.match(reportPageSource(wrapped, new Set(["glee"]), "S", false), /^const datasets = withRuns\(\{\n  "S": \{first: FileAttachment\("data\/glee\/first-glee-pairs.json"\)[^\n]*\n\}, RUNS, "glee"\);$/m);
});

test("links to pages left out of the report become text", () => {
  const text = "See [pairs](./glee-pairs), [humans](./glee-human#top), [home](./) and [web](https://example.org).";
  assert.equal(unlinkMissingPages(text, new Set(["/glee-pairs"])), "See [pairs](./glee-pairs), humans, [home](./) and [web](https://example.org).");
});

test("the datasets a page reads, from its FileAttachment calls", () => {
  assert.deepEqual([...pageDatasets('a FileAttachment("data/glee/games.parquet").href, FileAttachment("data/glee/status.json"), FileAttachment("data/gtllm-games.json")')], ["glee"]);
  assert.deepEqual([...pageDatasets("no data")], []);
});

test("an own page's data source is named after the study when it reads the study's dataset", () => {
  const line = 'const SOURCES = withRuns({"GLEE simulated tournament (data/runs/default.json)": {tables: {games: FileAttachment("data/glee/games.parquet").href}}}, RUNS, "glee");';
  assert.equal(renameSource(`a\n${line}\nb`, new Set(["glee"]), 'My "study"'), `a\nconst SOURCES = withRuns({"My \\"study\\"": {tables: {games: FileAttachment("data/glee/games.parquet").href}}}, RUNS, "glee");\nb`);
  assert.equal(renameSource(line, new Set(["gamabench"]), "S"), line);
  // With the page's first view beside its table, the first view stays (a report computes it on the study's rows).
  const withFirst = 'const SOURCES = withRuns({"T": {first: FileAttachment("data/glee/first-study-discount.json"), tables: {games: FileAttachment("data/glee/games.parquet").href}}}, RUNS, "glee", (game) => game === "glee/bargaining", "study-discount");';
  assert.equal(renameSource(withFirst, new Set(["glee"]), "S"), withFirst.replace('"T"', '"S"'));
});

test("the worked example's data source line is the one a report renames", () => {
  const source = readFileSync(join(projectRoot, "src/study-discount.md"), "utf8");
  const renamed = renameSource(source, new Set(["glee"]), "My study");
  assert.match(renamed, /^const SOURCES = withRuns\(\{"My study": \{first: FileAttachment\("data\/glee\/first-study-discount\.json"\), tables: /m);
  assert.equal(renamed.replace('"My study"', '"GLEE simulated tournament (data/runs/default.json)"'), source, "only the name changes");
});

test("a report's copy of a page: no text written for the site alone, no one-option dataset menu, excluded games named", () => {
  const source = "# T\n\nKept.\n\n<!-- site only -->\nThe built-in tournament; `parley runs add <dir>`.\n<!-- /site only -->\n\nAlso kept.\n<!-- site only -->\nagain\n<!-- /site only -->\n";
  assert.equal(dropSiteOnly(source), "# T\n\nKept.\n\n\nAlso kept.\n");
  // The real pages mark their site-only text so.
  for (const file of ["glee-[family].md", "study-discount.md", "negotiationarena.md", "gamabench.md", "econarena.md", "ratings.md"]) {
    const text = readFileSync(join(projectRoot, "src", file), "utf8");
    const left = dropSiteOnly(text);
    assert.ok(left.length < text.length, `${file} has site-only text`);
    assert.doesNotMatch(left, /parley runs add|test\/unit|site only/, file);
  }
  const menu = 'const datasetName = view(urlInput("dataset", (value) => Inputs.select(datasetNames, {label: "Dataset", value}), oneOf(datasetNames)));';
  assert.equal(dropSingleDatasetMenu(`a\n${menu}\nb`), `a\nconst datasetName = datasetNames.length === 1 ? datasetNames[0] : view(urlInput("dataset", (value) => Inputs.select(datasetNames, {label: "Dataset", value}), oneOf(datasetNames)));\nb`);
  // Every analysis page's dataset menu has the form rewritten (the study page's too).
  for (const file of ["glee-[family].md", "glee-pairs.md", "glee-regression.md", "gamabench.md", "negotiationarena.md", "study-discount.md"]) {
    const text = readFileSync(join(projectRoot, "src", file), "utf8");
    assert.match(dropSingleDatasetMenu(text), /^const \w+ = \w+\.length === 1 \? \w+\[0\] : view\(urlInput\("dataset"/m, file);
  }
  const family = readFileSync(join(projectRoot, "src", "glee-[family].md"), "utf8");
  assert.equal(markExcludedGames(family, []), family);
  const marked = markExcludedGames(family, [{game_id: "run/g</script>1", reason: "quiz"}]);
  const line = marked.split("\n").find((l) => l.startsWith("const EXCLUDED_GAMES"))!;
  assert.equal(line, 'const EXCLUDED_GAMES = new Map(JSON.parse("[[\\"run/g\\u003c/script>1\\",\\"quiz\\"]]"));');
  // The line is JavaScript that gives the map back.
  assert.deepEqual([...(new Function(`${line}; return EXCLUDED_GAMES;`)() as Map<string, string>)], [["run/g</script>1", "quiz"]]);
});
