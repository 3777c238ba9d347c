/**
 * `parley build` and `parley serve`: the static site.
 *
 * build clears Framework's loader cache first (its cache key is the loader's
 * own file, so a new dataset or config would otherwise be missed), turns
 * telemetry off, and runs `observable build` into dist/.
 * serve is a small static server bound to loopback only.
 */
import {spawn} from "node:child_process";
import {rmSync} from "node:fs";
import {join} from "node:path";
import {projectRoot} from "../config.js";
import {serveStatic} from "../serve.js";
import {parse} from "./args.js";

export const buildUsage = "build                                             generate data and build the static site into dist/";
export const serveUsage = "serve [dir] [--port N]                            serve a built site on http://127.0.0.1:N (default dist/, 3000)";

export function buildSite(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  rmSync(join(projectRoot, "src/.observablehq/cache"), {recursive: true, force: true});
  const bin = join(projectRoot, "node_modules/.bin/observable");
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["build"], {cwd: projectRoot, stdio: "inherit", env: {...env, OBSERVABLE_TELEMETRY_DISABLE: "true"}});
    child.on("error", reject);
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

export async function build(): Promise<number> {
  return buildSite();
}

export async function serve(argv: string[]): Promise<number> {
  const {values, positionals} = parse("serve", argv, {port: {type: "string", default: "3000"}});
  const server = await serveStatic(positionals[0] ?? join(projectRoot, "dist"), Number(values.port));
  process.stderr.write(`Parley is served at ${server.url} (Ctrl-C to stop)\n`);
  await new Promise(() => {});
  return 0;
}
