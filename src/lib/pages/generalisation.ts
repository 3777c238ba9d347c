/**
 * What /ratings' generalisation section reads of a configured run whose
 * manifest records a protocol: one row per focal seat, by the same SQL as
 * `parley ratings --generalisation` (src/lib/generalisation.ts focalSeatsSQL
 * over runSeats.ts's seat query), asked of the run's seats tables in
 * DuckDB-WASM. Pure: no DOM, no Node API.
 */
import {focalSeatsSQL, type FocalSeat, type GeneralisationProtocol} from "../generalisation.js";
import {runSeatsSQL} from "../runSeats.js";
import type {Computation} from "../snapshot.js";

/** A run's seats tables (named `<tables>games`, `<tables>players`), the prefix of its game ids, and its protocol. */
export interface FocalSeatsInput {
  tables: string;
  prefix: string;
  protocol: GeneralisationProtocol;
}

export const focalSeats: Computation<FocalSeatsInput, FocalSeat[]> = {
  name: "generalisation-focal-seats",
  async compute(query, {tables, prefix, protocol}) {
    const rows = await query(focalSeatsSQL(runSeatsSQL({games: `${tables}games`, players: `${tables}players`, prefix}), protocol));
    return rows.map((r) => ({...(r as FocalSeat), seat: Number(r.seat), score: Number(r.score), win: Number(r.win), held_out: r.held_out === true}));
  },
};
