/**
 * What the matrix- and tree-game pages show about the games themselves, at
 * build time: every data game with its matrix or tree and its solution
 * concepts, and Table 19's meta-game analysed as printed and from its sources.
 */
import type {GameFile} from "./files.js";
import {solveMatrix} from "../../../src/lib/matrixGame.js";
import {solveTree} from "../../../src/lib/gameTree.js";
import {analyseMetaGame, PAPER_META_GAMES} from "../../../src/lib/metaGame.js";
import {findEquilibria} from "../../../src/lib/equilibria.js";
import {toBimatrix} from "../../../src/lib/matrixGame.js";

/** `dataGames`: the matrix and tree games the registry read (loaders/registry/games.ts). */
export function gtllmGamesJson(dataGames: readonly GameFile[]) {
  return {
    games: dataGames.map((g) => ({
      id: g.id,
      title: g.title,
      description: g.description,
      citation: `${g.citation.short}${g.citation.section ? ` ${g.citation.section}` : ""}`,
      kind: g.kind,
      ...(g.kind === "matrix"
        ? {matrix: g.matrix, solution: {...solveMatrix(g.matrix), mixed: findEquilibria(toBimatrix(g.matrix)).mixed.map(({x, y, a, b}) => ({x, y, a, b}))}}
        : {tree: g.tree, solution: solveTree(g.tree)}),
    })),
    meta: PAPER_META_GAMES.map((m) => ({...m, printed_analysis: analyseMetaGame(m.printed), source_analysis: analyseMetaGame(m.sources)})),
  };
}
