// The command line's reference (/reference/cli), from each command's usage text (loaders/site/referenceDocs.ts): a Framework page loader.
import {cliReference} from "../../loaders/site/referenceDocs.js";

process.stdout.write(cliReference());
