/**
 * `npm run bench`: runs every bench/*.bench.ts (or those whose names contain
 * the arguments) one after another and prints their figures. A bench module
 * exports `default async function (): Promise<void>` that prints its own lines.
 *
 * `--append` also appends what they printed to bench/RESULTS.md as a new
 * section: the date, the commit, the machine and its load (bench/results.ts).
 */
import {appendFileSync, readdirSync, readFileSync, writeFileSync} from "node:fs";
import {dirname, join} from "node:path";
import {fileURLToPath} from "node:url";
import {currentCommit, load, resultsSection, thisMachine, withHeadline} from "./results.js";

const dir = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const append = args.includes("--append");
const filters = args.filter((a) => a !== "--append");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => !filters.length || filters.some((x) => f.includes(x)))
  .sort();

// Everything the benches print on stdout, kept for RESULTS.md while it is printed as usual.
let printed = "";
if (append) {
  const write = process.stdout.write.bind(process.stdout) as (...a: unknown[]) => boolean;
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    printed += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;
}

const started = new Date();
const loadStart = load();
// The code measured is the code at the start (files edited while the benches run do not change it).
const commit = currentCommit(join(dir, ".."));
const headlines: {bench: string; headline: string}[] = [];
for (const file of files) {
  const bench = file.replace(".bench.ts", "");
  console.log(`\n## ${bench}`);
  const mod = await import(join(dir, file));
  const result = await mod.default();
  if (result?.headline) headlines.push({bench, headline: result.headline});
}

if (append) {
  const results = join(dir, "RESULTS.md");
  const benches = files.map((f) => f.replace(".bench.ts", ""));
  const command = `npm run bench -- ${[...filters, "--append"].join(" ")}`;
  const section = resultsSection({date: started, commit, benches: filters.length ? benches : [], command, machine: thisMachine(), loadStart, loadEnd: load(), output: printed});
  appendFileSync(results, section);
  for (const h of headlines) writeFileSync(results, withHeadline(readFileSync(results, "utf8"), {...h, date: started, commit}));
  process.stderr.write(`npm run bench: appended the figures to ${results}${headlines.length ? `, and the headline of ${headlines.map((h) => h.bench).join(", ")} to its top` : ""}\n`);
}
