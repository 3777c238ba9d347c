/**
 * The participant page's script and stylesheet, built when the server
 * starts: src/components/playStudy.ts (the study's screens around the game
 * components of /play, with the remote driver that talks to this server)
 * bundled by esbuild into one file, no CDN, nothing fetched.
 */
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {projectRoot} from "../projectConfig.js";

export async function studyAssets(): Promise<{js: string; css: string}> {
  const esbuild = await import("esbuild");
  const components = join(projectRoot, "src", "components");
  const result = await esbuild.build({
    stdin: {contents: `import {mountStudy} from "./playStudy.js";\nmountStudy(document.getElementById("study"));\n`, resolveDir: components, loader: "ts", sourcefile: "study-entry.ts"},
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
  const css = readFileSync(join(components, "playStudy.css"), "utf8") + playRules(readFileSync(join(projectRoot, "src", "style.css"), "utf8"));
  return {js: result.outputFiles[0].text, css};
}

/** The play view's rules of the site's stylesheet (its "The play page" block), so the game looks as on /play. */
export function playRules(siteCss: string): string {
  const start = siteCss.indexOf("/* The play page");
  if (start < 0) throw new Error("src/style.css has no \"/* The play page\" block; the participant page needs the play view's rules");
  const end = siteCss.indexOf("\n\n", start);
  return "\n" + siteCss.slice(start, end < 0 ? undefined : end) + "\n";
}
