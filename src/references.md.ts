// The References page, from the papers' manifests (loaders/site/referencesPage.ts): a Framework page loader.
import {referencesPage} from "../loaders/site/referencesPage.js";

process.stdout.write(referencesPage());
