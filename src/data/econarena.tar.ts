// Economics Arena: data/runs/econarena.json (the senior environment's pool of
// five built-in strategies, both games, one-shot and history sessions) played
// at build time (games.parquet, players.parquet, turns.parquet, status.json).
import {emitDataset} from "../../loaders/datasets/emit.js";

await emitDataset("econarena");
