// The play engine for the browser (src/play.md): loaders/study/browserEngine.ts — the
// games written in code, their scripted agents, the play session and form —
// bundled by esbuild into one ES module, with `scriptedEngine` built from the
// matrix and tree game files the registry reads here (data/games/). platform
// "browser" with nothing external: a Node-only import (fs, DuckDB, an LLM
// SDK) fails this build rather than the page.
import {build} from "esbuild";
import {dirname, relative} from "node:path";
import {fileURLToPath} from "node:url";
import {dataGames} from "../../loaders/registry/games.js";
import {projectRoot} from "../../loaders/projectConfig.js";

const entry = fileURLToPath(new URL("../../loaders/study/browserEngine.ts", import.meta.url));
// Each file named relative to the project, so the site carries no path of the machine that built it.
const files = dataGames.map((g) => ({...g, file: relative(projectRoot, g.file)}));
const contents = `export * from ${JSON.stringify(entry)};
import {playEngine} from ${JSON.stringify(entry)};
export const scriptedEngine = playEngine(${JSON.stringify(files)});`;
const result = await build({
  stdin: {contents, resolveDir: dirname(entry), loader: "js", sourcefile: "play-engine.js"},
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
