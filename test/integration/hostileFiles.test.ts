// Hostile and careless files and folders, through the real command line:
// merged shard folders a later writer must not delete, output folders that
// hold another writer's or another config's tables, `parley export` on a
// manifest that is a link or carries markup, and folder names with glob
// characters. Each is one line naming the path and what was expected, and
// nothing else is lost.
import {test} from "node:test";
import assert from "node:assert/strict";
import {cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from "node:fs";
import {join, relative} from "node:path";
import {fileURLToPath} from "node:url";
import {parley, scratch, type Done} from "../support/cli.js";
import {writeSmallGleeConfig} from "../support/smallGleeRun.js";
import {nodeEngine} from "../../loaders/study/engine.js";
import {startSession} from "../../loaders/study/session.js";
import {queryRun} from "../../loaders/io/parquet.js";
import {readManifest} from "../../loaders/runner/manifest.js";
import {runState} from "../../loaders/ownRuns/describe.js";
import {fakeModel, experimentConfig, startStudyIn} from "../support/playStudy.js";
import MarkdownIt from "markdown-it";
import {parse} from "parse5";

const {dir: tempDir, keep} = scratch("parley-hostile-files-");
const DOND = fileURLToPath(new URL("../fixtures/dond/hand.txt", import.meta.url));

const ok = (r: Done, what = "") => {
  assert.equal(r.code, 0, `${what}\n${r.stderr}`);
  return r;
};

/** A refusal: exit code 2 and exactly one line on stderr, matching `pattern`. */
function refused(r: Done, pattern: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.split("\n").filter(Boolean).length, 1, `one line, got:\n${r.stderr}`);
  assert.match(r.stderr, pattern);
}

/** Every file under `dir` (links followed) with its size: what must not change. */
function files(dir: string): string[] {
  return readdirSync(dir, {recursive: true}).map(String).filter((f) => !f.startsWith(".parley") && statSync(join(dir, f)).isFile()).map((f) => `${f} ${statSync(join(dir, f)).size}`).sort();
}

async function gameCount(dir: string): Promise<number> {
  const [{n}] = await queryRun<{n: number}>(dir, ["games"], "SELECT count(*)::INTEGER AS n FROM games");
  return n;
}

/** A finished play record of GLEE bargaining (the person accepts Rubinstein's first offer), saved as `name`. */
async function record(dir: string, name: string, gameId: string): Promise<string> {
  const s = await startSession({game: "glee/bargaining", params: {money: 100}, seats: ["rubinstein", "human"], seed: 1, game_id: gameId}, nodeEngine);
  for (let p = s.pending(); p; p = s.pending()) await s.submit({type: "decision", decision: "accept"});
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(s.record()));
  return path;
}

test("merged shard folders (copied together, no links) are never deleted by a later run or ingest into their directory", async () => {
  const dir = tempDir();
  const config = writeSmallGleeConfig(dir, 3);
  for (const i of [0, 1]) ok(await parley(["run", config, "--out", join(dir, `shard${i}`), "--shard", `${i}/2`, "--quiet"]));
  // As a CI matrix leaves them: each job's game=*/shard=* folders copied into one directory, links followed.
  const merged = join(dir, "merged");
  for (const i of [0, 1]) cpSync(join(dir, `shard${i}`, "game=glee%2Fbargaining"), join(merged, "game=glee%2Fbargaining"), {recursive: true, dereference: true});
  const before = files(merged);
  assert.equal(before.length, 6);
  assert.equal(await gameCount(merged), 8);

  const human = await record(dir, "human.json", "h.merged");
  const partition = /merged\/game=glee%2Fbargaining is a folder that no parley writer of .*merged made/;
  refused(await parley(["run", config, "--out", merged, "--quiet"]), partition);
  refused(await parley(["run", config, "--out", merged, "--quiet", "--replace"]), partition);
  refused(await parley(["ingest", "human", human, "--out", merged]), partition);
  refused(await parley(["ingest", "dond", DOND, "--out", merged, "--replace"]), partition);
  assert.deepEqual(files(merged), before, "every shard's files are kept");
  assert.equal(await gameCount(merged), 8);

  // The whole shard directories copied with their state (`cp -rL`): a shard rerun may not replace the copied shard=0 folder either.
  const copied = join(dir, "copied");
  for (const i of [0, 1]) cpSync(join(dir, `shard${i}`), copied, {recursive: true, dereference: true, force: false, errorOnExist: false});
  const copiedBefore = files(copied);
  refused(await parley(["run", config, "--out", copied, "--shard", "0/2", "--quiet"]), /copied\/game=glee%2Fbargaining\/shard=0 is a folder that no parley writer of .*copied made/);
  assert.deepEqual(files(copied), copiedBefore);
  assert.equal(await gameCount(copied), 8);
});

