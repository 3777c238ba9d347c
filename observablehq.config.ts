// Observable Framework configuration for the Parley site.
// Offline by construction: no Google font (globalStylesheets is empty and
// style.css uses system fonts), no npm: imports, and telemetry is switched off
// by the scripts that run Framework (OBSERVABLE_TELEMETRY_DISABLE=true).
// Framework loads this file through tsx, so it reads the list of papers like the command line does.
import {papers} from "./loaders/papers/index.js";
import {REFERENCE_INDEX, REFERENCE_PAGES} from "./loaders/site/referencePages.js";
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
  // One section per paper, from the papers' manifests (loaders/papers/<paper>/index.ts), then the pages across papers.
  pages: [
    ...papers.map((p) => ({name: p.citation.short, pages: [{name: "Overview", path: `/papers/${p.id}`}, ...p.pages.map((page) => ({name: page.title, path: page.path}))]})),
    {
      name: "Across papers",
      pages: [
        {name: "Ratings across games", path: "/ratings"},
        {name: "Compare two agents", path: "/compare"},
        {name: "Study: self-gain and patience", path: "/study-discount"},
      ],
    },
    // The manual: written pages in src/guide/ (every example in them is run by test/integration/guideExamples.test.ts).
    {
      name: "Guide",
      pages: [
        {name: "Overview", path: "/guide/"},
        {name: "Your own runs", path: "/guide/own-runs"},
        {name: "Playing games", path: "/guide/playing"},
        {name: "Playing against language models", path: "/guide/models"},
        {name: "What models read", path: "/guide/prompts"},
        {name: "Running a human study", path: "/guide/human-study"},
        {name: "Sharded runs", path: "/guide/sharded-runs"},
        {name: "Analysing runs", path: "/guide/analysing"},
        {name: "Writing a page", path: "/guide/pages"},
        {name: "Publishing a report", path: "/guide/report"},
        {name: "Configuration", path: "/guide/configuration"},
        {name: "Reliability", path: "/guide/reliability"},
        {name: "Accessibility", path: "/guide/accessibility"},
        {name: "Adding a game", path: "/guide/adding-a-game"},
        {name: "Adding a paper", path: "/guide/adding-a-paper"},
        {name: "Adding an analysis", path: "/guide/adding-an-analysis"},
        {name: "Adding a dataset", path: "/guide/adding-a-dataset"},
        {name: "Notes on GLEE", path: "/guide/glee"},
        {name: "Notes on gamma-Bench", path: "/guide/gamabench"},
        {name: "Notes on Game-theoretic LLM workflows", path: "/guide/gtllm"},
        {name: "Notes on Economics Arena", path: "/guide/econarena"},
        {name: "Notes on NegotiationArena", path: "/guide/negotiationarena"},
        {name: "Architecture", path: "/guide/architecture"},
        {name: "Tests", path: "/guide/tests"},
      ],
    },
    // Generated from the code when the site is built (loaders/site/referenceDocs.ts; pages src/reference/*.md.ts); not the bibliography, "References" below.
    {name: "Reference", pages: [REFERENCE_INDEX, ...REFERENCE_PAGES].map((p) => ({name: p.name, path: p.path}))},
    {name: "Play a game", path: "/play"},
    {name: "Datasets", path: "/datasets"},
    {name: "References", path: "/references"},
  ],
  // A site icon inline (no request, so no /favicon.ico 404 on a visitor's first page); the accessibility fixes made as pages draw (loaders/site/accessibleHtml.ts).
  head: ACCESSIBILITY_SCRIPT + `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%234269d0'/%3E%3Ctext x='8' y='12' font-size='11' text-anchor='middle' fill='white' font-family='sans-serif'%3EP%3C/text%3E%3C/svg%3E">`,
  // Pages made by a parameterized page (src/glee-[family].md, src/negotiationarena-[scenario].md: Framework's parameterized routes), as the manifests mark them.
  // Each paper's overview (src/papers/[paper].md.ts) too.
  dynamicPaths: [...papers.map((p) => `/papers/${p.id}`), ...papers.flatMap((p) => p.pages.filter((page) => page.parameterized).map((page) => page.path))],
  footer: "Parley: language agents in economic games. Built offline with Observable Framework.",
  search: false,
  linkify: false,
  typographer: false,
};
