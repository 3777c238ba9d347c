// One configured run (parley.config.json "runs"; Framework passes --run=<slug>): run.json and
// its tables per analysis group, e.g. glee/games.parquet (loaders/ownRuns/runArchives.ts).
import {emitRun} from "../../../loaders/ownRuns/runArchives.js";

await emitRun(process.argv.slice(2));
