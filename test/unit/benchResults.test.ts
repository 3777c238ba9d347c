// bench/RESULTS.md sections, as `npm run bench -- <name> --append` writes them (bench/results.ts).
import {test} from "node:test";
import assert from "node:assert/strict";
import {resultsSection, withHeadline, type Machine} from "../../bench/results.js";

const machine: Machine = {cores: 2, cpu: "AMD EPYC", memoryGiB: 23.5, node: "v20.20.2", platform: "linux x64"};
const date = new Date("2026-11-25T21:41:26.610Z");

test("a section: dated heading with commit and benches, the machine and its load, the figures as printed", () => {
  const section = resultsSection({date, commit: "f8f28be", benches: ["gtllm"], command: "npm run bench -- gtllm --append", machine, loadStart: "4.2", loadEnd: "3.9", output: "\n## gtllm\ngames/s 6004\n\n"});
  assert.equal(
    section,
    "\n## 2026-11-25 · f8f28be · gtllm\n\n" +
      "Machine: 2 cores (AMD EPYC), 23.5 GiB, linux x64, Node v20.20.2; load average 4.2 at the start, 3.9 at the end. Appended by `npm run bench -- gtllm --append`, started 2026-11-25T21:41:26.610Z.\n\n" +
      "```text\n## gtllm\ngames/s 6004\n```\n",
  );
});

test("every bench, no commit, nothing printed; a fence longer than any backtick run in the figures", () => {
  const empty = resultsSection({date, commit: null, benches: [], command: "npm run bench -- --append", machine, loadStart: "1.0", loadEnd: "1.0", output: ""});
  assert.match(empty, /^\n## 2026-11-25 · no commit · every bench\n/);
  assert.match(empty, /```text\n\(the benches printed nothing\)\n```\n$/);
  const fenced = resultsSection({date, commit: "abc", benches: ["x"], command: "c", machine, loadStart: "1", loadEnd: "1", output: "a ```` b"});
  assert.match(fenced, /\n`````text\na ```` b\n`````\n$/);
});

test("headlines: the block is made before the first dated section, a bench's entry replaced, the others kept in order, the history untouched", () => {
  const file = "# Benchmark results\n\nIntro.\n\n## 2026-11-22 · e6c4a54 · gamabench\n\nAbout 5 s.\n";
  const one = withHeadline(file, {bench: "promptCaching", date, commit: "abc1234", headline: "| a | b |\n"});
  assert.equal(
    one,
    "# Benchmark results\n\nIntro.\n\n## Headline figures\n\nThe latest figures of the benches that report a headline, each from its dated section below (`--append` replaces a bench's entry).\n\n" +
      "### promptCaching · 2026-11-25 · abc1234\n\n| a | b |\n\n## 2026-11-22 · e6c4a54 · gamabench\n\nAbout 5 s.\n",
  );
  const two = withHeadline(one, {bench: "llm", date, commit: null, headline: "0.9 of ideal"});
  const three = withHeadline(two, {bench: "promptCaching", date: new Date("2026-11-28T00:00:00Z"), commit: "def5678", headline: "| c | d |"});
  assert.equal(
    three,
    "# Benchmark results\n\nIntro.\n\n## Headline figures\n\nThe latest figures of the benches that report a headline, each from its dated section below (`--append` replaces a bench's entry).\n\n" +
      "### promptCaching · 2026-11-28 · def5678\n\n| c | d |\n\n### llm · 2026-11-25 · no commit\n\n0.9 of ideal\n\n## 2026-11-22 · e6c4a54 · gamabench\n\nAbout 5 s.\n",
  );
  // Appending sections after it leaves the block where it is.
  const later = withHeadline(three + resultsSection({date, commit: "x", benches: ["llm"], command: "c", machine, loadStart: "1", loadEnd: "1", output: "y"}), {bench: "llm", date, commit: "x", headline: "0.95"});
  assert.ok(later.includes("### llm · 2026-11-25 · x\n\n0.95\n\n## 2026-11-22"));
  assert.ok(later.endsWith("```text\ny\n```\n"));
});
