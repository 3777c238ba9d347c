// The Reference's index (/reference/), generated from the code (loaders/site/referenceDocs.ts): a Framework page loader.
import {referenceIndex} from "../../loaders/site/referenceDocs.js";

process.stdout.write(referenceIndex());
