/**
 * The compiled command line (bin/compiled.js): a build is reused while its
 * sources are unchanged and rebuilt as soon as one changes, so stale output
 * never runs; and bin/parley.js prints what the TypeScript entry prints.
 */
import test from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync} from "node:fs";
import {dirname, join} from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";
// @ts-expect-error plain JavaScript module without types
import {compiled, compiledEntries} from "../../bin/compiled.js";
import {root, scratch} from "../support/cli.js";

const tmp = scratch("parley-compiled-");

/** A tiny project: main.ts imports b.ts statically and c.ts dynamically, and reports import.meta.url. */
function project(): string {
  const dir = tmp.dir();
  mkdirSync(join(dir, "lib"));
  writeFileSync(join(dir, "main.ts"), 'import {b} from "./lib/b.js";\nexport const value = async (): Promise<string> => `${b}:${(await import("./lib/c.js")).c}`;\n');
  writeFileSync(join(dir, "lib/b.ts"), 'export const b: string = "b1";\n');
  writeFileSync(join(dir, "lib/c.ts"), 'export const c: string = "c1";\nexport const here: string = import.meta.url;\n');
  return dir;
}

async function valueOf(dir: string): Promise<{url: string; value: string}> {
  const url: string = await compiled({root: dir, entry: "main.ts", cacheDir: join(dir, ".cache")});
  const mod = await import(url);
  return {url, value: await mod.value()};
}

test("a build is reused while the sources are unchanged, touched or not", async () => {
  const dir = project();
  const first = await valueOf(dir);
  assert.equal(first.value, "b1:c1");
  assert.equal((await valueOf(dir)).url, first.url);
  const later = new Date(Date.now() + 5000);
  utimesSync(join(dir, "lib/b.ts"), later, later);
  assert.equal((await valueOf(dir)).url, first.url, "a touched file with the same content needs no rebuild");
});

test("changing any source, even one imported dynamically and keeping its size, rebuilds", async () => {
  const dir = project();
  const first = await valueOf(dir);
  writeFileSync(join(dir, "lib/c.ts"), readFileSync(join(dir, "lib/c.ts"), "utf8").replace('"c1"', '"c2"'));
  const second = await valueOf(dir);
  assert.notEqual(second.url, first.url);
  assert.equal(second.value, "b1:c2");
  writeFileSync(join(dir, "lib/b.ts"), 'export const b: string = "b2";\n');
  assert.equal((await valueOf(dir)).value, "b2:c2");
});

test("a deleted build or manifest is rebuilt; a syntax error is reported, not run", async () => {
  const dir = project();
  const first = await valueOf(dir);
  rmSync(new URL(first.url), {force: true});
  assert.equal((await valueOf(dir)).value, "b1:c1");
  rmSync(join(dir, ".cache/manifest.json"));
  assert.equal((await valueOf(dir)).value, "b1:c1");
  writeFileSync(join(dir, "lib/b.ts"), "export const b: string = ;\n");
  await assert.rejects(valueOf(dir), (error: {errors?: unknown[]}) => Array.isArray(error.errors) && error.errors.length > 0);
});

