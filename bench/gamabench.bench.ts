// gamma-Bench: ingest every shared raw-result file (about 600 files, 58 MB: read + parse + tidy
// tables + Parquet) and score them all with the shared SQL. Target: ingest under 20 s.
import {mkdtempSync, readdirSync, statSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {performance} from "node:perf_hooks";
import {locateDataset} from "../loaders/datasets/catalog.js";
import {ingestGamabench} from "../loaders/papers/gamabench/ingest.js";
import {writeIngest} from "../loaders/ingest/write.js";
import {answerOverRuns} from "../loaders/analyses/overRuns.js";
import {gamabenchAnalysis} from "../src/analyses/gamabench.js";

function sizeOf(path: string): number {
  const s = statSync(path);
  return s.isDirectory() ? readdirSync(path).reduce((a, f) => a + sizeOf(join(path, f)), 0) : s.size;
}

export default async function (): Promise<void> {
  const at = locateDataset("gamabench");
  if (!at.available) {
    console.log(`gamabench ingest: skipped (${at.hint})`);
    return;
  }
  const mb = sizeOf(at.path!) / 1e6;
  const runs: {parse: number; write: number; score: number}[] = [];
  let files = 0;
  let rows = 0;
  let tables = 0;
  for (let i = 0; i < 3; i++) {
    const out = mkdtempSync(join(tmpdir(), "parley-bench-gamabench-"));
    const t0 = performance.now();
    const result = ingestGamabench(at.path!);
    const t1 = performance.now();
    await writeIngest(result, out);
    const t2 = performance.now();
    await answerOverRuns(gamabenchAnalysis, "scores", out);
    const t3 = performance.now();
    runs.push({parse: t1 - t0, write: t2 - t1, score: t3 - t2});
    files = result.summary.files_read;
    rows = result.tables.reduce((a, t) => a + t.rows.length, 0);
    tables = result.tables.length;
  }
  runs.sort((a, b) => a.parse + a.write - (b.parse + b.write));
  const m = runs[1];
  console.log(`gamabench ingest of ${files} files (${mb.toFixed(0)} MB -> ${rows} rows in ${tables} tables): median ${((m.parse + m.write) / 1000).toFixed(2)} s (parse ${(m.parse / 1000).toFixed(2)} s + Parquet ${(m.write / 1000).toFixed(2)} s; target < 20 s) over 3 runs`);
  console.log(`gamabench scores (S1..S8, 0–100, overall) over the ingested tables: ${(m.score / 1000).toFixed(2)} s`);
}
