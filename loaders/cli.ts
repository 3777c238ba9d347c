/**
 * The `parley` command line. Each command lives in loaders/commands/ and
 * exports `usage` and `run(argv) -> exit code`; add new ones to `commands`.
 */
import * as ingest from "./commands/ingest.js";
import * as dondStats from "./commands/dondStats.js";
import * as gamabenchScores from "./commands/gamabenchScores.js";
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

interface Command {
  usage: string;
  run(argv: string[]): Promise<number>;
}

export const commands: Record<string, Command> = {
  ingest,
  "dond-stats": dondStats,
  "gamabench-scores": gamabenchScores,
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
    process.stderr.write(`parley: unknown command "${name}"\n\n${help()}\n`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    // A table that would count a game twice: one line naming table and key, the old table kept.
    if (error instanceof DuplicateKeyError) {
      process.stderr.write(`parley ${name}: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`parley ${name}: ${(error as Error).stack ?? error}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
