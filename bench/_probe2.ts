import {readdirSync} from "node:fs";
import {serveStatic} from "../loaders/serve.js";
import {launch} from "../test/browser/harness.js";
const dist = "/tmp/pages-dist";
const server = await serveStatic(dist);
const browser = await launch();
const context = await browser.newContext();
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send("Profiler.enable");
await cdp.send("Profiler.setSamplingInterval", {interval: 1000});
await cdp.send("Profiler.start");
await page.goto(server.url + "/glee-negotiation");
await page.waitForTimeout(5000);
const {profile} = (await cdp.send("Profiler.stop")) as any;
// self time per function
const self = new Map<string, number>();
const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
const dt = profile.timeDeltas;
const counts = new Map<number, number>();
profile.samples.forEach((id: number, i: number) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
for (const [id, t] of counts) {
  const n: any = byId.get(id);
  const key = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + t / 1000);
}
for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(v.toFixed(0).padStart(6), k);
await browser.close(); await server.close();
