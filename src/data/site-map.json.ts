// The site's map for the home page: every section of the sidebar with its pages and their one-sentence summaries,
// from the same list as the sidebar (loaders/site/navigation.ts, the papers' manifests and the Reference's pages).
import {papers} from "../../loaders/papers/index.js";
import {REFERENCE_INDEX, REFERENCE_PAGES} from "../../loaders/site/referencePages.js";
import {siteSections} from "../../loaders/site/navigation.js";

process.stdout.write(JSON.stringify(siteSections(papers, [REFERENCE_INDEX, ...REFERENCE_PAGES])));
