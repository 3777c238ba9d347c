// The play engine for the browser (src/play.md): loaders/study/browserEngine.ts — the
// session and form — with every paper's browser-safe part (loaders/papers/<paper>/play.ts,
// for each paper of the list in loaders/papers/index.ts: games in code and scripted agents)
// and the matrix and tree game files the registry read here (data/games/), bundled by
// esbuild into one ES module whose `scriptedEngine` holds them all. platform "browser"
// with nothing external: a Node-only import (fs, DuckDB, an LLM SDK) fails this build
// rather than the page.
// Runs through tsx (bin/loader.js): it imports each paper's play.ts itself and checks it is the manifest's.
import {build} from "esbuild";
import {existsSync} from "node:fs";
import {dirname, join, relative} from "node:path";
import {fileURLToPath} from "node:url";
import {papers} from "../../loaders/papers/index.js";
import {dataGamesOf} from "../../loaders/registry/games.js";
import {projectRoot} from "../../loaders/projectConfig.js";

const entry = fileURLToPath(new URL("../../loaders/study/browserEngine.ts", import.meta.url));
const papersDir = fileURLToPath(new URL("../../loaders/papers/", import.meta.url));

// Each paper's play.ts must be the module its manifest's `play` comes from, so the bundle plays what Node plays.
const parts = [];
for (const [i, paper] of papers.entries()) {
  const module = join(papersDir, paper.id, "play.ts");
  if (!existsSync(module)) throw new Error(`paper "${paper.id}": no ${relative(projectRoot, module)} (its browser-safe games and agents)`);
  if ((await import(module)).play !== paper.play) throw new Error(`paper "${paper.id}": the manifest's play is not the one ${relative(projectRoot, module)} exports`);
  // Each file named relative to the project, so the site carries no path of the machine that built it.
  const files = dataGamesOf(paper.id).map((g) => ({...g, file: relative(projectRoot, g.file)}));
  parts.push({import: `import {play as play${i}} from ${JSON.stringify(module)};`, value: `{play: play${i}, files: ${JSON.stringify(files)}}`});
}
const contents = `export * from ${JSON.stringify(entry)};
import {playEngine} from ${JSON.stringify(entry)};
${parts.map((p) => p.import).join("\n")}
export const scriptedEngine = playEngine([${parts.map((p) => p.value).join(", ")}]);`;
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
