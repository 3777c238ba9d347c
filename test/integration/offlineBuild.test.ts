/**
 * The site builds with no network at all: the fixture site every browser
 * test opens (test/support/fixtureSite.ts) is built by `parley build` in a
 * network namespace that has no interface but loopback (`unshare -n`, as
 * root on Debian; CI runs as root). Framework asks the npm registry for the
 * versions of the libraries its client can load unless it already knows
 * them (loaders/site/build.ts `seedNpmVersions`); this keeps that from coming back.
 */
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {existsSync, readFileSync, readdirSync} from "node:fs";
import {join} from "node:path";
import {fixtureSite} from "../support/fixtureSite.js";

const probe = spawnSync("unshare", ["-n", "true"]);
const reason = probe.error ? "unshare is not installed" : probe.status !== 0 ? "unshare -n needs root (CI runs as root)" : false;

test("parley build succeeds in a network namespace with no network", {skip: reason}, async () => {
  // No network: even a DNS lookup fails at once.
  const offline = spawnSync("unshare", ["-n", process.execPath, "-e", "require('node:dns').lookup('registry.npmjs.org', (e) => process.exit(e ? 0 : 1))"]);
  assert.equal(offline.status, 0, "the namespace still resolves names");
  const site = await fixtureSite();
  assert.equal(site.offline, true, "the fixture site was built in the namespace");
  const log = readFileSync(site.buildLog, "utf8");
  assert.doesNotMatch(log, /fetch failed/);
  assert.ok(existsSync(join(site.dist, "index.html")));
  assert.ok(readdirSync(site.dist).filter((f) => f.endsWith(".html")).length >= 9);
});
