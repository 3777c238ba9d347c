// Every example of the Guide runs. Each page of src/guide/ is read, every
// fenced block is taken out of it in order, and each is run the way its
// language and info string say, in a scratch copy of the project (a fresh
// one per page, so that a page's examples never lean on another page's):
//
//   sh, bash, shell   run with bash (-euo pipefail) in the project, `npx parley`
//                     being the copy's own command line; a script with
//                     `#SBATCH --array=a-b` lines is a Slurm job array and runs
//                     once per task with SLURM_ARRAY_TASK_ID and _COUNT set;
//                     `server`: a server, started, asked for the URL it prints,
//                     then stopped; `downloads=play`: run after records of
//                     games played on /play are saved to ~/Downloads;
//                     `skip-test`: not run, counted (at most MAX_SKIPPED,
//                     each saying why in its first line)
//   json              `file=<path>`: written there (after a parse); `check=<kind>`:
//                     given to the validator the command line uses (run-config,
//                     experiment, llm-player, game-file, parley-config, source)
//   ts, js            `file=<path>`: written there; `from=<path>`: an excerpt of
//                     that file of the project, line by line in order
//   diff              applied to the file its `+++ b/<path>` line names
//   sql               run by native DuckDB in the project (relative paths read
//                     what the earlier blocks wrote)
//   yaml              a Kubernetes Indexed Job: its container's command runs once
//                     per completion index, its volume mounted in the project
//   csv               `file=<path>`: written there
//   text              a diagram: not run, and refused if it holds a command
//
// Anything else (another language, a block with no action) fails, as does a
// js, ts or sql block without run=false, which Framework would run in the page.
// Endpoints named in the examples as a local OpenAI-compatible server
// (LOCAL_ENDPOINT: vLLM's default address) are served by the fake model of
// test/support (which plays GLEE from the prompts), and a server's `--port N`
// is replaced by a free port. PARLEY_GUIDE_PAGE=<name> runs one page;
// PARLEY_GUIDE_KEEP=1 keeps the last page's scratch project to look at.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {spawn, spawnSync} from "node:child_process";
import {chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {dirname, join, relative, resolve} from "node:path";
import {freePort, root} from "../support/cli.js";
import {startFakeLlm, type FakeLlmServer} from "../support/fakeLlm.js";
import {gleeBot} from "../support/gleeBot.js";
import {parseRunConfig} from "../../loaders/runner/runConfig.js";
import {parseExperiment} from "../../loaders/study/experiment.js";
import {parseLlmPlayerSpec} from "../../loaders/llm/playerSpec.js";
import {parseGameFile} from "../../loaders/papers/gtllm/files.js";
import {readPrices} from "../../loaders/runner/cost.js";
import {readRuns} from "../../loaders/ownRuns/configuredRuns.js";
import {datasetsConfig} from "../../loaders/projectConfig.js";
import {readSource} from "../../loaders/datasets/sources.js";
import {withDuckDB} from "../../loaders/io/duckdb.js";
import {nodeEngine} from "../../loaders/study/engine.js";
import {startSession, type PlaySpec} from "../../loaders/study/session.js";

const GUIDE = join(root, "src/guide");
/** Blocks that may stay unrun (each says why); more means the Guide shows instructions nobody checks. */
const MAX_SKIPPED = 3;
/** Where the examples say a local OpenAI-compatible model answers. */
const LOCAL_ENDPOINT = "http://127.0.0.1:8000/v1";
const BLOCK_TIMEOUT_MS = 180_000;
/** Languages Framework runs in the page unless the block says run=false. */
const LIVE = new Set(["js", "ts", "jsx", "tsx", "sql", "html", "tex", "svg", "dot", "mermaid"]);

interface Block {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  attrs: Record<string, string>;
  text: string;
}

/** The fenced blocks of a Markdown page, in order, with their info strings parsed. */
function fencedBlocks(markdown: string, page: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[j]);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    const [lang = "", ...rest] = info.trim().split(/\s+/).filter(Boolean);
    const attrs: Record<string, string> = {};
    for (const word of rest) {
      const eq = word.indexOf("=");
      if (eq < 0) attrs[word.toLowerCase()] = "";
      else attrs[word.slice(0, eq).toLowerCase()] = word.slice(eq + 1).replace(/^"(.*)"$/, "$1");
    }
    blocks.push({page, line: i + 1, lang: lang.toLowerCase(), attrs, text: body.join("\n") + "\n"});
    i = j;
  }
  return blocks;
}

