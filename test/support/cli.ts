/**
 * The `parley` command line as a child process, and scratch state that a
 * test file cleans up after itself: the helpers the process-level tests share.
 */
import {AsyncLocalStorage} from "node:async_hooks";
import {createServer} from "node:net";
import {after} from "node:test";
import {spawn, type ChildProcess} from "node:child_process";
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {dirname, join} from "node:path";
import {fileURLToPath} from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

export interface Done {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts `parley <args>` as a user's shell does: bin/parley.js, the command
 * line compiled by esbuild into a cache that is rebuilt when a source changes
 * (a call costs about a fifth of tsx's, which transforms every module anew). A process that
 * hangs (the failure some tests guard against) is killed after `killAfterMs`,
 * so that it fails its assertions instead of stalling the suite.
 */
export function startParley(args: string[], env: NodeJS.ProcessEnv = {}, killAfterMs = 120_000): {child: ChildProcess; done: Promise<Done>} {
  const child = spawn(process.execPath, [join(root, "bin/parley.js"), ...args], {cwd: root, env: {...process.env, ...env}, stdio: ["ignore", "pipe", "pipe"]});
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c) => (stdout += c));
  child.stderr!.on("data", (c) => (stderr += c));
  const guard = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  const done = new Promise<Done>((resolve) =>
    child.on("close", (code, signal) => {
      clearTimeout(guard);
      resolve({code, signal, stdout, stderr});
    }),
  );
  return {child, done};
}

/**
 * Commands run in the test's own process (loaders/cli/dispatch.ts's `main`)
 * rather than as a child: they read, compute and print, and hold no signal
 * handler, lock or shard, so a process of their own would test nothing more
 * and cost a Node start, the compiled command line and DuckDB's binding each time.
 */
const IN_PROCESS = new Set(["agents", "compare", "equilibria", "games", "help", "ratings", "regress", "stats", "metrics", "gamabench-scores", "negotiationarena-stats", "gtllm-stats", "dond-stats", "econarena-stats"]);
/** Environment a command reads when its modules load, not when it runs: a command given one runs as a process. */
const READ_AT_LOAD = ["PARLEY_GAMES_DIR"];

/**
 * Runs `parley <args>` to the end: in this process for the commands of
 * IN_PROCESS, else as a child process (`startParley`).
 */
export const parley = (args: string[], env: NodeJS.ProcessEnv = {}, killAfterMs?: number): Promise<Done> =>
  IN_PROCESS.has(args[0]) && !READ_AT_LOAD.some((k) => k in env) ? parleyHere(args, env) : startParley(args, env, killAfterMs).done;

/** What a command running in this process writes to stdout and stderr goes here (only writes made within its run). */
const capture = new AsyncLocalStorage<{stdout: string; stderr: string}>();
let patched = false;
let queue: Promise<unknown> = Promise.resolve();

function patchWrites(): void {
  if (patched) return;
  patched = true;
  for (const name of ["stdout", "stderr"] as const) {
    const stream = process[name];
    const write = stream.write.bind(stream);
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const into = capture.getStore();
      if (!into) return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
      into[name] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      const callback = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      if (callback) queueMicrotask(callback);
      return true;
    }) as typeof stream.write;
  }
}

/**
 * `parley <args>` through the command line's own `main`, in this process:
 * `env` set for the call and restored after, its output captured, its exit
 * code returned as a child's would be. Calls run one at a time.
 */
export function parleyHere(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Done> {
  const job = queue.then(async (): Promise<Done> => {
    patchWrites();
    const {main} = await import("../../loaders/cli/dispatch.js");
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    const exitCode = process.exitCode;
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    const output = {stdout: "", stderr: ""};
    try {
      const code = await capture.run(output, () => main(args));
      return {code, signal: null, ...output};
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
      process.exitCode = exitCode;
    }
  });
  queue = job.catch(() => {});
  return job;
}

/** Scratch directories and servers of one test file, removed and closed when it ends. */
export function scratch(prefix: string): {dir(): string; keep(server: {close(): Promise<void>}): void} {
  const dirs: string[] = [];
  const servers: {close(): Promise<void>}[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    for (const d of dirs) rmSync(d, {recursive: true, force: true});
  });
  return {
    dir: () => {
      const d = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
    keep: (server) => void servers.push(server),
  };
}

/** A TCP port on 127.0.0.1 that was free a moment ago, for a server a test starts. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const {port} = server.address() as {port: number};
  await new Promise((resolve) => server.close(resolve));
  return port;
}
