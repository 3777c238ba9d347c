#!/usr/bin/env node
// Framework's interpreter for the site's TypeScript loaders (observablehq.config.ts,
// `interpreters`): `node bin/loader.js <loader.ts> [--param=value …]` runs the
// loader compiled by esbuild into a cache that is rebuilt whenever a source
// changes (bin/compiled.js, as for the command line), instead of through tsx,
// which starts a worker and transforms every module anew at each of a build's
// thirty-odd loader runs. Where the cache cannot be written it falls back to tsx.
import {createHash} from "node:crypto";
import {readFileSync} from "node:fs";
import {dirname, join, relative, resolve} from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";
import {compiled, defaultCacheDir} from "./compiled.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const [loader, ...params] = process.argv.slice(2);
if (!loader) {
  process.stderr.write("usage: node bin/loader.js <loader.ts> [--param=value …]\n");
  process.exit(2);
}
const source = resolve(loader);
// The loader reads its parameters as when run directly: argv is [node, loader, …params].
process.argv.splice(1, 2, source);

let entry;
try {
  // A loader outside the project (a report's scratch copy) is run once: not worth a cache of its own.
  if (relative(root, source).startsWith("..")) throw new Error("outside the project");
  // A loader that imports TypeScript itself while it runs (src/data/play-engine.js.ts) says so in a line of its own.
  if (/^\/\/ Runs through tsx\b/m.test(readFileSync(source, "utf8"))) throw new Error("asks for tsx");
  // One cache per loader: a cache holds one entry's build.
  const cacheDir = join(dirname(defaultCacheDir(root)), "../loaders", createHash("sha1").update(source).digest("hex").slice(0, 12));
  entry = await compiled({root, entry: relative(root, source), cacheDir});
} catch (error) {
  if (error.errors) {
    const {formatMessages} = await import("esbuild");
    process.stderr.write((await formatMessages(error.errors, {kind: "error", color: false})).join(""));
    process.exit(1);
  }
  const {register} = await import("tsx/esm/api");
  register();
  entry = pathToFileURL(source).href;
}
await import(entry);
