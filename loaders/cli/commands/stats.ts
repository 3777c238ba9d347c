/**
 * `parley stats <paper> <dir...> [--measure M] [--format json|jsonl|csv]
 * [--<parameter> <value> ...] | --measures`: any measure of a paper's
 * analysis (src/analyses/<paper>.ts) over run or ingest directories (several
 * are read as one run), answered by native DuckDB with the SQL the pages run.
 * Without --measure, the paper's default measure, printed as the per-paper
 * command printed it. The per-paper commands stay as aliases of measures
 * (`aliases` below), with their flags and output.
 */
import {existsSync} from "node:fs";
import {join} from "node:path";
import type {ParseArgsConfig} from "node:util";
import {ANALYSES, analysisOf} from "../../registry/analyses.js";
import {measureNamed, NothingToMeasure, OUTPUT_FORMATS, type Analysis, type Measure, type OutputFormat, type Params} from "../../../src/analyses/analysis.js";
import {GLEE_CONVENTIONS} from "../../../src/lib/gleeMetrics.js";
import {DOND_SELECTIONS} from "../../../src/lib/dond.js";
import {answerOverRuns} from "../../analyses/overRuns.js";
import {RunTablesMissing} from "../../io/parquet.js";
import {printableJson} from "../../io/printable.js";
import {csvRows} from "../../io/csvRows.js";
import {choiceOption, intOption, parse, printJson, UsageError} from "./args.js";
import {inputPath} from "./inputs.js";
import {usage} from "../../usage/stats.usage.js";
import {usage as dondStatsUsage} from "../../usage/dondStats.usage.js";
import {usage as gamabenchScoresUsage} from "../../usage/gamabenchScores.usage.js";
import {usage as econarenaStatsUsage} from "../../usage/econarenaStats.usage.js";
import {usage as negotiationarenaStatsUsage} from "../../usage/negotiationarenaStats.usage.js";
import {usage as gtllmStatsUsage} from "../../usage/gtllmStats.usage.js";
import {usage as gleeMetricsUsage} from "../../usage/gleeMetrics.usage.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * Answers a measure over `dirs` for `command`: each directory must exist; a
 * directory without the measure's tables, or tables DuckDB cannot read, is
 * one line naming it (exit code 2), with the measure's hint on how to make it;
 * `missing` gives the path named when a directory does not exist.
 */
async function answer(command: string, analysis: Analysis, measure: Measure, dirs: string[], params: Params, missing: (dir: string) => string = (dir) => dir): Promise<unknown> {
  const hint = (measure.inputHint ?? analysis.inputHint)(dirs[0]);
  for (const dir of dirs) inputPath(command, existsSync(dir) ? dir : missing(dir), "directory", hint);
  try {
    return await answerOverRuns(analysis, measure.name, dirs, params);
  } catch (error) {
    if (error instanceof RunTablesMissing) throw new UsageError(`parley ${command}: ${error.message}${hint ? `; ${hint}` : ""}`);
    if (error instanceof NothingToMeasure) throw new UsageError(`parley ${command}: ${error.message} in ${dirs.join(", ")}`);
    const reason = (error as Error).message.split("\n")[0];
    throw new UsageError(`parley ${command}: cannot read the tables of ${dirs.join(", ")}: ${reason}`);
  }
}

/** Writes an answer in `format`: indented JSON, or rows as JSON Lines (nothing for none) or CSV. */
function print(command: string, measure: Measure, result: unknown, format: OutputFormat): void {
  if (format === "json") return printJson(result);
  if (!Array.isArray(result)) throw new UsageError(`parley ${command}: measure ${measure.name} is one JSON value, not rows; use --format json`);
  if (format === "csv") {
    process.stdout.write(csvRows(result));
    return;
  }
  const chunk: string[] = [];
  for (const row of result) {
    chunk.push(printableJson(JSON.stringify(row)));
    if (chunk.length >= 10000) process.stdout.write(chunk.splice(0).join("\n") + "\n");
  }
  if (chunk.length) process.stdout.write(chunk.join("\n") + "\n");
}

/** The value of --measure in `argv`, read before the measure's own flags are known. */
function measureFlag(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--measure") return argv[i + 1];
    if (argv[i].startsWith("--measure=")) return argv[i].slice("--measure=".length);
  }
  return undefined;
}

/** The measure's parameters from the parsed flags, checked against their kinds, choices and ranges. */
function measureParams(command: string, measure: Measure, values: Record<string, unknown>): Params {
  const params: Params = {};
  for (const p of measure.parameters ?? []) {
    const raw = values[p.name];
    if (raw === undefined) continue;
    if (p.kind === "boolean") params[p.name] = raw === true;
    else if (p.kind === "integer") params[p.name] = intOption(command, p.name, String(raw), p.range ?? {min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER})!;
    else params[p.name] = p.choices ? choiceOption(command, p.name, String(raw), p.choices, String(p.default)) : String(raw);
  }
  return params;
}

