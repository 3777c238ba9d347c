// The default GLEE dataset: data/runs/default.json (full Table 1 grid × every
// ordered pair of built-in agents) played at build time (games.parquet,
// turns.parquet, status.json).
import {emitDataset} from "../../loaders/datasets/emit.js";

await emitDataset("glee");
