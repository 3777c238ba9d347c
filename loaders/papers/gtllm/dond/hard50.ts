/**
 * Deal or No Deal's 50 hard points (Game-theoretic LLM workflows (Hua et
 * al. 2024) §5.3), bundled from data/dond/hard50.json so the same module
 * serves Node and the browser's play engine, and checked when first needed.
 */
import hard50 from "../../../../data/dond/hard50.json" with {type: "json"};
import {value} from "../../../../src/lib/dondAllocation.js";
import type {DondPoint} from "./game.js";

export const HARD50_FILE = "data/dond/hard50.json";

/** Checks the points `where` holds (ids in order, three counts and values, each side's total 10); throws naming `where` and the point. */
export function checkPoints(points: DondPoint[], where: string): DondPoint[] {
  points.forEach((p, i) => {
    const at = `${where}: points[${i}]`;
    if (p.id !== i) throw new Error(`${at}: expected id ${i}, got ${p.id}`);
    for (const key of ["counts", "values_a", "values_b"] as const) {
      const list = p[key];
      if (!Array.isArray(list) || list.length !== 3 || !list.every((x) => Number.isInteger(x) && x >= 0)) throw new Error(`${at}.${key}: expected three non-negative integers`);
    }
    for (const key of ["values_a", "values_b"] as const) {
      const total = value(p[key], p.counts);
      if (total !== 10) throw new Error(`${at}.${key}: counts · values must be 10, got ${total}`);
    }
  });
  return points;
}

let checked: DondPoint[] | null = null;
/** The bundled points, checked once. */
export const bundledPoints = (): DondPoint[] => (checked ??= checkPoints((hard50 as {points: DondPoint[]}).points, HARD50_FILE));
