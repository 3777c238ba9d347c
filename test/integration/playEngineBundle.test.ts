// The play page's engine (src/data/play-engine.js.ts) bundles every paper's
// browser-safe part for the browser: a play.ts that reaches a Node module
// (a narrator importing the LLM clients, say) fails this build.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {join} from "node:path";
import {root} from "../support/cli.js";
import {games} from "../../loaders/registry/games.js";

test("the play page's engine bundles for the browser with every registered game", () => {
  const r = spawnSync(process.execPath, ["--import", "tsx", join(root, "src/data/play-engine.js.ts")], {cwd: root, encoding: "utf8", maxBuffer: 64 << 20});
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /from\s*["']node:/, "no Node module in the bundle");
  for (const g of games) assert.ok(r.stdout.includes(JSON.stringify(g.id)) || r.stdout.includes(`"${g.id}"`) || r.stdout.includes(g.id), `${g.id} is in the bundle`);
});
