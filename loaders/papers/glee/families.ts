/** The GLEE game families by name. */
import {bargaining} from "./bargaining.js";
import {negotiation} from "./negotiation.js";
import {persuasion} from "./persuasion.js";
import type {Family, GameFamily} from "./types.js";

export const gameFamilies: {[F in Family]: GameFamily<F>} = {bargaining, negotiation, persuasion};

export function gameFamily<F extends Family>(family: F): GameFamily<F> {
  const g = gameFamilies[family];
  if (!g) throw new Error(`unknown game family "${family}"; expected one of ${Object.keys(gameFamilies).join(", ")}`);
  return g as GameFamily<F>;
}
