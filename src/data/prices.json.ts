// The price table of parley.config.json (US dollars per million input and output tokens, per provider/model),
// for the /ratings page's rating against cost per game. Prices are not secrets; keys never appear here.
import {readPrices} from "../../loaders/runner/cost.js";

process.stdout.write(JSON.stringify(Object.fromEntries(readPrices())));
