// Every matrix and tree game of data/games/ with its solution concepts (src/lib/matrixGame.ts, gameTree.ts),
// and the adoption meta-game of Table 19 as printed and from its source tables (src/lib/metaGame.ts).
import {gtllmGamesJson} from "../../loaders/papers/gtllm/describe.js";
import {dataGames} from "../../loaders/registry/games.js";

process.stdout.write(JSON.stringify(gtllmGamesJson(dataGames)));
