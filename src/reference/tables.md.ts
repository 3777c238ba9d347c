// The tables' reference (/reference/tables), from the declared schemas and each game's columns (loaders/site/referenceDocs.ts): a Framework page loader.
import {tablesReference} from "../../loaders/site/referenceDocs.js";

process.stdout.write(tablesReference());
