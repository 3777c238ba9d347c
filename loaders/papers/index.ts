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
import {glee} from "./glee/index.js";
import {gamabench} from "./gamabench/index.js";
import {gtllm} from "./gtllm/index.js";
import {econarena} from "./econarena/index.js";
import {negotiationarena} from "./negotiationarena/index.js";

/** Typed by the matrix and tree games' file (the one format of games written as data). */
export const papers: readonly PaperManifest<GameFile>[] = [glee, gamabench, gtllm, econarena, negotiationarena];

/** The paper with this id; throws naming the known ids. */
export function paper(id: string): PaperManifest<GameFile> {
  const found = papers.find((p) => p.id === id);
  if (!found) throw new Error(`unknown paper "${id}"; the papers are ${papers.map((p) => p.id).join(", ")}`);
  return found;
}
