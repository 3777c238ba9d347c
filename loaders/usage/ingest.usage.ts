/**
 * `parley ingest`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
import {adapters} from "../ingest/adapters.js";

export const usage =
  `ingest <adapter> <path> --out <dir> [--strict] [--replace]   read outside logs into Parquet (adapters: ${Object.keys(adapters).join(", ")})\n` +
  "  ingest human <record.json...> --out <dir> [--strict] [--replace]   games played on the /play page, replayed into the tables of parley run;\n" +
  "        a <dir> holding tables of a run, a study or another ingest (another batch of records too) is refused unless --replace";
