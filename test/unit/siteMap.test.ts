// The site's map (loaders/site/navigation.ts): the sidebar's sections by paper and by task, made
// from the papers' manifests, with every page once; the same list as the home page's map.
import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync, readdirSync} from "node:fs";
import {join} from "node:path";
import {frameworkPages, mapPaths, siteSections, type PaperPages} from "../../loaders/site/navigation.js";
import {papers} from "../../loaders/papers/index.js";
import {REFERENCE_INDEX, REFERENCE_PAGES} from "../../loaders/site/referencePages.js";
import {projectRoot} from "../../loaders/projectConfig.js";
import config from "../../observablehq.config.js";

const toy: PaperPages[] = [
  {id: "a", citation: {short: "Paper A (X 2020)"}, pages: [{path: "/a-one", title: "A: one", summary: "the first"}, {path: "/a-two", title: "A: two"}]},
  {id: "b", citation: {short: "Paper B (Y 2021)"}, pages: []},
];

test("sections: one per paper (its overview, then its manifest's pages), then compare, run a study, Guide and Reference", () => {
  const sections = siteSections(toy, [{name: "Reference: x", path: "/reference/x"}]);
  assert.deepEqual(sections.map((s) => [s.name, s.task]), [
    ["Paper A (X 2020)", "browse"], ["Paper B (Y 2021)", "browse"], ["Compare across papers", "compare"], ["Run a study", "study"], ["Guide", "guide"], ["Reference", "reference"],
  ]);
  assert.deepEqual(sections[0].pages, [{name: "Overview", path: "/papers/a", summary: "its games, agents, data and measures."}, {name: "A: one", path: "/a-one", summary: "the first"}, {name: "A: two", path: "/a-two"}]);
  assert.deepEqual(sections[1].pages.map((p) => p.path), ["/papers/b"]);
  for (const path of ["/ratings", "/compare", "/datasets"]) assert.ok(sections[2].pages.some((p) => p.path === path), path);
  for (const path of ["/play", "/guide/human-study", "/guide/report"]) assert.ok(sections[3].pages.some((p) => p.path === path), path);
  assert.deepEqual(sections[5].pages.map((p) => p.path), ["/reference/x", "/references"]);
  // Framework's form: closed sections open when one of their pages is shown; names and paths only.
  const pages = frameworkPages(sections);
  assert.deepEqual(pages.map((s) => s.open), [undefined, undefined, undefined, undefined, false, false]);
  assert.deepEqual(pages[0].pages, [{name: "Overview", path: "/papers/a"}, {name: "A: one", path: "/a-one"}, {name: "A: two", path: "/a-two"}]);
});

test("a page listed twice is refused, naming it", () => {
  const twice = siteSections([{id: "a", citation: {short: "A"}, pages: [{path: "/ratings", title: "again"}]}], []);
  assert.throws(() => mapPaths(twice), /the site's map lists \/ratings twice/);
});

test("the site's sidebar is the map of the real manifests: every page once, and each has its source in src/", () => {
  const sections = siteSections(papers, [REFERENCE_INDEX, ...REFERENCE_PAGES]);
  assert.deepEqual(config.pages, frameworkPages(sections));
  const paths = mapPaths(sections);
  assert.equal(sections.filter((s) => s.task === "browse").length, papers.length);
  for (const p of papers) for (const page of p.pages) assert.ok(paths.includes(page.path), page.path);
  assert.equal(config.search, true);
  const src = join(projectRoot, "src");
  const files = readdirSync(src);
  for (const path of paths) {
    const name = path.slice(1).replace(/\/$/, "/index");
    const parameterized = files.some((f) => /\[[a-z]+\]\.md$/.test(f) && name.startsWith(f.slice(0, f.indexOf("["))));
    const paper = name.startsWith("papers/") && existsSync(join(src, "papers/[paper].md.ts"));
    assert.ok(parameterized || paper || existsSync(join(src, `${name}.md`)) || existsSync(join(src, `${name}.md.ts`)), `${path} has a source`);
  }
});
