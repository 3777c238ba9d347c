// The papers' reference (/reference/papers), from the papers' manifests (loaders/site/referenceDocs.ts): a Framework page loader.
import {papersReference} from "../../loaders/site/referenceDocs.js";

process.stdout.write(papersReference());
