/**
 * The generated-run cache (loaders/runner/generate.ts) plays a run again
 * when a file under its INPUTS changes, so INPUTS must name every folder of
 * the code that plays it: here every module generate.ts imports, directly
 * or through others (static and dynamic relative imports, JSON included), is
 * followed and must lie under one of INPUTS, and every entry must exist (a
 * renamed folder would otherwise go unnoticed, as loaders/games, loaders/agents
 * and loaders/run once did).
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, readFileSync} from "node:fs";
import {dirname, join, relative, resolve} from "node:path";
import {projectRoot} from "../../loaders/projectConfig.js";
import {INPUTS} from "../../loaders/runner/generate.js";

/** Relative module specifiers of a source file (import … from, export … from, import()). */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm)) found.push(m[1]);
  return found;
}

/** The file a specifier names: TypeScript sources are imported by their .js name. */
function resolveModule(from: string, spec: string): string {
  const path = resolve(dirname(from), spec);
  if (existsSync(path)) return path;
  const ts = path.replace(/\.js$/, ".ts");
  if (existsSync(ts)) return ts;
  throw new Error(`${relative(projectRoot, from)}: cannot resolve ${spec}`);
}

test("generate.ts's INPUTS hold every module the generated run imports, and name only existing paths", () => {
  for (const input of INPUTS) assert.ok(existsSync(join(projectRoot, input)), `INPUTS names ${input}, which does not exist`);
  const start = join(projectRoot, "loaders/runner/generate.ts");
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length) {
    const file = queue.pop()!;
    if (!file.endsWith(".ts")) continue;
    for (const spec of specifiers(readFileSync(file, "utf8"))) {
      const next = resolveModule(file, spec);
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  const outside = [...seen].map((f) => relative(projectRoot, f)).filter((f) => !INPUTS.some((input) => f === input || f.startsWith(`${input}/`)));
  assert.deepEqual(outside.sort(), [], "modules the generated run loads that no INPUTS entry covers");
  assert.ok(seen.size > 50, `followed ${seen.size} modules`);
  const code = INPUTS.filter((input) => input.startsWith("loaders/") || input.startsWith("src/"));
  const unused = code.filter((input) => ![...seen].some((f) => relative(projectRoot, f).startsWith(input)));
  assert.deepEqual(unused, [], "INPUTS entries of code the generated run never loads (they would only cost rebuilds)");
});
