/** Argument parsing shared by the CLI commands (node:util parseArgs with errors that name the command). */
import {parseArgs, type ParseArgsConfig} from "node:util";

export class UsageError extends Error {}

export function parse<T extends NonNullable<ParseArgsConfig["options"]>>(command: string, argv: string[], options: T) {
  try {
    return parseArgs({args: argv, options, allowPositionals: true, strict: true});
  } catch (error) {
    throw new UsageError(`parley ${command}: ${(error as Error).message}`);
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + "\n");
}
