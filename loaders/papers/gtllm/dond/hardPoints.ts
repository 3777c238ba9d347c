/**
 * Deal or No Deal in Node: the game (dondGame.ts) with its 50 hard points
 * read from data/dond/hard50.json (Game-theoretic LLM workflows (Hua et al.
 * 2024) §5.3), checked when first needed.
 */
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {projectRoot} from "../../../projectConfig.js";
import {value} from "../../../../src/lib/dondAllocation.js";
import {dondGame, type DondPoint} from "./game.js";

export * from "./game.js";

export const HARD50_FILE = "data/dond/hard50.json";

/** Reads and checks the 50 hard points; throws naming the file and point. */
export function loadPoints(path = join(projectRoot, HARD50_FILE)): DondPoint[] {
  const points = (JSON.parse(readFileSync(path, "utf8")) as {points: DondPoint[]}).points;
  points.forEach((p, i) => {
    const where = `${path}: points[${i}]`;
    if (p.id !== i) throw new Error(`${where}: expected id ${i}, got ${p.id}`);
    for (const key of ["counts", "values_a", "values_b"] as const) {
      const list = p[key];
      if (!Array.isArray(list) || list.length !== 3 || !list.every((x) => Number.isInteger(x) && x >= 0)) throw new Error(`${where}.${key}: expected three non-negative integers`);
    }
    for (const key of ["values_a", "values_b"] as const) {
      const total = value(p[key], p.counts);
      if (total !== 10) throw new Error(`${where}.${key}: counts · values must be 10, got ${total}`);
    }
  });
  return points;
}

let cached: DondPoint[] | null = null;
export const hardPoints = (): DondPoint[] => (cached ??= loadPoints());

export const dond = dondGame(hardPoints);