const only = process.env.PARLEY_GUIDE_PAGE;
const pages = readdirSync(GUIDE)
  .filter((f) => f.endsWith(".md"))
  .filter((f) => !only || f === only || f === `${only}.md`)
  .sort();
const allBlocks = pages.map((p) => fencedBlocks(readFileSync(join(GUIDE, p), "utf8"), `src/guide/${p}`));

let scratch: string;
let project: string;
let llm: FakeLlmServer;
let baseEnv: NodeJS.ProcessEnv;

before(async () => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), "parley-guide-")));
  project = join(scratch, "project");
  // The project's packages, for the copy and for the compiled command line's cache beside it.
  symlinkSync(realpathSync(join(root, "node_modules")), join(scratch, "node_modules"));
  // The shared datasets sit beside a checkout (parley.config.json: "../shared/datasets").
  const shared = resolve(root, "../shared");
  if (existsSync(shared)) symlinkSync(realpathSync(shared), join(scratch, "shared"));
  mkdirSync(join(scratch, "home"));
  // `npx parley` is the copy's command line; `npx <tool>` a tool of its node_modules; nothing is fetched.
  mkdirSync(join(scratch, "bin"));
  writeFileSync(
    join(scratch, "bin/npx"),
    `#!/bin/sh
if [ "$1" = parley ]; then shift; exec node "${project}/bin/parley.js" "$@"; fi
if [ -n "$1" ] && [ -x "${project}/node_modules/.bin/$1" ]; then tool="$1"; shift; exec "${project}/node_modules/.bin/$tool" "$@"; fi
echo "npx $1: not a command of the project (the Guide's examples fetch nothing)" >&2
exit 127
`,
  );
  chmodSync(join(scratch, "bin/npx"), 0o755);
  llm = await startFakeLlm("openai", gleeBot());
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PARLEY_")));
  baseEnv = {
    ...inherited,
    PATH: `${join(scratch, "bin")}:${process.env.PATH}`,
    HOME: join(scratch, "home"),
    PARLEY_CLI_CACHE: join(scratch, "cli-cache"),
    OBSERVABLE_TELEMETRY_DISABLE: "true",
  };
});

after(async () => {
  await llm?.close();
  if (scratch && process.env.PARLEY_GUIDE_KEEP) console.log(`the scratch project is kept in ${project}`);
  else if (scratch) rmSync(scratch, {recursive: true, force: true});
});

/** A fresh copy of the project's files (as git lists them, untracked ones included) at the same path. */
function freshProject(): void {
  rmSync(project, {recursive: true, force: true});
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {cwd: root, encoding: "utf8"});
  assert.equal(listed.status, 0, listed.stderr);
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    if (!existsSync(join(root, file))) continue; // deleted in the work tree
    mkdirSync(dirname(join(project, file)), {recursive: true});
    cpSync(join(root, file), join(project, file));
  }
  symlinkSync(join(scratch, "node_modules"), join(project, "node_modules"));
}

/** A path a block names, inside the project (never outside it). */
function inProject(path: string, block: Block): string {
  const full = resolve(project, path);
  assert.ok(!relative(project, full).startsWith(".."), `${where(block)}: ${path} is outside the project`);
  return full;
}

const where = (b: Block) => `${b.page}:${b.line}`;
const local = (text: string) => text.split(LOCAL_ENDPOINT).join(llm.baseURL);

function writeBlock(block: Block): void {
  const file = inProject(block.attrs.file, block);
  mkdirSync(dirname(file), {recursive: true});
  writeFileSync(file, local(block.text));
}

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** Runs bash on `script` in the project, in a process group of its own (stopped with everything it started). */
function bash(script: string, env: NodeJS.ProcessEnv = {}, timeoutMs = BLOCK_TIMEOUT_MS): Promise<Ran> {
  const child = spawn("bash", ["-euo", "pipefail", "-c", script], {cwd: project, env: {...baseEnv, ...env}, detached: true, stdio: ["ignore", "pipe", "pipe"]});
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  const timer = setTimeout(() => kill(child.pid!, "SIGKILL"), timeoutMs);
  return new Promise((done) =>
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({code, signal, output});
    }),
  );
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

