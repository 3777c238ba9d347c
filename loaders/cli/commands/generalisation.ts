/**
 * `parley ratings <dir ...> --generalisation`: the generalisation report of
 * runs whose config declared a protocol (loaders/analyses/generalisationOverRuns.ts),
 * JSON on stdout; a directory that is missing, holds no tables or declares
 * no protocol is one line naming it.
 */
import {generalisationOverRuns, NoProtocol} from "../../analyses/generalisationOverRuns.js";
import {RunTablesMissing} from "../../io/parquet.js";
import {inputPath} from "./inputs.js";
import {UsageError} from "./args.js";

const HINT = 'expected a directory written by "parley run" from a config with a "generalisation" key (the Guide, Analysing runs)';

export async function generalisation(dirs: readonly string[]): Promise<unknown> {
  for (const dir of dirs) inputPath("ratings", dir, "directory", HINT);
  try {
    return await generalisationOverRuns(dirs);
  } catch (error) {
    if (error instanceof NoProtocol) throw new UsageError(`parley ratings: --generalisation: ${error.message}; ${HINT}`);
    if (error instanceof RunTablesMissing) throw new UsageError(`parley ratings: --generalisation: ${error.message}; ${HINT}`);
    throw error;
  }
}
