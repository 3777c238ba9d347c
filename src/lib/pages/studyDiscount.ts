/**
 * The question the worked example src/study-discount.md asks its games
 * table (the Guide's "Writing a page"), the computation behind the measure
 * "self-gain-by-discount" of src/analyses/glee.ts, where the page asks it
 * and where its first view is declared: the build answers it for the
 * default formulas in native DuckDB, so the page draws before DuckDB-WASM
 * is loaded; the other formulas are asked of DuckDB-WASM.
 */
import type {GleeConventions} from "../gleeMetrics.js";
import {selfGainByDiscountSQL, withIntervals, type SelfGainByDiscount} from "../selfGain.js";
import type {Computation} from "../snapshot.js";

/** Each agent's mean self-gain by own δ with its 95 % t interval, in the metric formulas `conventions`. */
export const selfGainsByDelta: Computation<GleeConventions, (SelfGainByDiscount & {lo: number | null; hi: number | null})[]> = {
  name: "study-discount/self-gains",
  async compute(query, conventions) {
    return withIntervals((await query(selfGainByDiscountSQL("games", conventions))) as SelfGainByDiscount[]);
  },
};
