/** What a dataset archive's status.json says: written by loaders/emit.ts, read by pages. */
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
}
