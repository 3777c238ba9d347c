/**
 * The parity check of build-time first views (src/lib/snapshot.ts): `native`,
 * the snapshot the build wrote for `view`, must equal what the page computes
 * itself in DuckDB-WASM (loading Parquet as pages do) from the tables in
 * `dir` (<table>.parquet): the same questions, every query's rows and every
 * computation's result; and a page reading it must never need DuckDB.
 */
import assert from "node:assert/strict";
import {join} from "node:path";
import {recordSnapshot, snapshotAsker, type FirstView, type Snapshot} from "../../src/lib/snapshot.js";
import {openWasm, type WasmDatabase} from "./wasmDuckDB.js";

/** Rounds doubles to 12 significant digits: the engines' libm (power, log) differ in the last bits. */
export function rounded(value: unknown): unknown {
  if (typeof value === "number" && !Number.isInteger(value)) return Number(value.toPrecision(12));
  if (Array.isArray(value)) return value.map(rounded);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v)]));
  return value;
}

export async function assertFirstViewParity(view: FirstView, native: Snapshot, dir: string, shared?: WasmDatabase): Promise<void> {
  // A database of the view's own, or `shared` (holding the view's tables) for a view that creates nothing in it.
  const wasm = shared && !view.prepare ? shared : await openWasm(Object.fromEntries(view.tables.map((t) => [t, join(dir, `${t}.parquet`)])));
  try {
    await view.prepare?.((sql, params) => wasm.query(sql, params));
    const browser = await recordSnapshot((sql, params) => wasm.query(sql, params), (ask) => view.script(ask));
    assert.ok(Object.keys(native).length > 0, `/${view.page}: the build answered something`);
    assert.deepEqual(Object.keys(browser).sort(), Object.keys(native).sort(), `/${view.page}: the same questions`);
    for (const key of Object.keys(native)) assert.deepEqual(rounded(browser[key]), rounded(native[key]), `/${view.page}: ${key.replaceAll("\u0000", " ").slice(0, 200)}`);
    // A page reading the snapshot gets exactly what it stored, without asking DuckDB.
    await view.script(snapshotAsker(async () => native, () => Promise.reject(new Error("asked DuckDB for an answer the snapshot holds"))));
  } finally {
    if (wasm !== shared) wasm.close();
  }
}
