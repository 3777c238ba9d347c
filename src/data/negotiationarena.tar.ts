// NegotiationArena buy/sell games (games, turns)
// from the configured datasets directory, plus status.json.
import {emitDataset} from "../../loaders/datasets/emit.js";

await emitDataset("negotiationarena");
