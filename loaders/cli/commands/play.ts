/**
 * `parley play [--config <experiment.json>] [--port N] [--host H] [--out DIR]`:
 * the local experiment server (loaders/study/studyServer.ts) for people
 * playing against LLM players, run as GLEE ran its human study (experiment
 * configs: loaders/study/experiment.ts). Loopback only unless --host names
 * another interface, which needs the access token (PARLEY_PLAY_TOKEN, or one
 * generated and printed once). The admin token is PARLEY_ADMIN_TOKEN or
 * generated and printed. A token from the environment must look random
 * (access.ts tokenProblem) and is never printed: the links show
 * `$PARLEY_ADMIN_TOKEN` in its place. Finished games go into <out> as `parley run`
 * writes its tables; participants' state lives in <out>/.parley/play, so a
 * restarted server carries on where everybody stood.
 */
import {existsSync, readFileSync, rmSync} from "node:fs";
import {join, resolve} from "node:path";
import {claimTables, TablesInUse, type TableWriter} from "../../io/tableSet.js";
import {usage} from "../../usage/play.usage.js";
import {intOption, parse, printJson, UsageError} from "./args.js";
import {inputPath, outputDir} from "./inputs.js";
import {projectRoot} from "../../projectConfig.js";
import {ConfigError} from "../../runner/runConfig.js";
import {experimentLlms, parseExperiment, type Experiment} from "../../study/experiment.js";
import {resolveApiKey} from "../../llm/secrets.js";
import {checkSharedLimits, answerDefining} from "../../runner/llmPlayers.js";
import {fingerprint} from "../../runner/checkpoint.js";
import {lockOutput, OutputLocked} from "../../io/outputLock.js";
import {writeFileDurable} from "../../io/atomic.js";
import {isLoopbackHost, newToken, tokenProblem} from "../../study/access.js";
import {studyAssets} from "../../study/assets.js";
import {Study} from "../../study/study.js";
import {startStudyServer} from "../../study/studyServer.js";
import {watchInterrupts, signalExitCode} from "../../runner/interrupt.js";
import {printable} from "../../io/printable.js";
import {JsonInputError, parseJsonStrict} from "../../io/configJson.js";

export const DEFAULT_EXPERIMENT = join(projectRoot, "data", "experiments", "glee-bargaining.json");

function readExperiment(path: string): Experiment {
  let raw: unknown;
  try {
    raw = parseJsonStrict(readFileSync(path, "utf8"));
  } catch (error) {
    if (error instanceof JsonInputError) throw new UsageError(`parley play: ${path}: ${error.message}`);
    throw error;
  }
  try {
    return parseExperiment(raw);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`parley play: ${path}: ${error.message}`);
    throw error;
  }
}

/** What fixes the games of an experiment: a state directory started with one definition refuses another (its saved moves would not replay). */
function gamesFingerprint(experiment: Experiment): string {
  return fingerprint({
    id: experiment.id, max_attempts: experiment.max_attempts,
    conditions: experiment.conditions.map((c) => ({id: c.id, game: c.def.id, params: c.params, n: c.n_players, seat: c.human_seat, seats: c.seats.map((id) => {
      const llm = c.llms.find((l) => l.id === id);
      return llm ? answerDefining(llm) : id;
    })})),
  });
}

/** Refuses a state directory started with other conditions; returns whether this experiment's fingerprint is still to be recorded there. */
function checkState(state: string, experiment: Experiment, file: string): boolean {
  const path = join(state, "experiment-fingerprint");
  if (!existsSync(path)) return true;
  const recorded = readFileSync(path, "utf8").trim();
  if (!recorded) throw new UsageError(`parley play: ${path}: empty (a write cut short by a crash?); if ${file} is unchanged since this --out was started, delete it and start again`);
  if (recorded !== gamesFingerprint(experiment)) {
    throw new UsageError(`parley play: ${file}: the conditions (games, parameters, seats or opponents) differ from those this --out was started with, so saved games could not be replayed; use another --out for a changed experiment`);
  }
  return false;
}

