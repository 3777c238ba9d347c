/**
 * The `parley` command line as a child process, and scratch state that a
 * test file cleans up after itself: the helpers the process-level tests share.
 */
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

/** Runs `parley <args>` to the end. */
export const parley = (args: string[], env: NodeJS.ProcessEnv = {}, killAfterMs?: number): Promise<Done> => startParley(args, env, killAfterMs).done;

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
