// gamma-Bench raw results (games, players, turns, rounds, messages)
// from the configured datasets directory, plus status.json.
import {emitDataset} from "../../loaders/datasets/emit.js";

await emitDataset("gamabench");
