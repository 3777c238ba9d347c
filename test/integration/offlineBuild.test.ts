/**
 * The site builds with no network at all: `parley build` in a network
 * namespace that has no interface but loopback (`unshare -n`, as root on
 * Debian; CI runs as root). Framework asks the npm registry for the versions
 * of the libraries its client can load unless it already knows them
 * (loaders/site/build.ts `seedNpmVersions`); this keeps that from coming back.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {existsSync, mkdtempSync, readdirSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {projectRoot} from "../../loaders/projectConfig.js";

const probe = spawnSync("unshare", ["-n", "true"]);
const reason = probe.error ? "unshare is not installed" : probe.status !== 0 ? "unshare -n needs root (CI runs as root)" : false;

test("parley build succeeds in a network namespace with no network", {skip: reason}, () => {
  const dist = mkdtempSync(join(tmpdir(), "parley-offline-dist-"));
  try {
    // No network: even a DNS lookup fails at once.
    const offline = spawnSync("unshare", ["-n", process.execPath, "-e", "require('node:dns').lookup('registry.npmjs.org', (e) => process.exit(e ? 0 : 1))"]);
    assert.equal(offline.status, 0, "the namespace still resolves names");
    const r = spawnSync("unshare", ["-n", process.execPath, "--import", "tsx", join(projectRoot, "loaders/cli/main.ts"), "build"], {
      cwd: projectRoot,
      env: {...process.env, PARLEY_DIST: dist},
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const log = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.status, 0, log.split("\n").filter((l) => /error|fail/i.test(l)).slice(0, 10).join("\n"));
    assert.doesNotMatch(log, /fetch failed/);
    assert.ok(existsSync(join(dist, "index.html")));
    assert.ok(readdirSync(dist).filter((f) => f.endsWith(".html")).length >= 9);
  } finally {
    rmSync(dist, {recursive: true, force: true});
  }
});
