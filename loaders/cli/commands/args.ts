/** Argument parsing shared by the CLI commands (node:util parseArgs with errors that name the command). */
import {parseArgs, type ParseArgsConfig} from "node:util";
import {printableJson} from "../../io/printable.js";
import {UsageError} from "../../io/usageError.js";

export {UsageError};

export function parse<T extends NonNullable<ParseArgsConfig["options"]>>(command: string, argv: string[], options: T) {
  try {
    return parseArgs({args: argv, options, allowPositionals: true, strict: true});
  } catch (error) {
    throw new UsageError(`parley ${command}: ${(error as Error).message}`);
  }
}

/**
 * The integer value of a numeric flag, `fallback` when it is absent. Every
 * numeric flag has a maximum, so that one flag cannot ask for unbounded
 * work or memory; the error says the range
 * (`--splits: expected an integer from 0 to 1000, got 1000000000`).
 */
export function intOption(command: string, flag: string, raw: string | undefined, range: {min: number; max: number}, fallback: number): number;
export function intOption(command: string, flag: string, raw: string | undefined, range: {min: number; max: number}): number | undefined;
export function intOption(command: string, flag: string, raw: string | undefined, {min, max}: {min: number; max: number}, fallback?: number): number | undefined {
  if (raw === undefined) return fallback;
  const value = /^\s*[+-]?\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!(Number.isSafeInteger(value) && value >= min && value <= max)) {
    throw new UsageError(`parley ${command}: --${flag}: expected an integer from ${min} to ${max}, got ${raw}`);
  }
  return value;
}

/**
 * The value of a flag that takes one of `choices`, `fallback` when it is
 * absent; anything else is one line naming the choices
 * (`--conventions must be one of paper, glee-code, got "pape"`).
 */
export function choiceOption<T extends string>(command: string, flag: string, raw: string | undefined, choices: readonly T[], fallback: T): T {
  if (raw === undefined) return fallback;
  if (!(choices as readonly string[]).includes(raw)) throw new UsageError(`parley ${command}: --${flag} must be one of ${choices.join(", ")}, got ${JSON.stringify(raw)}`);
  return raw as T;
}

export function printJson(value: unknown): void {
  process.stdout.write(printableJson(JSON.stringify(value, null, 2)) + "\n");
}
