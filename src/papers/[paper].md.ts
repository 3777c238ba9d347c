// A paper's overview page, from its manifest (loaders/site/paperPage.ts): a parameterized Framework page loader.
import {parseArgs} from "node:util";
import {paperPage} from "../../loaders/site/paperPage.js";

const {values} = parseArgs({options: {paper: {type: "string"}}});
process.stdout.write(await paperPage(values.paper!));
