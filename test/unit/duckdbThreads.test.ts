// How many threads each native DuckDB may use: PARLEY_DUCKDB_THREADS, else 2; anything but a whole number is one clear line.
import {test} from "node:test";
import assert from "node:assert/strict";
import {duckdbThreads} from "../../loaders/io/duckdb.js";

test("PARLEY_DUCKDB_THREADS: unset or empty is 2, a whole number is itself, anything else names the variable and the value", () => {
  assert.equal(duckdbThreads({}), "2");
  assert.equal(duckdbThreads({PARLEY_DUCKDB_THREADS: ""}), "2");
  assert.equal(duckdbThreads({PARLEY_DUCKDB_THREADS: "1"}), "1");
  assert.equal(duckdbThreads({PARLEY_DUCKDB_THREADS: "16"}), "16");
  for (const bad of ["0", "-1", "two", "1.5", " 2", "1000"]) {
    assert.throws(() => duckdbThreads({PARLEY_DUCKDB_THREADS: bad}), new RegExp(`^Error: PARLEY_DUCKDB_THREADS must be a whole number from 1 to 999, got ${JSON.stringify(bad).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  }
});
