/** `parley ingest <adapter> <path> --out <dir> [--strict] [--replace]` */
import {resolve} from "node:path";
import {adapters} from "../../ingest/adapters.js";
import {buildManifest, writeManifest} from "../../runner/manifest.js";
import {writeIngest} from "../../ingest/write.js";
import {formatProblem} from "../../ingest/types.js";
import {lockOutput, OutputLocked} from "../../io/outputLock.js";
import {parse, UsageError} from "./args.js";
import {inputPath, outputDir} from "./inputs.js";
import {printable} from "../../io/printable.js";
import {claimTables, TablesInUse, type TableWriter} from "../../io/tableSet.js";
import {fingerprint} from "../../runner/checkpoint.js";
import {usage} from "../../usage/ingest.usage.js";

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("ingest", argv, {out: {type: "string"}, strict: {type: "boolean", default: false}, replace: {type: "boolean", default: false}});
  if (positionals[0] === "human") return ingestHumanRecords(positionals.slice(1), values.out, values.strict, values.replace);
  const [name, path] = positionals;
  if (!name || !path || !values.out) throw new UsageError(`parley ${usage}`);
  const adapter = adapters[name];
  if (!adapter) throw new UsageError(`parley ingest: unknown adapter "${name}"; expected one of ${Object.keys(adapters).join(", ")}`);
  inputPath("ingest", path, adapter.input, `${name} reads ${adapter.describe}`);
  outputDir("ingest", "--out", values.out);
  const writer: TableWriter = {command: `ingest ${name}`, key: fingerprint([name, resolve(path)]), label: `parley ingest ${name} ${resolve(path)}`, what: "input"};
  const lock = lockIngest(values.out, writer, values.replace);
  let result, written;
  const started = new Date();
  try {
    result = await adapter.ingest(path);
    for (const problem of result.problems) process.stderr.write(`${printable(formatProblem(problem))}\n`); // problems quote the files' own bytes
    written = await writeIngest(result, values.out, writer);
    const counts = {...Object.fromEntries(result.tables.map((t) => [t.schema.name, t.rows.length])), problems: result.problems.length};
    await writeManifest(values.out, buildManifest({kind: "ingest", config: {adapter: name, input: resolve(path), strict: values.strict}, started, counts}));
  } finally {
    lock.release();
  }
  const summary = Object.entries(result.summary).map(([k, v]) => `${k.replaceAll("_", " ")}: ${v}`).join(", ");
  process.stderr.write(`${printable(`${name}: ${summary}; problems: ${result.problems.length}; wrote ${written.join(", ")}`)}\n`);
  return values.strict && result.problems.length ? 1 : 0;
}

/**
 * One writer per output directory (io/outputLock.ts), and one whose tables
 * are there already, unless `replace` (io/tableSet.ts claimTables).
 */
function lockIngest(out: string, writer: TableWriter, replace: boolean) {
  let lock;
  try {
    lock = lockOutput(out, "ingest");
  } catch (error) {
    if (error instanceof OutputLocked) throw new UsageError(`parley ingest: ${error.message}`);
    throw error;
  }
  if (lock.note) process.stderr.write(`parley ingest: ${lock.note}\n`);
  try {
    claimTables(out, writer, {replace});
  } catch (error) {
    lock.release();
    if (error instanceof TablesInUse) throw new UsageError(`parley ingest: ${error.message}`);
    throw error;
  }
  return lock;
}

/**
 * `parley ingest human <file...> --out <dir>`: play records replayed
 * (loaders/study/ingestRecords.ts) and written as `parley run` writes its tables, one
 * partition per game, switched in at once (run/write.ts).
 */
async function ingestHumanRecords(files: string[], out: string | undefined, strict: boolean, replace: boolean): Promise<number> {
  if (!files.length || !out) throw new UsageError("parley ingest human <record.json...> --out <dir> [--strict] [--replace]");
  for (const file of files) inputPath("ingest", file, "file", "human reads play records downloaded from the /play page");
  outputDir("ingest", "--out", out);
  const [{ingestHuman}, {nodeEngine}, {RunTables}] = await Promise.all([import("../../study/ingestRecords.js"), import("../../study/engine.js"), import("../../runner/write.js")]);
  // The same files again are the same writer; another batch is another (ingest every batch in one command).
  const inputs = files.map((f) => resolve(f));
  const writer: TableWriter = {command: "ingest human", key: fingerprint([...inputs].sort()), label: `parley ingest human ${inputs[0]}${inputs.length > 1 ? ` and ${inputs.length - 1} more` : ""}`, what: "set of records"};
  const lock = lockIngest(out, writer, replace);
  const started = new Date();
  let counts;
  let result;
  try {
    result = await ingestHuman(files, nodeEngine);
    for (const problem of result.problems) process.stderr.write(`${printable(formatProblem(problem))}\n`);
    if (!result.records.length) throw new UsageError(`parley ingest human: none of the ${files.length} files is a playable record; nothing written`);
    const tables = new RunTables(out, nodeEngine.games, undefined, null, writer);
    for (const record of result.records) tables.add(record);
    counts = await tables.finish();
    await writeManifest(out, buildManifest({kind: "ingest", config: {adapter: "human", inputs: files.map((f) => resolve(f)), strict}, started, counts: {games: counts.games, players: counts.players, turns: counts.turns, problems: result.problems.length}}));
  } finally {
    lock.release();
  }
  process.stderr.write(`${printable(`human: records read: ${files.length}, games written: ${counts.games}, turns: ${counts.turns}; problems: ${result.problems.length}; wrote ${Object.values(counts.partitions).join(", ")}`)}\n`);
  return strict && result.problems.length ? 1 : 0;
}
