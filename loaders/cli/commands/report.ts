/**
 * `parley report <run-dir ...> --out <dir> [--title T] [--with-builtin]`:
 * a static site about just these runs, ready for any static host
 * (loaders/site/reportSite.ts). A run directory that does not exist or
 * holds no tables, or an --out that is a file, is one line naming it (exit
 * code 2), and nothing is written.
 */
import {existsSync, readdirSync, statSync} from "node:fs";
import {join, resolve} from "node:path";
import {parse, printJson, UsageError} from "./args.js";
import {outputDir} from "./inputs.js";
import {usage} from "../../usage/report.usage.js";
import {printable} from "../../io/printable.js";
import {readStudyRuns, StudyRunError} from "../../site/reportRuns.js";
import {buildReport, ReportBuildFailed} from "../../site/reportSite.js";

/** An --out that holds something other than a built site is refused: the report replaces the directory whole. */
function checkOut(out: string): void {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) throw new UsageError(`parley report: --out ${out} is a file, expected a directory`);
  const names = readdirSync(out);
  if (names.length && !names.includes("_observablehq")) throw new UsageError(`parley report: --out ${out} is not empty and holds no built site; choose an empty or new directory (the report replaces it whole)`);
}

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("report", argv, {out: {type: "string"}, title: {type: "string"}, "with-builtin": {type: "boolean"}, verbose: {type: "boolean"}});
  if (!positionals.length || !values.out) throw new UsageError(`usage: parley ${usage}`);
  let runs;
  try {
    runs = await readStudyRuns(positionals);
  } catch (error) {
    if (error instanceof StudyRunError) throw new UsageError(`parley report: ${error.message}`);
    throw error;
  }
  for (const dir of positionals) if (resolve(dir) === resolve(values.out)) throw new UsageError(`parley report: --out ${values.out} is one of the run directories`);
  checkOut(values.out);
  outputDir("report", "--out", values.out);
  const title = values.title?.trim() || (runs.length === 1 ? `Study: ${runs[0].name}` : `Study of ${runs.length} runs`);
  process.stderr.write(`${printable(`parley report: ${runs.map((r) => `${r.name} (${r.games.join(", ") || "no games"})`).join("; ")}`)}\n`);
  let built;
  try {
    built = await buildReport({runs, out: values.out, title, builtin: values["with-builtin"] === true, verbose: values.verbose === true});
  } catch (error) {
    if (!(error instanceof ReportBuildFailed)) throw error;
    process.stderr.write(`parley report: ${error.message}\n`);
    return 1;
  }
  const {pages, datasets} = built;
  printJson({out: resolve(values.out), title, runs: runs.map((r) => ({name: r.name, dir: r.dir, games: r.games})), datasets, pages: ["/", ...pages.map((p) => p.path)], builtin: values["with-builtin"] === true, index: join(resolve(values.out), "index.html")});
  return 0;
}
