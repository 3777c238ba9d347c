/**
 * Every page whose first view is computed at build time (src/lib/snapshot.ts):
 * each paper's, as its analysis declares them (the papers' manifests), then the
 * pages across papers (ratings, comparison). loaders/datasets/emit.ts runs
 * each script against its dataset's tables in native DuckDB and writes the
 * answers into that dataset's archive as `first-<page>.json`; the page reads
 * them through pageData (src/components/pageData.ts). A paper's new page
 * adds its FirstView to its analysis; a page across papers adds it here.
 */
import type {FirstView} from "../../src/lib/snapshot.js";
import {ANALYSES} from "./analyses.js";
import {ratingsFirstViews} from "../../src/lib/pages/ratings.js";
import {compareFirstView} from "../../src/lib/pages/compare.js";

export const FIRST_VIEWS: FirstView[] = [...ANALYSES.flatMap((a) => a.firstViews), ...ratingsFirstViews, compareFirstView];
