/**
 * All pure-strategy Nash equilibria of a bimatrix game: cells where Alice's
 * row is a best reply to Bob's column and Bob's column a best reply to
 * Alice's row. Exhaustive (m·n cells), exact up to `tolerance` (relative to
 * each player's payoff range) for ties.
 */
import {bestResponses, type Bimatrix} from "./bimatrix.js";

export interface PureEquilibrium {
  i: number;
  j: number;
  row: string;
  col: string;
  a: number;
  b: number;
}

export function pureNash(game: Bimatrix, tolerance = 1e-12): PureEquilibrium[] {
  const {rowReplies, colReplies} = bestResponses(game, tolerance);
  const out: PureEquilibrium[] = [];
  colReplies.forEach((cols, i) => {
    for (const j of cols) {
      if (rowReplies[j].includes(i)) out.push({i, j, row: game.rows[i], col: game.cols[j], a: game.a[i][j], b: game.b[i][j]});
    }
  });
  return out;
}