test("import.meta.url in compiled code is the source file's own URL", async () => {
  const dir = project();
  const url: string = await compiled({root: dir, entry: "main.ts", cacheDir: join(dir, ".cache")});
  await import(url);
  const chunk = await import(new URL("./" + readFileSync(new URL(url), "utf8").match(/import\("\.\/(c-[^"]+)"\)/)![1], url).href);
  assert.equal(chunk.here, pathToFileURL(join(dir, "lib/c.ts")).href);
});

test("several entries compile in one build: each module keeps its own import.meta, and the words in a string stay words", async () => {
  const dir = project();
  writeFileSync(join(dir, "one.ts"), 'import {b} from "./lib/b.js";\nimport {where} from "./lib/where.js";\nexport const seen = {b, where, mine: import.meta.dirname, text: "import.meta.url"};\n');
  writeFileSync(join(dir, "lib/two.ts"), '#!/usr/bin/env node\nimport {where} from "./where.js";\nexport const seen = {where, mine: import.meta.filename};\n');
  writeFileSync(join(dir, "lib/where.ts"), "export const where: string = import.meta.url;\n");
  const urls: Record<string, string> = await compiledEntries({root: dir, entries: ["one.ts", "lib/two.ts"], cacheDir: join(dir, ".cache")});
  const one = (await import(urls["one.ts"]!)).seen;
  const two = (await import(urls["lib/two.ts"]!)).seen;
  const whereUrl = pathToFileURL(join(dir, "lib/where.ts")).href;
  assert.deepEqual(one, {b: "b1", where: whereUrl, mine: dir, text: "import.meta.url"});
  assert.deepEqual(two, {where: whereUrl, mine: join(dir, "lib/two.ts")});
  // Unchanged sources: the same build serves both entries again.
  assert.deepEqual(await compiledEntries({root: dir, entries: ["one.ts", "lib/two.ts"], cacheDir: join(dir, ".cache")}), urls);
});

test("bin/parley.js prints what the TypeScript entry prints, and falls back to tsx when it cannot cache", () => {
  const cache = tmp.dir();
  const blocked = join(tmp.dir(), "file");
  writeFileSync(blocked, "a file where the cache's parent directory should be");
  const viaTsx = spawnSync(process.execPath, ["--import", "tsx", join(root, "loaders/cli/main.ts"), "agents"], {encoding: "utf8"});
  for (const cacheDir of [cache, cache, join(blocked, "cache")]) {
    const viaBin = spawnSync(process.execPath, [join(root, "bin/parley.js"), "agents"], {encoding: "utf8", env: {...process.env, PARLEY_CLI_CACHE: cacheDir}});
    assert.equal(viaBin.status, 0, viaBin.stderr);
    assert.equal(viaBin.stdout, viaTsx.stdout);
  }
  const help = spawnSync(process.execPath, [join(root, "bin/parley.js"), "help"], {encoding: "utf8", env: {...process.env, PARLEY_CLI_CACHE: cache}});
  assert.match(help.stdout, /parley datasets fetch/);
});

/**
 * The packages a compiled chunk loads before it runs: its static imports and
 * the packages it requires through createRequire (loaders/io/duckdb.ts loads
 * DuckDB so), followed through the chunks it imports.
 */
function staticPackages(file: string, seen = new Set<string>()): Set<string> {
  const packages = new Set<string>();
  if (seen.has(file)) return packages;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  for (const [, from] of text.matchAll(/^import\s(?:[^;]*?\sfrom\s*)?"([^"]+)"/gm)) {
    if (from.startsWith("./")) for (const p of staticPackages(join(dirname(file), from), seen)) packages.add(p);
    else if (!from.startsWith("node:")) packages.add(from);
  }
  for (const [, name] of text.matchAll(/createRequire\([^()]*\)\(\s*"([^"]+)"\s*\)/g)) packages.add(name);
  return packages;
}

test("help, agents and datasets load no heavy package (DuckDB, LLM SDKs, Parquet, Arrow); regress does load DuckDB", async () => {
  const url: string = await compiled({root, entry: "loaders/cli/main.ts", cacheDir: tmp.dir()});
  const dir = dirname(fileURLToPath(url));
  const chunk = (name: string) => join(dir, readdirSync(dir).find((f) => f.startsWith(`${name}-`) && f.endsWith(".js"))!);
  const heavy = ["@duckdb/node-api", "openai", "@anthropic-ai/sdk", "@google/genai", "parquet-wasm", "apache-arrow", "@observablehq/framework"];
  for (const [what, file] of [["help", fileURLToPath(url)], ["agents", chunk("agents")], ["datasets", chunk("datasets")]]) {
    const loaded = [...staticPackages(file)];
    assert.deepEqual(loaded.filter((p) => heavy.some((h) => p === h || p.startsWith(`${h}/`))), [], `${what} loads ${loaded.join(", ")}`);
  }
  assert.ok(staticPackages(chunk("regress")).has("@duckdb/node-api"), "the check sees a package a command does load");
});
