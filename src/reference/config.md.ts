// The configuration keys' reference (/reference/config), from the tables the validators check keys against (loaders/site/referenceDocs.ts): a Framework page loader.
import {configReference} from "../../loaders/site/referenceDocs.js";

process.stdout.write(configReference());
