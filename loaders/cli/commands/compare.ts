/**
 * `parley compare <dirA> <dirB>` (run B against run A on matched games) or
 * `parley compare <dir ...> --agents A B` (agent B against agent A in the
 * same seat of otherwise identical games): per game family and metric the
 * mean paired difference with its 95 % t interval, the paired t test, the
 * sign-flip permutation test and Holm's correction (src/lib/compare.ts);
 * two runs also on each seat's rule-break rate where a seat broke a rule.
 * Whether the paired games shared chance is read from the runs' manifests
 * (src/lib/sharedChance.ts) and decides the design: games matched by
 * repetition when they did, each configuration's repetitions averaged when
 * they did not (src/lib/compare.ts). JSON on stdout, with `chance` saying
 * which and why.
 */
import {compareAgents, compareRuns} from "../../../src/lib/compare.js";
import type {SeatRow} from "../../../src/lib/ratingsData.js";
import {intOption, parse, printJson, UsageError} from "./args.js";
import {usage} from "../../usage/compare.usage.js";
import {seatRows, seatRowsWithBreaks} from "./seats.js";
import {runWarnings} from "../../../src/lib/manifestDiff.js";
import {sharedChance} from "../../../src/lib/sharedChance.js";
import {readManifest} from "../../runner/manifest.js";
import {printable} from "../../io/printable.js";

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("compare", argv, {agents: {type: "string", multiple: true}, rename: {type: "string", multiple: true}, permutations: {type: "string"}, seed: {type: "string"}});
  const permutations = intOption("compare", "permutations", values.permutations, {min: 100, max: 1_000_000}, 10_000);
  const seed = intOption("compare", "seed", values.seed, {min: 0, max: 2 ** 31 - 1}, 1);
  const agents = values.agents ?? [];
  if (agents.length) {
    if (agents.length !== 2 || agents[0] === agents[1]) throw new UsageError(`parley compare: --agents: expected two different agents (--agents A --agents B), got ${agents.length === 2 ? "the same one twice" : agents.length}`);
    if (!positionals.length) throw new UsageError(`parley ${usage}`);
    const rows: SeatRow[] = [];
    for (const [i, dir] of positionals.entries()) rows.push(...(await seatRows("compare", dir, positionals.length > 1 ? `run${i}` : "")));
    for (const agent of agents) if (!rows.some((r) => r.agent === agent)) throw new UsageError(`parley compare: --agents: no game of ${positionals.join(", ")} has agent "${agent}"`);
    const chance = sharedChance(positionals.map((dir) => ({label: dir, manifest: readManifest(dir)})));
    const result = compareAgents(rows, agents[0], agents[1], {permutations, seed, sharedChance: chance.shared});
    printJson({mode: "agents", a: agents[0], b: agents[1], difference: `${agents[1]} − ${agents[0]}`, chance, ...result});
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError(`parley ${usage}`);
  const [a, b] = positionals;
  const rename = new Map<string, string>();
  for (const pair of values.rename ?? []) {
    const m = /^([^=]+)=([^=]+)$/.exec(pair);
    if (!m) throw new UsageError(`parley compare: --rename: expected AGENT_IN_A=AGENT_IN_B, got "${pair}"`);
    rename.set(m[1], m[2]);
  }
  const manifests = {a: readManifest(a), b: readManifest(b)};
  // Labelled A and B, as the warnings are, so that /compare words it the same.
  const chance = sharedChance([{label: "A", manifest: manifests.a}, {label: "B", manifest: manifests.b}]);
  let result;
  try {
    result = compareRuns(await seatRowsWithBreaks("compare", a), await seatRowsWithBreaks("compare", b), {permutations, seed, rename, sharedChance: chance.shared});
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`parley compare: ${(error as Error).message}`);
  }
  if (!result.rows.length) throw new UsageError(`parley compare: no game of ${a} matches a game of ${b} (games match by family, configuration, repetition and agents seat by seat)`);
  for (const line of runWarnings({label: a, manifest: manifests.a}, {label: b, manifest: manifests.b}, rename)) process.stderr.write(`${printable(line)}\n`);
  printJson({mode: "runs", a, b, difference: "B − A", chance, ...result});
  return 0;
}
