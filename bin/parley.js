#!/usr/bin/env node
// The `parley` command: loaders/cli/main.ts compiled by esbuild into a cache that
// is rebuilt whenever a source changes (bin/compiled.js). Where the cache
// cannot be written (a read-only checkout), it falls back to tsx, which is
// correct but slower.
import {dirname, join} from "node:path";
import {fileURLToPath} from "node:url";
import {compiledOrSource} from "./compiled.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Source maps are written beside the chunks but not loaded (that costs ~15 ms a call); for stack traces
// in TypeScript terms run with NODE_OPTIONS=--enable-source-maps.
await import(await compiledOrSource({root, entry: "loaders/cli/main.ts", cacheDir: process.env.PARLEY_CLI_CACHE || undefined}));