/** One line per measure of `analysis`: name, parameters, description. */
function measureList(analysis: Analysis): string {
  return analysis.measures
    .map((m) => {
      const flags = (m.parameters ?? []).map((p) => (p.kind === "boolean" ? `[--${p.name}]` : `[--${p.name} ${p.choices ? p.choices.join("|") : p.kind === "integer" ? "N" : "X"}]`)).join(" ");
      return `${m.name}${m.name === analysis.defaultMeasure ? " (default)" : ""}${flags ? ` ${flags}` : ""}\n    ${m.description}`;
    })
    .join("\n");
}

export async function run(argv: string[]): Promise<number> {
  const [paper, ...rest] = argv;
  if (!paper || paper.startsWith("-")) throw new UsageError(`usage: parley ${usage}\n  papers: ${ANALYSES.map((a) => a.paper).join(", ")}`);
  let analysis: Analysis;
  let measure: Measure;
  try {
    analysis = analysisOf(paper);
    measure = measureNamed(analysis, measureFlag(rest) ?? analysis.defaultMeasure);
  } catch (error) {
    throw new UsageError(`parley stats: ${(error as Error).message}`);
  }
  const options: Options = {measure: {type: "string"}, format: {type: "string"}, measures: {type: "boolean", default: false}};
  for (const p of measure.parameters ?? []) options[p.name] = {type: p.kind === "boolean" ? "boolean" : "string"};
  const {values, positionals} = parse("stats", rest, options);
  if (values.measures) {
    process.stdout.write(`${analysis.title}: parley stats ${analysis.paper} <dir...> --measure M\n${measureList(analysis)}\n`);
    return 0;
  }
  if (!positionals.length) throw new UsageError(`usage: parley ${usage}`);
  const format = choiceOption("stats", "format", values.format as string | undefined, OUTPUT_FORMATS, measure.format);
  const result = await answer("stats", analysis, measure, positionals, measureParams("stats", measure, values));
  print("stats", measure, result, format);
  return 0;
}

/**
 * A per-paper command kept as an alias: its flags, which measure they ask
 * for, and how its usage error begins ("parley " or "usage: parley ").
 */
interface Alias {
  paper: string;
  options: Options;
  measure(values: Record<string, unknown>): {name: string; params: Params};
  usagePrefix: string;
  /** Its usage line (./<command>.usage.ts). */
  usage: string;
  /** The path its error named when the directory does not exist (dond-stats named the games file it looked for). */
  missing?: (dir: string) => string;
}

export const aliases: Record<string, Alias> = {
  "dond-stats": {
    usage: dondStatsUsage,
    paper: "gtllm",
    options: {cumulative: {type: "boolean", default: false}, selection: {type: "string"}},
    measure: (v) => ({name: "dond-difficulty", params: {cumulative: v.cumulative === true, selection: choiceOption("dond-stats", "selection", v.selection as string | undefined, DOND_SELECTIONS, "all")}}),
    usagePrefix: "parley ",
    missing: (dir) => join(dir, "games.parquet"),
  },
  "gamabench-scores": {usage: gamabenchScoresUsage, paper: "gamabench", options: {runs: {type: "boolean", default: false}}, measure: (v) => ({name: v.runs ? "game-scores" : "scores", params: {}}), usagePrefix: "parley "},
  "econarena-stats": {usage: econarenaStatsUsage, paper: "econarena", options: {}, measure: () => ({name: "stats", params: {}}), usagePrefix: "parley "},
  "negotiationarena-stats": {usage: negotiationarenaStatsUsage, paper: "negotiationarena", options: {}, measure: () => ({name: "pairs", params: {}}), usagePrefix: "usage: parley "},
  "gtllm-stats": {usage: gtllmStatsUsage, paper: "gtllm", options: {}, measure: () => ({name: "pairings", params: {}}), usagePrefix: "parley "},
  metrics: {
    usage: gleeMetricsUsage,
    paper: "glee",
    options: {conventions: {type: "string"}},
    measure: (v) => ({name: "metrics", params: {conventions: choiceOption("metrics", "conventions", v.conventions as string | undefined, GLEE_CONVENTIONS, "paper")}}),
    usagePrefix: "usage: parley ",
  },
};

/** The command `name` of `aliases`: one directory, its own flags, the measure's default format. */
export function alias(name: string): (argv: string[]) => Promise<number> {
  const {paper, options, measure: chosen, usagePrefix, missing, usage: usageLine} = aliases[name];
  return async (argv) => {
    const {values, positionals} = parse(name, argv, options);
    if (positionals.length !== 1) throw new UsageError(`${usagePrefix}${usageLine}`);
    const analysis = analysisOf(paper);
    const {name: measureName, params} = chosen(values);
    const measure = measureNamed(analysis, measureName);
    print(name, measure, await answer(name, analysis, measure, positionals, params, missing), measure.format);
    return 0;
  };
}
