// One configured run (parley.config.json "runs"; Framework passes --run=<slug>): run.json and
// its tables per analysis group, e.g. glee/games.parquet (loaders/runs/site.ts).
import {emitRun} from "../../../loaders/runs/site.js";

await emitRun(process.argv.slice(2));
