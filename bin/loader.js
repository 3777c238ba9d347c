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
import {fileURLToPath} from "node:url";
import {compiledOrSource, defaultCacheDir} from "./compiled.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const [loader] = process.argv.slice(2);
if (!loader) {
  process.stderr.write("usage: node bin/loader.js <loader.ts> [--param=value …]\n");
  process.exit(2);
}
const source = resolve(loader);
// The loader reads its parameters as when run directly: argv is [node, loader, …params].
process.argv.splice(1, 2, source);

const entry = relative(root, source);
// Through tsx: a loader outside the project (a report's scratch copy, run once: not worth a cache of its own), or one
// that imports TypeScript itself while it runs (src/data/play-engine.js.ts) and says so in a line of its own.
const useTsx = entry.startsWith("..") || /^\/\/ Runs through tsx\b/m.test(readFileSync(source, "utf8"));
// One cache per loader: a cache holds one entry's build.
const cacheDir = join(dirname(defaultCacheDir(root)), "../loaders", createHash("sha1").update(source).digest("hex").slice(0, 12));
await import(await compiledOrSource({root, entry, cacheDir, useTsx}));
