// The home page's headline results, computed at build time (loaders/site/headlines.ts).
import {headlines} from "../../loaders/site/headlines.js";

process.stdout.write(JSON.stringify(await headlines()));