test("a folder holding another writer's or another config's tables is refused, naming it and its writer, unless --replace", async () => {
  const dir = tempDir();
  const configA = writeSmallGleeConfig(dir, 1);
  const configB = join(dir, "other.json");
  writeFileSync(configB, JSON.stringify({family: "bargaining", grid: {delta_a: [0.9], delta_b: [0.8], money: [1000], horizon: [12], complete_information: [true], messages: [true]}, players: ["fair", "greedy"], seed: 1}));
  const first = await record(dir, "first.json", "h.first");
  const second = await record(dir, "second.json", "h.second");
  const manifestKind = (out: string) => JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")).kind;

  // parley ingest human into a run's folder.
  const run = join(dir, "run");
  ok(await parley(["run", configA, "--out", run, "--quiet"]));
  const runFiles = files(run);
  refused(await parley(["ingest", "human", first, "--out", run]), /run holds the tables of parley run .*small\.json.*; use another --out, or --replace to replace them/);
  refused(await parley(["ingest", "dond", DOND, "--out", run]), /run holds the tables of parley run/);
  assert.deepEqual(files(run), runFiles);
  assert.equal(manifestKind(run), "run");
  ok(await parley(["ingest", "human", first, "--out", run, "--replace"]));
  assert.equal(await gameCount(run), 1);
  assert.equal(manifestKind(run), "ingest");

  // A second ingest batch into the same folder; the same batch again is the same writer.
  const batches = join(dir, "batches");
  ok(await parley(["ingest", "human", first, "--out", batches]));
  refused(await parley(["ingest", "human", second, "--out", batches]), /batches holds the tables of parley ingest human .*first\.json/);
  assert.equal(await gameCount(batches), 1);
  ok(await parley(["ingest", "human", first, "--out", batches]), "the same ingest again");
  ok(await parley(["ingest", "human", first, second, "--out", batches, "--replace"]));
  assert.equal(await gameCount(batches), 2);

  // parley run into an ingest's folder.
  const ingested = join(dir, "ingested");
  ok(await parley(["ingest", "dond", DOND, "--out", ingested]));
  const ingestedFiles = files(ingested);
  refused(await parley(["run", configA, "--out", ingested, "--quiet"]), /ingested holds the tables of parley ingest dond .*hand\.txt/);
  assert.deepEqual(files(ingested), ingestedFiles);

  // A different config without --resume into a folder that holds a run; the same config again replaces its own tables.
  const configs = join(dir, "configs");
  ok(await parley(["run", configA, "--out", configs, "--quiet"]));
  refused(await parley(["run", configB, "--out", configs, "--quiet"]), /configs holds the tables of parley run .*small\.json \(another run definition\)/);
  assert.equal(await gameCount(configs), 8);
  ok(await parley(["run", configA, "--out", configs, "--quiet"]), "the same config again");
  ok(await parley(["run", configB, "--out", configs, "--quiet", "--replace"]));
  assert.equal(await gameCount(configs), 4);
  assert.match(JSON.parse(readFileSync(join(configs, "manifest.json"), "utf8")).config_sha256, /^[0-9a-f]{64}$/);
  assert.equal(JSON.parse(readFileSync(join(configs, "manifest.json"), "utf8")).config.grid.delta_a.length, 1, "the manifest is the new config's");

  // An ingest into a stopped study's folder.
  const server = await fakeModel();
  keep(server);
  const study = await startStudyIn(tempDir(), experimentConfig(server));
  study.server.child.kill("SIGINT");
  assert.equal(((await study.server.done) as Done).code, 0, study.server.stderr());
  const studyFiles = files(study.out);
  assert.ok(studyFiles.some((f) => f.startsWith("participants.parquet")), studyFiles.join(", "));
  refused(await parley(["ingest", "human", first, "--out", study.out]), /out holds the tables of parley play .*study\.json/);
  assert.deepEqual(files(study.out), studyFiles);
});

/** The elements a dataset card is made of. */
const CARD_ELEMENTS = new Set(["html", "head", "body", "h1", "h2", "p", "ul", "li", "code", "pre"]);

/** A Markdown card rendered (HTML allowed) and parsed: its element names, code blocks and text. */
function cardElements(markdown: string): {names: Set<string>; blocks: string[]; text: string} {
  const names = new Set<string>();
  const blocks: string[] = [];
  let text = "";
  type Node = {nodeName: string; value?: string; childNodes?: Node[]; parentNode?: Node};
  const walk = (node: Node) => {
    if (node.nodeName === "#text") text += node.value;
    else if (!node.nodeName.startsWith("#")) names.add(node.nodeName);
    if (node.nodeName === "pre") blocks.push((node.childNodes ?? []).map((c) => (c.childNodes ?? []).map((t) => t.value ?? "").join("")).join(""));
    for (const child of node.childNodes ?? []) walk(child);
  };
  walk(parse(new MarkdownIt({html: true}).render(markdown)) as unknown as Node);
  return {names, blocks, text};
}

