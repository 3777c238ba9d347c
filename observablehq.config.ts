// Observable Framework configuration for the Parley site.
// Offline by construction: no Google font (globalStylesheets is empty and
// style.css uses system fonts), no npm: imports, and telemetry is switched off
// by the scripts that run Framework (OBSERVABLE_TELEMETRY_DISABLE=true).
// Framework loads this file through tsx, so it reads the list of papers like the command line does.
import {papers} from "./loaders/papers/index.js";
import {REFERENCE_INDEX, REFERENCE_PAGES} from "./loaders/site/referencePages.js";
import {frameworkPages, siteSections} from "./loaders/site/navigation.js";
import {ACCESSIBILITY_SCRIPT} from "./loaders/site/accessibleHtml.js";
import {fileURLToPath} from "node:url";

export default {
  title: "Parley",
  root: "src",
  // PARLEY_DIST lets tests build into a scratch directory without touching dist/.
  output: process.env.PARLEY_DIST ?? "dist",
  style: "style.css",
  globalStylesheets: [],
  // TypeScript data and page loaders run compiled and cached (bin/loader.js), not through tsx at each of a build's thirty-odd runs.
  interpreters: {".ts": [process.execPath, fileURLToPath(new URL("./bin/loader.js", import.meta.url))]},
  // The site's map (loaders/site/navigation.ts): one section per paper from the papers' manifests (loaders/papers/<paper>/index.ts),
  // then the pages across papers, running a study, the Guide and the Reference; the home page's map is made from the same list.
  pages: frameworkPages(siteSections(papers, [REFERENCE_INDEX, ...REFERENCE_PAGES])),
  // A site icon inline (no request, so no /favicon.ico 404 on a visitor's first page); the accessibility fixes made as pages draw (loaders/site/accessibleHtml.ts).
  head: ACCESSIBILITY_SCRIPT + `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%234269d0'/%3E%3Ctext x='8' y='12' font-size='11' text-anchor='middle' fill='white' font-family='sans-serif'%3EP%3C/text%3E%3C/svg%3E">`,
  // Pages made by a parameterized page (src/glee-[family].md, src/negotiationarena-[scenario].md: Framework's parameterized routes), as the manifests mark them.
  // Each paper's overview (src/papers/[paper].md.ts) too.
  dynamicPaths: [...papers.map((p) => `/papers/${p.id}`), ...papers.flatMap((p) => p.pages.filter((page) => page.parameterized).map((page) => page.path))],
  footer: "Parley: language agents in economic games. Built offline with Observable Framework.",
  // Framework's search: an index of every page's text built with the site (_observablehq/minisearch.json), and MiniSearch bundled from node_modules: no request beyond the site.
  search: true,
  linkify: false,
  typographer: false,
};
