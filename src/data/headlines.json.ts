// The home page's headline results, computed at build time (loaders/headlines.ts).
import {headlines} from "../../loaders/headlines.js";

process.stdout.write(JSON.stringify(await headlines()));
