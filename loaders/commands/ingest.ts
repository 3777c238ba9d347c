/** `parley ingest <adapter> <path> --out <dir> [--strict]` */
import {adapters} from "../ingest/adapters.js";
import {writeIngest} from "../ingest/write.js";
import {formatProblem} from "../ingest/types.js";
import {parse, UsageError} from "./args.js";
import {inputPath, outputDir} from "./inputs.js";
import {printable} from "../printable.js";

export const usage = "ingest <adapter> <path> --out <dir> [--strict]   read outside logs into Parquet (adapters: " + Object.keys(adapters).join(", ") + ")";

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("ingest", argv, {out: {type: "string"}, strict: {type: "boolean", default: false}});
  const [name, path] = positionals;
  if (!name || !path || !values.out) throw new UsageError(`parley ${usage}`);
  const adapter = adapters[name];
  if (!adapter) throw new UsageError(`parley ingest: unknown adapter "${name}"; expected one of ${Object.keys(adapters).join(", ")}`);
  inputPath("ingest", path, adapter.input, `${name} reads ${adapter.describe}`);
  outputDir("ingest", "--out", values.out);
  const result = await adapter.ingest(path);
  // Problems quote the files' own bytes: printable keeps control characters in them from reaching the terminal.
  for (const problem of result.problems) process.stderr.write(`${printable(formatProblem(problem))}\n`);
  const written = await writeIngest(result, values.out);
  const summary = Object.entries(result.summary).map(([k, v]) => `${k.replaceAll("_", " ")}: ${v}`).join(", ");
  process.stderr.write(`${printable(`${name}: ${summary}; problems: ${result.problems.length}; wrote ${written.join(", ")}`)}\n`);
  return values.strict && result.problems.length ? 1 : 0;
}
