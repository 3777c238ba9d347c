// The matrix and tree games of Game-theoretic LLM workflows (Hua et al. 2024):
// data/runs/gtllm.json played at build time (games.parquet, turns.parquet, status.json).
import {emitDataset} from "../../loaders/datasets/emit.js";

await emitDataset("gtllm");
