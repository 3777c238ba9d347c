/** `parley ingest <adapter> <path> --out <dir> [--strict]` */
import {resolve} from "node:path";
import {adapters} from "../ingest/adapters.js";
import {buildManifest, writeManifest} from "../run/manifest.js";
import {writeIngest} from "../ingest/write.js";
import {formatProblem} from "../ingest/types.js";
import {lockOutput, OutputLocked} from "../io/outputLock.js";
import {parse, UsageError} from "./args.js";
import {inputPath, outputDir} from "./inputs.js";
import {printable} from "../printable.js";
import {commands} from "./index.js";

export const usage = commands.ingest.usage;

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("ingest", argv, {out: {type: "string"}, strict: {type: "boolean", default: false}});
  const [name, path] = positionals;
  if (!name || !path || !values.out) throw new UsageError(`parley ${usage}`);
  const adapter = adapters[name];
  if (!adapter) throw new UsageError(`parley ingest: unknown adapter "${name}"; expected one of ${Object.keys(adapters).join(", ")}`);
  inputPath("ingest", path, adapter.input, `${name} reads ${adapter.describe}`);
  outputDir("ingest", "--out", values.out);
  let lock;
  try {
    lock = lockOutput(values.out, "ingest"); // one writer per output directory (io/outputLock.ts)
  } catch (error) {
    if (error instanceof OutputLocked) throw new UsageError(`parley ingest: ${error.message}`);
    throw error;
  }
  if (lock.note) process.stderr.write(`parley ingest: ${lock.note}\n`);
  let result, written;
  const started = new Date();
  try {
    result = await adapter.ingest(path);
    for (const problem of result.problems) process.stderr.write(`${printable(formatProblem(problem))}\n`); // problems quote the files' own bytes
    written = await writeIngest(result, values.out);
    const counts = {...Object.fromEntries(result.tables.map((t) => [t.schema.name, t.rows.length])), problems: result.problems.length};
    await writeManifest(values.out, buildManifest({kind: "ingest", config: {adapter: name, input: resolve(path), strict: values.strict}, started, counts}));
  } finally {
    lock.release();
  }
  const summary = Object.entries(result.summary).map(([k, v]) => `${k.replaceAll("_", " ")}: ${v}`).join(", ");
  process.stderr.write(`${printable(`${name}: ${summary}; problems: ${result.problems.length}; wrote ${written.join(", ")}`)}\n`);
  return values.strict && result.problems.length ? 1 : 0;
}