function failed(block: Block, ran: Ran, what = "exited with"): never {
  const tail = ran.output.split("\n").slice(-40).join("\n");
  assert.fail(`${where(block)}: the ${block.lang} block ${what} ${ran.signal ?? ran.code}\n${tail}`);
}

async function runShell(block: Block): Promise<void> {
  const script = local(block.text);
  const array = /^#SBATCH\s+--array=(\d+)-(\d+)\s*$/m.exec(script);
  if (array) {
    // A Slurm job array: one task per index (the #SBATCH lines are comments to bash).
    const [first, last] = [Number(array[1]), Number(array[2])];
    for (let task = first; task <= last; task++) {
      const ran = await bash(script, {SLURM_ARRAY_TASK_ID: String(task), SLURM_ARRAY_TASK_COUNT: String(last - first + 1), SLURM_ARRAY_TASK_MIN: String(first), SLURM_ARRAY_TASK_MAX: String(last)});
      if (ran.code !== 0) failed(block, ran, `(task ${task}) exited with`);
    }
    return;
  }
  const ran = await bash(script);
  if (ran.code !== 0) failed(block, ran);
}

/** A server: started on a free port, asked for the URL it prints, then stopped. */
async function runServer(block: Block): Promise<void> {
  assert.match(block.text, /--port \d+/, `${where(block)}: a server block names its --port (the test gives it a free one)`);
  const port = await freePort();
  const script = local(block.text).replace(/--port \d+/g, `--port ${port}`);
  const child = spawn("bash", ["-euo", "pipefail", "-c", script], {cwd: project, env: baseEnv, detached: true, stdio: ["ignore", "pipe", "pipe"]});
  let output = "";
  const exited = new Promise<Ran>((done) => child.on("close", (code, signal) => done({code, signal, output})));
  let waited: NodeJS.Timeout | undefined;
  const url = await new Promise<string | null>((found) => {
    const look = (c: Buffer) => {
      output += c;
      const m = new RegExp(`http://127\\.0\\.0\\.1:${port}[^\\s"]*`).exec(output);
      if (m) found(m[0]);
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    void exited.then(() => found(null));
    waited = setTimeout(() => found(null), 60_000);
  });
  clearTimeout(waited);
  try {
    if (!url) failed(block, {code: child.exitCode, signal: child.signalCode, output}, "printed no URL before it stopped or timed out:");
    const answer = await fetch(url);
    assert.ok(answer.status < 400, `${where(block)}: ${url} answered ${answer.status}`);
  } finally {
    kill(child.pid!, "SIGTERM");
    const timer = setTimeout(() => kill(child.pid!, "SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

async function checkJson(block: Block): Promise<void> {
  let json: unknown;
  try {
    json = JSON.parse(local(block.text));
  } catch (error) {
    assert.fail(`${where(block)}: not valid JSON: ${(error as Error).message}`);
  }
  if (block.attrs.file !== undefined) writeBlock(block);
  const kind = block.attrs.check;
  if (kind === undefined) {
    assert.ok(block.attrs.file !== undefined, `${where(block)}: a json block says file=<path> or check=<kind>`);
    return;
  }
  try {
    if (kind === "run-config") parseRunConfig(json, "example");
    else if (kind === "experiment") parseExperiment(json);
    else if (kind === "llm-player") (Array.isArray(json) ? json : [json]).forEach((p, i) => parseLlmPlayerSpec(p, `player ${i}`));
    else if (kind === "game-file") parseGameFile(json, "example.json");
    else if (kind === "parley-config") {
      const file = join(scratch, "parley.config.check.json");
      writeFileSync(file, JSON.stringify(json));
      const env = {PARLEY_CONFIG: file};
      readPrices(env);
      datasetsConfig(env);
      // Entries whose directories do not exist here are fine; any other problem (a bad shape, a bad key) is not.
      const bad = readRuns(env).problems.filter((p) => !/directory not found|no directory matches/.test(p.message));
      assert.deepEqual(bad, []);
    } else if (kind === "source") {
      const file = join(scratch, "source.check.json");
      writeFileSync(file, JSON.stringify(json));
      readSource(file);
    } else assert.fail(`${where(block)}: unknown check=${kind}`);
  } catch (error) {
    assert.fail(`${where(block)}: check=${kind}: ${(error as Error).message}`);
  }
}

/** An excerpt: each of its lines (trimmed; "…" lines skip) appears in the file, in order. */
function checkExcerpt(block: Block): void {
  const file = inProject(block.attrs.from, block);
  assert.ok(existsSync(file), `${where(block)}: from=${block.attrs.from} does not exist`);
  const source = readFileSync(file, "utf8").split("\n").map((l) => l.trim());
  let at = 0;
  for (const raw of block.text.split("\n")) {
    const line = raw.trim();
    if (!line || /^(\/\/ )?(…|\.\.\.)$/.test(line)) continue;
    const found = source.indexOf(line, at);
    assert.ok(found >= 0, `${where(block)}: this line is not in ${block.attrs.from} (after line ${at}): ${line}`);
    at = found + 1;
  }
}

/** Applies a unified diff's hunks by their text (line numbers may have moved). */
function applyDiff(block: Block): void {
  const target = /^\+\+\+ b\/(\S+)/m.exec(block.text);
  assert.ok(target, `${where(block)}: a diff names its file with a "+++ b/<path>" line`);
  const file = inProject(target[1], block);
  let text = readFileSync(file, "utf8");
  const hunks = block.text.split(/^@@.*$/m).slice(1);
  assert.ok(hunks.length, `${where(block)}: a diff has hunks`);
  for (const hunk of hunks) {
    const lines = hunk.replace(/^\n/, "").replace(/\n$/, "").split("\n");
    const old = lines.filter((l) => !l.startsWith("+")).map((l) => l.slice(1));
    const next = lines.filter((l) => !l.startsWith("-")).map((l) => l.slice(1));
    const [from, to] = [old.join("\n") + "\n", next.join("\n") + "\n"];
    const at = text.indexOf(from);
    assert.ok(at >= 0 && text.indexOf(from, at + 1) < 0, `${where(block)}: the hunk's lines are not found once in ${target[1]}:\n${from}`);
    text = text.slice(0, at) + to + text.slice(at + from.length);
  }
  writeFileSync(file, text);
}

async function runSql(block: Block): Promise<void> {
  const statements = block.text.split(/;\s*$/m).map((s) => s.trim()).filter(Boolean);
  const cwd = process.cwd();
  process.chdir(project);
  try {
    await withDuckDB(async (db) => {
      for (const sql of statements) {
        const rows = await db.query(sql);
        assert.ok(rows.length > 0, `${where(block)}: the query returned no rows:\n${sql}`);
      }
    });
  } catch (error) {
    if (error instanceof assert.AssertionError) throw error;
    assert.fail(`${where(block)}: ${(error as Error).message}`);
  } finally {
    process.chdir(cwd);
  }
}

/** A Kubernetes Indexed Job: its container's command once per completion index, its volume a directory of the project. */
async function runJob(block: Block): Promise<void> {
  const text = local(block.text);
  assert.match(text, /^kind: Job$/m, `${where(block)}: the yaml blocks the test runs are Kubernetes Jobs`);
  assert.match(text, /completionMode: Indexed/, `${where(block)}: an Indexed Job`);
  const completions = Number(/^\s*completions: (\d+)/m.exec(text)?.[1]);
  const command = /^\s*command: (\[.*\])\s*$/m.exec(text);
  assert.ok(completions > 0 && command, `${where(block)}: completions and a one-line command: ["sh", "-c", "..."]`);
  const argv = JSON.parse(command[1]) as string[];
  assert.deepEqual(argv.slice(0, 2), ["sh", "-c"], `${where(block)}: command: ["sh", "-c", "..."]`);
  let script = argv[2];
  for (const m of text.matchAll(/mountPath: ([^,}\s]+)/g)) {
    const volume = join(project, "volumes", m[1]);
    mkdirSync(volume, {recursive: true});
    script = script.split(m[1]).join(volume);
  }
  for (let index = 0; index < completions; index++) {
    const ran = await bash(script, {JOB_COMPLETION_INDEX: String(index)});
    if (ran.code !== 0) failed(block, ran, `(completion index ${index}) exited with`);
  }
}

/**
 * What a person's browser holds after playing on /play (`downloads=play`):
 * the records its "Download record" links save, made by the same session
 * code the page bundles, in ~/Downloads under the names the page gives them.
 */
async function downloadPlayRecords(): Promise<void> {
  const downloads = join(baseEnv.HOME!, "Downloads");
  mkdirSync(downloads, {recursive: true});
  const play = async (spec: PlaySpec, choose: (legal: {type: string}[]) => Record<string, unknown>) => {
    const session = await startSession(spec, nodeEngine);
    for (let p = session.pending(); p; p = session.pending()) assert.ok("ok" in (await session.submit(choose(p.legal))));
    writeFileSync(join(downloads, `parley-play-${spec.game_id}.json`), JSON.stringify(session.record()));
  };
  await play({game: "glee/bargaining", params: {money: 100}, seats: ["rubinstein", "human"], seed: 1, game_id: "play-bargaining-1"}, () => ({type: "decision", decision: "accept"}));
  await play({game: "gamabench/guessing", params: {rounds: 2}, seats: ["human", "level-1", "level-2"], seed: 4, game_id: "play-guessing-1"}, () => ({type: "choose", amount: 30}));
}

interface Tally {
  ran: number;
  shown: number;
  skipped: string[];
}
const tally: Tally = {ran: 0, shown: 0, skipped: []};

/** Runs one block; returns how it counted. */
async function runBlock(block: Block): Promise<"ran" | "shown" | "skipped"> {
  const {lang, attrs} = block;
  if (LIVE.has(lang)) assert.equal(attrs.run, "false", `${where(block)}: a ${lang} block needs run=false, or Framework runs it in the page`);
  if (attrs["skip-test"] !== undefined) {
    const reason = /^#\s*(.+)$/.exec(block.text.split("\n")[0]);
    assert.ok(reason, `${where(block)}: a skip-test block says why in a comment on its first line`);
    tally.skipped.push(`${where(block)}: ${reason[1]}`);
    return "skipped";
  }
  switch (lang) {
    case "sh":
    case "bash":
    case "shell":
      if (attrs.downloads === "play") await downloadPlayRecords();
      if (attrs.file !== undefined) writeBlock(block);
      else if (attrs.server !== undefined) await runServer(block);
      else await runShell(block);
      if (attrs.file !== undefined && /^#SBATCH/m.test(block.text)) await runShell(block);
      return "ran";
    case "json":
      await checkJson(block);
      return "ran";
    case "ts":
    case "typescript":
    case "js":
    case "csv":
      if (attrs.from !== undefined) checkExcerpt(block);
      else if (attrs.file !== undefined) writeBlock(block);
      else assert.fail(`${where(block)}: a ${lang} block says file=<path> (written into the project) or from=<path> (an excerpt of it)`);
      return "ran";
    case "diff":
      applyDiff(block);
      return "ran";
    case "sql":
      await runSql(block);
      return "ran";
    case "yaml":
      await runJob(block);
      return "ran";
    case "text":
      assert.doesNotMatch(block.text, /^\s*(\$ |npx |npm |parley )/m, `${where(block)}: a text block holds a command; make it an sh block`);
      return "shown";
    default:
      assert.fail(`${where(block)}: a block in "${lang || "(no language)"}", which this test cannot run`);
  }
}

// One test, its pages in turn (top-level tests of a file may run at once; these share the scratch project's path).
test("every example of the Guide runs", {timeout: 30 * 60_000}, async (t) => {
  for (const [k, page] of pages.entries()) {
    const blocks = allBlocks[k];
    await t.test(`src/guide/${page}`, async (pt) => {
      if (blocks.some((b) => b.lang !== "text")) freshProject();
      let broken: string | null = null;
      for (const block of blocks) {
        const attrs = Object.entries(block.attrs).map(([a, v]) => (v ? `${a}=${v}` : a));
        await pt.test(`${where(block)} ${[block.lang, ...attrs].join(" ")}`, async (bt) => {
          if (broken) return bt.skip(`an earlier block of the page failed (${broken})`);
          try {
            const counted = await runBlock(block);
            if (counted === "ran") tally.ran++;
            else if (counted === "shown") tally.shown++;
          } catch (error) {
            broken = where(block);
            throw error;
          }
        });
      }
    });
  }
  const skipped = allBlocks.flat().filter((b) => b.attrs["skip-test"] !== undefined);
  assert.ok(skipped.length <= MAX_SKIPPED, `at most ${MAX_SKIPPED} blocks may be skip-test, found ${skipped.length}: ${skipped.map(where).join(", ")}`);
  assert.ok(only || tally.ran > 0, "no example ran");
  t.diagnostic(`guide examples: ${tally.ran} run, ${tally.shown} shown (diagrams), ${tally.skipped.length} skipped`);
  for (const s of tally.skipped) t.diagnostic(`skipped ${s}`);
});
