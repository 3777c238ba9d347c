// The play engine for the browser (src/play.md): loaders/play/scripted.ts — the
// games written in code, their scripted agents, the play session and form —
// bundled by esbuild into one ES module. platform "browser" with nothing
// external: a Node-only import (fs, DuckDB, an LLM SDK) fails this build
// rather than the page.
import {build} from "esbuild";
import {fileURLToPath} from "node:url";

const entry = fileURLToPath(new URL("../../loaders/play/scripted.ts", import.meta.url));
const result = await build({
  entryPoints: [entry],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  write: false,
  logLevel: "error",
  legalComments: "none",
});
process.stdout.write(result.outputFiles[0].text);
