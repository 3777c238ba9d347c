// Built-in datasets carry a manifest in their status.json (what produced the
// data a page draws), as `parley ingest` and `parley run` write one.
import {test} from "node:test";
import assert from "node:assert/strict";
import {createHash} from "node:crypto";
import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {writeDataset} from "../../loaders/datasets/emit.js";
import {datasetsConfig, projectRoot} from "../../loaders/projectConfig.js";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const version = JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")).version;

test("an ingested dataset's status carries an ingest manifest: adapter, raw path inside the datasets directory, config hash, counts", {skip: !datasetsConfig().dir && "no datasets directory configured"}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-manifest-"));
  try {
    const {status} = await writeDataset("negotiationarena", dir);
    assert.ok(status.available);
    const m = status.manifest as Record<string, any>;
    assert.equal(m.kind, "ingest");
    assert.deepEqual(m.config, {adapter: "negotiationarena", input: "negotiationarena"});
    assert.equal(m.config_sha256, sha(JSON.stringify({adapter: "negotiationarena", input: "negotiationarena"})));
    assert.equal(m.parley.version, version);
    assert.deepEqual(m.counts, {...status.summary, problems: status.problems.length});
    assert.ok(Date.parse(m.started) <= Date.parse(m.finished));
    assert.doesNotMatch(JSON.stringify(m), new RegExp(datasetsConfig().dir!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")), "never the builder's absolute path");
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});

test("a generated dataset's status carries a run manifest: the config file of data/runs as given, its sha256 and seed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-manifest-"));
  try {
    const {status} = await writeDataset("gtllm", dir);
    const m = status.manifest as Record<string, any>;
    const text = readFileSync(join(projectRoot, "data/runs/gtllm.json"), "utf8");
    assert.equal(m.kind, "run");
    assert.deepEqual(m.config, JSON.parse(text));
    assert.equal(m.config_sha256, sha(text));
    assert.equal(m.seed, JSON.parse(text).seed ?? null);
    assert.deepEqual(m.counts, status.summary);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});

test("an absent dataset has no manifest", async () => {
  const saved = process.env.PARLEY_DATASETS;
  process.env.PARLEY_DATASETS = mkdtempSync(join(tmpdir(), "parley-no-datasets-"));
  const dir = mkdtempSync(join(tmpdir(), "parley-manifest-"));
  try {
    const {status} = await writeDataset("negotiationarena", dir);
    assert.equal(status.available, false);
    assert.equal(status.manifest, null);
  } finally {
    if (saved === undefined) delete process.env.PARLEY_DATASETS;
    else process.env.PARLEY_DATASETS = saved;
    rmSync(dir, {recursive: true, force: true});
  }
});