test("parley export parses manifest.json, never follows a link out of the run, and keeps data out of the card's markup", async () => {
  const dir = tempDir();
  const config = writeSmallGleeConfig(dir, 2);
  const run = join(dir, "run`<img src=x onerror=alert(1)>");
  ok(await parley(["run", config, "--out", run, "--quiet"]));
  const manifest = JSON.parse(readFileSync(join(run, "manifest.json"), "utf8"));

  // A manifest whose strings carry a fence and markup: parsed and written back as JSON the fence cannot end.
  manifest.config.description = "```\n</pre><script>alert(1)</script>\n```";
  writeFileSync(join(run, "manifest.json"), JSON.stringify(manifest));
  ok(await parley(["export", run, "--out", join(dir, "out")]));
  // The card as a Markdown renderer that passes HTML through (as GitHub's and Hugging Face's do) shows it.
  const rendered = cardElements(readFileSync(join(dir, "out", "README.md"), "utf8"));
  assert.deepEqual([...rendered.names].filter((n) => !CARD_ELEMENTS.has(n)), [], "no element made from the directory's name or the manifest");
  assert.equal(rendered.blocks.length, 1);
  assert.deepEqual(JSON.parse(rendered.blocks[0]), manifest, "the one code block is the manifest, as JSON");
  assert.ok(rendered.text.includes("run`<img src=x onerror=alert(1)>"), "the directory's name is shown as text");

  // An --out holding someone else's README.md is refused; an earlier export's is replaced.
  const project = join(dir, "project");
  mkdirSync(project);
  writeFileSync(join(project, "README.md"), "# My project\n");
  refused(await parley(["export", run, "--out", project]), /project holds a README\.md that parley export did not write; choose another --out/);
  assert.equal(readFileSync(join(project, "README.md"), "utf8"), "# My project\n");
  ok(await parley(["export", run, "--out", join(dir, "out")]), "again into the same --out");

  // A manifest that is a link to a file outside the run: not read, here nor by anything that publishes manifests.
  const secret = join(dir, "secrets.env");
  writeFileSync(secret, "OPENAI_API_KEY=sk-very-secret-value\n");
  rmSync(join(run, "manifest.json"));
  symlinkSync(relative(run, secret), join(run, "manifest.json"));
  const linked = ok(await parley(["export", run, "--out", join(dir, "out2")]));
  const card2 = readFileSync(join(dir, "out2", "README.md"), "utf8");
  assert.ok(!card2.includes("sk-very-secret-value"), card2);
  assert.match(linked.stderr, /manifest\.json is a link to .*outside the run directory; left out of the card/);
  writeFileSync(secret, JSON.stringify({kind: "run", config: {token: "sk-very-secret-value"}, started: "2026-01-01T00:00:00Z"}));
  assert.equal(readManifest(run), null);
  assert.deepEqual(runState(run).manifests, []);

  // A manifest that is not JSON: left out, with one line saying so.
  rmSync(join(run, "manifest.json"));
  writeFileSync(join(run, "manifest.json"), '{"kind": "run"}\n```\n<script>alert(1)</script>');
  const invalid = ok(await parley(["export", run, "--out", join(dir, "out3")]));
  const card3 = cardElements(readFileSync(join(dir, "out3", "README.md"), "utf8"));
  assert.deepEqual([...card3.names].filter((n) => !CARD_ELEMENTS.has(n)), []);
  assert.equal(card3.blocks.length, 0);
  assert.match(invalid.stderr, /manifest\.json is not valid JSON .*; left out of the card/);
});

test("a folder whose name has glob characters is taken literally: runs add registers it, and its tables are its own", async () => {
  const dir = tempDir();
  const config = writeSmallGleeConfig(dir, 2);
  const one = join(dir, "other.json");
  writeFileSync(one, JSON.stringify({family: "bargaining", grid: {delta_a: [0.9], delta_b: [0.8], money: [1000], horizon: [12], complete_information: [true], messages: [true]}, players: ["fair", "greedy"], seed: 1}));
  mkdirSync(join(dir, "runs"));
  ok(await parley(["run", one, "--out", join(dir, "runs", "run[1]"), "--quiet"]));
  ok(await parley(["run", config, "--out", join(dir, "runs", "run1"), "--quiet"]));
  assert.equal(await gameCount(join(dir, "runs", "run[1]")), 4, "read from run[1], not from run1 which [1] would match as a glob");

  const configFile = join(dir, "parley.config.json");
  writeFileSync(configFile, "{}");
  const env = {PARLEY_CONFIG: configFile};
  ok(await parley(["runs", "add", join(dir, "runs", "run[1]")], env));
  const listed = JSON.parse(ok(await parley(["runs", "list", "--json"], env)).stdout);
  assert.deepEqual(listed.problems, []);
  assert.deepEqual(listed.runs.map((r: {name: string; total: number}) => [r.name, r.total]), [["run[1]", 4]]);
  // A glob written by hand still matches the directories it names.
  writeFileSync(configFile, JSON.stringify({runs: ["runs/run?"]}));
  const globbed = JSON.parse(ok(await parley(["runs", "list", "--json"], env)).stdout);
  assert.deepEqual(globbed.runs.map((r: {name: string}) => r.name), ["run1"]);
  assert.equal(existsSync(join(dir, "runs", "run[1]")), true);
});
