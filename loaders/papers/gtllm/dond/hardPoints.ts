/**
 * Deal or No Deal's 50 hard points read from data/dond/hard50.json in Node
 * (Game-theoretic LLM workflows (Hua et al. 2024) §5.3), checked when first
 * needed, for the human outcomes beside the played games; the game itself
 * plays the same points bundled (hard50.ts).
 */
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {projectRoot} from "../../../projectConfig.js";
import {type DondPoint} from "./game.js";
import {checkPoints, HARD50_FILE} from "./hard50.js";

export * from "./game.js";

export {HARD50_FILE};

/** Reads and checks the 50 hard points from `path` (the project's file by default); throws naming the file and point. */
export function loadPoints(path = join(projectRoot, HARD50_FILE)): DondPoint[] {
  return checkPoints((JSON.parse(readFileSync(path, "utf8")) as {points: DondPoint[]}).points, path);
}

let cached: DondPoint[] | null = null;
export const hardPoints = (): DondPoint[] => (cached ??= loadPoints());

/** The game, with the same points bundled (one instance for Node and the play page: the paper's play.ts). */
export {dond} from "../play.js";
