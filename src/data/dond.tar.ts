// Deal-or-No-Deal dialogues from the configured datasets directory
// (games.parquet, turns.parquet, status.json).
import {emitDataset} from "../../loaders/datasets/emit.js";

await emitDataset("dond");
