/**
 * The papers Parley is built from: THE one list. Every registry is read off
 * it (games, agents, narrators, the play page's engine, the dataset
 * catalog, ingest adapters, the report's datasets, the site's navigation
 * and the References page), so adding a paper is one folder with an
 * index.ts manifest (and a browser-safe play.ts) plus one line here.
 *
 * The order is the order of `parley games` and `parley agents`: each
 * paper's games in code in this order, then the games written as data.
 */
import type {PaperManifest} from "../contract/paper.js";
import type {GameFile} from "./gtllm/files.js";
/**
 * One line per paper: its folder's manifest (loaders/papers/<paper>/index.ts,
 * whose default export is the paper's PaperManifest). Imported here, all at
 * once, when the list is first read.
 */
const manifests = await Promise.all([
  import("./glee/index.js"),
  import("./gamabench/index.js"),
  import("./gtllm/index.js"),
  import("./econarena/index.js"),
  import("./negotiationarena/index.js"),
]);

/** Typed by the matrix and tree games' file (the one format of games written as data). */
export const papers: readonly PaperManifest<GameFile>[] = manifests.map((m) => m.default as PaperManifest<GameFile>);

/** The paper with this id; throws naming the known ids. */
export function paper(id: string): PaperManifest<GameFile> {
  const found = papers.find((p) => p.id === id);
  if (!found) throw new Error(`unknown paper "${id}"; the papers are ${papers.map((p) => p.id).join(", ")}`);
  return found;
}
