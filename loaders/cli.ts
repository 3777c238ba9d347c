/**
 * The `parley` command line. Each command lives in loaders/commands/ and
 * exports `usage` and `run(argv) -> exit code`; add new ones to `commands`.
 */
import * as ingest from "./commands/ingest.js";
import * as dondStats from "./commands/dondStats.js";
import * as gamabenchScores from "./commands/gamabenchScores.js";
import * as gtllmStats from "./commands/gtllmStats.js";
import * as datasets from "./commands/datasets.js";
import * as site from "./commands/site.js";
import * as regress from "./commands/regress.js";
import * as equilibria from "./commands/equilibria.js";
import * as runGames from "./commands/run.js";
import * as agents from "./commands/agents.js";
import * as gameList from "./commands/games.js";
import * as gleeMetrics from "./commands/gleeMetrics.js";
import {UsageError} from "./commands/args.js";
import {DuplicateKeyError} from "./io/tableKey.js";
import {printable} from "./printable.js";

interface Command {
  usage: string;
  run(argv: string[]): Promise<number>;
}

export const commands: Record<string, Command> = {
  ingest,
  "dond-stats": dondStats,
  "gamabench-scores": gamabenchScores,
  "gtllm-stats": gtllmStats,
  datasets,
  equilibria,
  run: runGames,
  games: gameList,
  agents,
  metrics: gleeMetrics,
  regress,
  build: {usage: site.buildUsage, run: site.build},
  serve: {usage: site.serveUsage, run: site.serve},
  dev: {usage: site.devUsage, run: site.dev},
};

function help(): string {
  return ["usage: parley <command> [options]", "", ...Object.values(commands).map((c) => `  parley ${c.usage}`)].join("\n");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(help() + "\n");
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`${printable(`parley: unknown command "${name}"`)}\n\n${help()}\n`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    const {line, code} = errorReport(name, error);
    process.stderr.write(line + "\n");
    return code;
  }
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

process.exitCode = await main(process.argv.slice(2));
