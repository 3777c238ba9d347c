// GLEE human-vs-LLM games in the common GLEE schema (games, turns)
// from the configured datasets directory, plus status.json.
import {emitDataset} from "../../loaders/datasets/emit.js";

await emitDataset("glee-human");
