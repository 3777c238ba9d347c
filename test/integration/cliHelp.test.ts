// `parley <command> --help`, `-h` and `parley help <command>`: every registered command prints its own usage
// (as `parley help` lists it) and exits 0, whatever else the arguments hold, without running.
import {test} from "node:test";
import assert from "node:assert/strict";
import {parleyHere, startParley, type Done} from "../support/cli.js";
import {commands} from "../../loaders/cli/commands/index.js";
import {commandUsage, helpText, type CommandName} from "../../loaders/usage/commands.js";

const names = Object.keys(commands) as CommandName[];
const usageOf = (name: CommandName) => `usage: parley ${commandUsage[name].usage}\n`;

function printsUsage(name: CommandName, args: string[], r: Done): void {
  const shown = `parley ${args.join(" ")}: exit ${r.code}\n${r.stderr}${r.stdout.slice(0, 400)}`;
  assert.equal(r.code, 0, shown);
  assert.equal(r.stderr, "", shown);
  assert.equal(r.stdout, usageOf(name), shown);
}

test("--help as a user types it (bin/parley.js, child processes): ratings, games, run, an alias of stats", async () => {
  // The first call may compile the command line; the others run it, two at a time (the machine's cores).
  printsUsage("ratings", ["ratings", "--help"], await startParley(["ratings", "--help"]).done);
  // Behind arguments that would otherwise be an error (a missing directory or config), --help still wins; games used to print its list.
  const runs: [CommandName, string[]][] = [["games", ["games", "--help"]], ["run", ["run", "/nonexistent/parley-help.json", "--help"]], ["gtllm-stats", ["gtllm-stats", "/nonexistent/parley-help", "-h"]]];
  const done = await Promise.all(runs.map(([, args]) => startParley(args).done));
  runs.forEach(([name, args], j) => printsUsage(name, args, done[j]));
});

test("every registered command: --help, -h and parley help <command> print its usage and exit 0, even after other arguments; an unknown one is exit 2; after -- it is an argument", async () => {
  assert.deepEqual(names, Object.keys(commandUsage), "the command line registers exactly the commands parley help lists");
  assert.ok(names.length >= 20, `${names.length} commands`);
  // Through the command line's own dispatch (loaders/cli/dispatch.ts main), in this process: a Node start per call would add nothing.
  for (const name of names) {
    const forms = [[name, "--help"], [name, "-h"], ["help", name], ["--help", name], [name, "/nonexistent/parley-help", "--unknown-flag", "--help"]];
    for (const args of forms) printsUsage(name, args, await parleyHere(args));
  }
  const unknown = await parleyHere(["help", "no-such-command"]);
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stderr, `parley: unknown command "no-such-command"\n\n${helpText()}\n`);
  // `--` ends the options: what follows is the command's own argument (here a missing directory), not a request for help.
  const literal = await parleyHere(["ratings", "--", "--help"]);
  assert.equal(literal.code, 2, literal.stderr);
  assert.doesNotMatch(literal.stdout, /^usage:/);
  const all = await parleyHere(["help"]);
  assert.equal(all.stdout, `${helpText()}\n`);
});
