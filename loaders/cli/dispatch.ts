/**
 * The `parley` command line's dispatch: `main(argv)` runs one command and
 * returns its exit code (loaders/cli/main.ts calls it on the process's
 * arguments; tests call it in their own process). Each command lives in loaders/cli/commands/ and
 * exports `run(argv) -> exit code`; its usage line is a small module in
 * loaders/usage/ (listed, in `parley help`'s order, by loaders/usage/commands.ts,
 * which the site's Reference reads too); commands/index.ts adds how to load
 * each command, and a command's module is loaded only when it runs.
 * `parley <command> --help` (or `-h`) and `parley help <command>` print that
 * command's usage here, without loading it.
 */
import {commands, isCommand} from "./commands/index.js";
import {asksForHelp, commandHelpText, helpText, HELP_NAMES} from "../usage/commands.js";
import {UsageError} from "./commands/args.js";
import {DuplicateKeyError} from "../io/duplicateKey.js";
import {printable} from "../io/printable.js";

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || HELP_NAMES.includes(name)) {
    // `parley help <command>`: that command's usage; `parley help` alone: every command's.
    if (name && rest.length) return commandHelp(rest[0]);
    process.stdout.write(helpText() + "\n");
    return name ? 0 : 2;
  }
  if (!isCommand(name)) return unknownCommand(name);
  // Asked for before the command is loaded or its arguments are parsed, so that every command answers it alike (and at once).
  if (asksForHelp(rest)) return commandHelp(name);
  try {
    const run = await commands[name].load();
    return await run(rest);
  } catch (error) {
    const {line, code} = errorReport(name, error);
    process.stderr.write(line + "\n");
    return code;
  }
}

/** Prints the usage of command `name` (exit 0), or says there is no such command (exit 2). */
function commandHelp(name: string): number {
  if (!isCommand(name)) return unknownCommand(name);
  process.stdout.write(commandHelpText(name) + "\n");
  return 0;
}

function unknownCommand(name: string): number {
  process.stderr.write(`${printable(`parley: unknown command "${name}"`)}\n\n${helpText()}\n`);
  return 2;
}

// File system mistakes of the user's that a command's own checks did not catch first (a path removed mid-run, say).
const USER_ERRNO = new Set(["ENOENT", "EACCES", "EPERM", "EISDIR", "ENOTDIR", "EEXIST", "EROFS", "ENAMETOOLONG", "ELOOP", "EADDRINUSE"]);

/**
 * What the CLI prints for an error that ends a command, and its exit code.
 * A UsageError (bad argument, input or config) and a system error (errno
 * code, e.g. ENOSPC) are one line; anything else is a bug and keeps its
 * stack. Messages may quote data (file names, fields, a model's reply), so
 * they are printed through `printable`.
 */
function errorReport(name: string, error: unknown): {line: string; code: number} {
  if (error instanceof UsageError) return {line: printable(error.message), code: 2};
  // A table that would count a game twice: one line naming table and key, the old table kept.
  if (error instanceof DuplicateKeyError) return {line: printable(`parley ${name}: ${error.message}`), code: 1};
  const errno = error as NodeJS.ErrnoException;
  if (error instanceof Error && typeof errno.code === "string" && typeof errno.syscall === "string") {
    return {line: printable(`parley ${name}: ${error.message}`), code: USER_ERRNO.has(errno.code) ? 2 : 1};
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return {line: text.split("\n").map((l, i) => printable(i ? l : `parley ${name}: ${l}`)).join("\n"), code: 1};
}
