/**
 * `parley ingest`: the usage line, kept apart from the command's code so that
 * `parley help` (./commands.ts) lists it without loading the command and the
 * site's Reference (/reference/cli) shows it.
 */
import {adapters} from "../ingest/adapters.js";

export const usage =
  `ingest <adapter> <path> --out <dir> [--strict]   read outside logs into Parquet (adapters: ${Object.keys(adapters).join(", ")})\n` +
  "  ingest human <record.json...> --out <dir>         games played on the /play page, replayed into the tables of parley run";
