/**
 * A table whose key columns repeat; the message names the table and the
 * first duplicated key. Its own module so that the CLI can recognise it
 * without loading DuckDB (tableKey.ts, which checks keys, needs it).
 */
export class DuplicateKeyError extends Error {}
