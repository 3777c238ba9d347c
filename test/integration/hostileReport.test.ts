// `parley report` with a title and a run directory's name made of markup:
// the built site holds them as text in every page's <title>, heading and
// footer, and no element, attribute or script is made from them. The built
// HTML is parsed (parse5) page by page; one small GLEE run, one build.
import {test} from "node:test";
import assert from "node:assert/strict";
import {readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {parse} from "parse5";
import {parley, scratch} from "../support/cli.js";
import {writeSmallGleeConfig} from "../support/smallGleeRun.js";

const {dir: tempDir} = scratch("parley-hostile-report-");

const TITLE = `</script><script>window.pwned=1</script><img src=x.png onerror="window.pwned=2"><b>bold</b> & "quotes" \${1+1}`;
const RUN_NAME = "run<img src=y.png onerror=window.pwned=3><b>bold";

interface Node {
  nodeName: string;
  value?: string;
  attrs?: {name: string; value: string}[];
  childNodes?: Node[];
  content?: Node;
}

function* elements(node: Node): Generator<Node> {
  if (!node.nodeName.startsWith("#")) yield node;
  for (const child of [...(node.childNodes ?? []), ...(node.content ? [node.content] : [])]) yield* elements(child);
}

const textOf = (node: Node): string => (node.nodeName === "#text" ? node.value ?? "" : (node.childNodes ?? []).map(textOf).join(""));

test("a report titled with markup, of a run whose folder name is markup, shows both as text and makes no element of them", async () => {
  const dir = tempDir();
  const run = join(dir, RUN_NAME);
  const played = await parley(["run", writeSmallGleeConfig(dir, 4), "--out", run, "--quiet"]);
  assert.equal(played.code, 0, played.stderr);
  const site = join(dir, "site");
  const built = await parley(["report", run, "--out", site, "--title", TITLE], {}, 600_000);
  assert.equal(built.code, 0, built.stderr);

  const pages = readdirSync(site, {recursive: true}).map(String).filter((f) => f.endsWith(".html") && !f.startsWith("_"));
  assert.ok(pages.includes("index.html") && pages.length > 2, pages.join(", "));
  for (const page of pages) {
    const html = readFileSync(join(site, page), "utf8");
    const document = parse(html) as unknown as Node;
    const all = [...elements(document)];
    for (const element of all) {
      assert.notEqual(element.nodeName, "b", `${page}: a <b> made from the title or the run's name`);
      if (element.nodeName === "img") assert.ok(!/^[xy]\.png$/.test(element.attrs?.find((a) => a.name === "src")?.value ?? ""), `${page}: an <img> made from the title or the run's name`);
      for (const attr of element.attrs ?? []) assert.ok(!/^on/i.test(attr.name), `${page}: <${element.nodeName} ${attr.name}=…>`);
      if (element.nodeName === "script") assert.ok(!textOf(element).trim().startsWith("window.pwned"), `${page}: a script made from the title`);
    }
    const title = all.find((e) => e.nodeName === "title");
    assert.ok(title && textOf(title).includes(TITLE), `${page}: <title> ${title && textOf(title)}`);
    const footer = all.find((e) => e.attrs?.some((a) => a.name === "id" && a.value === "observablehq-footer"));
    assert.ok(footer && textOf(footer).includes(`${TITLE}: a study made with Parley`), `${page}: footer ${footer && textOf(footer)}`);
  }
  // The front page's heading and the runs are drawn in the browser from study.json, with textContent.
  const study = JSON.parse(readFileSync(join(site, "_file", readdirSync(join(site, "_file"), {recursive: true}).map(String).find((f) => /study\.[0-9a-f]+\.json$/.test(f))!), "utf8"));
  assert.equal(study.title, TITLE);
  assert.equal(study.runs[0].name, RUN_NAME);
});
