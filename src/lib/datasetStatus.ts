/** What a dataset archive's status.json says: written by loaders/datasets/emit.ts, read by pages. */
export interface DatasetStatus {
  id: string;
  title: string;
  cite: string;
  available: boolean;
  /** The raw path inside the datasets directory (never the builder's absolute path). */
  path: string;
  /** How to add the dataset, when it is absent. */
  hint: string | null;
  summary: Record<string, number>;
  problems: string[];
  /**
   * What produced the data, as `parley run` and `parley ingest` record it
   * (loaders/runner/manifest.ts): the config and its sha256, Parley's version
   * and commit, package versions, seed, times and counts. Absent in archives
   * written before manifests.
   */
  manifest?: Record<string, unknown> | null;
}
