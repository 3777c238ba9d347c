/**
 * A configuration file's keys as data: each validator (run configs,
 * LLM player objects, experiments, parley.config.json) checks the keys it
 * is given against its table, and the site's Reference (/reference/config)
 * prints the same table, so the documentation cannot name a key the
 * validator refuses or miss one it accepts.
 */
export interface ConfigKey {
  key: string;
  /** What the value may be, in the validator's words. */
  type: string;
  /** What applies when the key is left out ("required" when it may not be). */
  default: string;
  /** What it means. */
  meaning: string;
  /** Another name of the key `aliasOf`: give one or the other, not both. */
  aliasOf?: string;
}

/** The key names of a table, in its order (the order error messages list them in). */
export const keyNames = (table: readonly ConfigKey[]): string[] => table.map((k) => k.key);