/** The token in environment variable `name` (checked: strong enough), or null when it is unset or empty. */
function tokenFromEnv(name: string): string | null {
  const token = process.env[name];
  if (!token) return null;
  const problem = tokenProblem(name, token);
  if (problem) throw new UsageError(`parley play: ${problem}`);
  return token;
}

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("play", argv, {config: {type: "string"}, port: {type: "string"}, host: {type: "string"}, out: {type: "string"}, replace: {type: "boolean"}});
  if (positionals.length) throw new UsageError(`usage: parley ${usage}`);
  const envAdminToken = tokenFromEnv("PARLEY_ADMIN_TOKEN");
  const envPlayToken = tokenFromEnv("PARLEY_PLAY_TOKEN");
  const file = inputPath("play", values.config ?? DEFAULT_EXPERIMENT, "file");
  const experiment = readExperiment(file);
  const port = intOption("play", "port", values.port, {min: 0, max: 65535}, 4000);
  const host = values.host ?? "127.0.0.1";
  const exposed = !isLoopbackHost(host);
  try {
    const llms = experimentLlms(experiment);
    checkSharedLimits(llms);
    for (const p of llms) resolveApiKey(p.api_key_env, `player ${p.id}`);
  } catch (error) {
    throw new UsageError(`parley play: ${file}: ${(error as Error).message}`);
  }
  const out = outputDir("play", "--out", values.out ?? `play-${experiment.id}`);
  let lock;
  try {
    lock = lockOutput(out, "play");
  } catch (error) {
    if (error instanceof OutputLocked) throw new UsageError(`parley play: ${error.message}`);
    throw error;
  }
  // Tables of another writer (a run, an ingest, another experiment) in --out are replaced only when asked (io/tableSet.ts).
  const writer: TableWriter = {command: "play", key: gamesFingerprint(experiment), label: `parley play ${resolve(file)}`, what: "experiment"};
  const state = join(out, ".parley", "play");
  let replacing, unrecorded;
  try {
    // Changed conditions first: the saved games could not replay, so --replace would not help.
    unrecorded = checkState(state, experiment, file);
    replacing = claimTables(out, writer, {replace: values.replace === true});
  } catch (error) {
    lock.release();
    if (error instanceof TablesInUse) throw new UsageError(`parley play: ${error.message}`);
    throw error;
  }
  const playToken = exposed ? envPlayToken ?? newToken() : null;
  const adminToken = envAdminToken ?? newToken();
  let study: Study;
  let server;
  try {
    if (unrecorded) writeFileDurable(join(state, "experiment-fingerprint"), gamesFingerprint(experiment) + "\n");
    try {
      study = new Study({
        experiment, out, state, writer,
        onWriteError: (error) => process.stderr.write(printable(`parley play: writing the tables into ${out} failed (the games are saved in ${state}; the next write includes them): ${(error as Error).message}`) + "\n"),
        onGameError: (p, message) => process.stderr.write(printable(`parley play: participant ${p.id} (${p.condition}): the game cannot go on: ${message}`) + "\n"),
      });
    } catch (error) {
      // A participant file of another experiment or condition, or one that does not parse: one line naming it.
      throw new UsageError(`parley play: ${(error as Error).message}`);
    }
    // State files that could not be read were set aside: one line each. Games whose records were among them are replayed first.
    for (const line of [...study.problems, ...(await study.rebuildRecords())]) process.stderr.write(printable(`parley play: ${line}`) + "\n");
    // The tables as the saved state has them (a server killed before its last write catches up here).
    await study.tablesChanged();
    // The replaced tables' manifest (a run's or an ingest's) would describe the study's tables: it goes with them.
    if (replacing) rmSync(join(out, "manifest.json"), {force: true});
    server = await startStudyServer({study, out, host, port, playToken, adminToken, assets: await studyAssets()});
  } catch (error) {
    lock.release();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new UsageError(`parley play: port ${port} on ${host} is already in use (choose another with --port N)`);
    if (code === "EACCES") throw new UsageError(`parley play: not allowed to listen on port ${port} (ports below 1024 need privileges; choose another with --port N)`);
    if (code === "EADDRNOTAVAIL") throw new UsageError(`parley play: --host ${host} is not an address of this machine`);
    throw error;
  }
  // Ctrl-C is handled from before the URLs are announced: a supervisor may stop the server as soon as it reads them.
  const stopped = new Promise<void>((resolve) => {
    watchInterrupts((signal) => {
      process.stderr.write(`\nparley play: ${signal}: stopping; every participant's state is saved and the server carries on when started again\n`);
      resolve();
    }, (signal) => {
      lock.release();
      process.exit(signalExitCode(signal));
    });
  });
  // Only generated tokens are printed (the experimenter has no other way to learn them); one from the environment is named instead.
  const participantLink = exposed && envPlayToken ? `${server.url}/p/new?t=$PARLEY_PLAY_TOKEN` : server.participantLink;
  const adminLink = envAdminToken ? `${server.url}/admin?token=$PARLEY_ADMIN_TOKEN` : server.adminLink;
  process.stderr.write(
    `parley play: ${experiment.title} (${experiment.id}, ${experiment.conditions.length} conditions), tables in ${out}\n` +
      (exposed ? `  exposed on ${host}: participants' links carry the access token${envPlayToken ? " (PARLEY_PLAY_TOKEN, not printed)" : ""}\n` : `  loopback only (--host to let other machines in)\n`) +
      `  participants: ${participantLink}\n  admin:        ${adminLink}${envAdminToken ? " (PARLEY_ADMIN_TOKEN, not printed)" : ""}\n  (Ctrl-C to stop)\n`,
  );
  printJson({url: server.url, participant_link: participantLink, admin_link: adminLink, out});
  await stopped;
  await server.close();
  await study.idle();
  lock.release();
  return 0;
}
