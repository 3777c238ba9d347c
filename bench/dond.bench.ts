// Deal-or-No-Deal ingest of the configured val.txt (parse + merge + Parquet), and the full site build.
import {mkdtempSync, existsSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {performance} from "node:perf_hooks";
import {locateDataset} from "../loaders/catalog.js";
import {ingestDond} from "../loaders/ingest/dond.js";
import {writeIngest} from "../loaders/ingest/write.js";
import {buildSite} from "../loaders/commands/site.js";

export default async function (): Promise<void> {
  const at = locateDataset("dond");
  if (!at.available) {
    console.log(`dond ingest: skipped (${at.hint})`);
  } else {
    const times: number[] = [];
    let dialogues = 0;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const result = ingestDond(at.path!);
      await writeIngest(result, mkdtempSync(join(tmpdir(), "parley-bench-")));
      times.push(performance.now() - t0);
      dialogues = result.tables[0].rows.length;
    }
    times.sort((a, b) => a - b);
    console.log(`dond ingest of ${at.entry.path} (${dialogues} dialogues, parse + Parquet): median ${times[2].toFixed(0)} ms, min ${times[0].toFixed(0)} ms over 5 runs`);
  }
  const dist = mkdtempSync(join(tmpdir(), "parley-bench-dist-"));
  const t0 = performance.now();
  const code = await buildSite({...process.env, PARLEY_DIST: dist});
  const seconds = (performance.now() - t0) / 1000;
  console.log(`site build (all data loaders + ${existsSync(join(dist, "index.html")) ? "pages" : "FAILED"}): ${seconds.toFixed(1)} s, exit ${code}`);
}
