/**
 * `parley build`, `parley dev` and `parley serve`: the static site.
 *
 * build and dev run Observable Framework (loaders/site/build.ts); serve is a
 * small static server bound to loopback only (loaders/site/serve.ts).
 */
import {join} from "node:path";
import {projectRoot} from "../../projectConfig.js";
import {buildSite, previewSite} from "../../site/build.js";
import {serveStatic} from "../../site/serve.js";
import {intOption, parse, UsageError} from "./args.js";
import {inputPath} from "./inputs.js";
import {serveUsage} from "../../usage/site.usage.js";

export async function build(): Promise<number> {
  return buildSite();
}

export async function dev(argv: string[]): Promise<number> {
  return previewSite(argv, {onRunChange: () => process.stderr.write("parley dev: a configured run changed; its pages update\n")});
}

export async function serve(argv: string[]): Promise<number> {
  const {values, positionals} = parse("serve", argv, {port: {type: "string"}});
  if (positionals.length > 1) throw new UsageError(`usage: parley ${serveUsage}`);
  const port = intOption("serve", "port", values.port, {min: 0, max: 65535}, 3000);
  const dir = inputPath("serve", positionals[0] ?? join(projectRoot, "dist"), "directory", positionals[0] ? "expected a built site" : 'run "parley build" first');
  let server;
  try {
    server = await serveStatic(dir, port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new UsageError(`parley serve: port ${port} on 127.0.0.1 is already in use (stop the other server or choose another with --port N)`);
    if (code === "EACCES") throw new UsageError(`parley serve: not allowed to listen on port ${port} (ports below 1024 need privileges; choose another with --port N)`);
    throw error;
  }
  process.stderr.write(`Parley is served at ${server.url} (Ctrl-C to stop)\n`);
  await new Promise(() => {});
  return 0;
}
