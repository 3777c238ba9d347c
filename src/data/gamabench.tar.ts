// gamma-Bench raw results (games, rounds, players, messages)
// from the configured datasets directory, plus status.json.
import {emitDataset} from "../../loaders/emit.js";

await emitDataset("gamabench");
