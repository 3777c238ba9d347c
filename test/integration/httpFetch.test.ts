/**
 * httpFetch, the keep-alive fetch the provider SDKs use: compressed bodies
 * (real APIs gzip their answers), headers, empty bodies, aborts, refused and
 * cut-off connections — each failing the way the global fetch does, since the
 * retry policy reads those failures.
 */
import {test, after} from "node:test";
import assert from "node:assert/strict";
import {createServer} from "node:http";
import type {AddressInfo} from "node:net";
import {brotliCompressSync, constants, deflateSync, gzipSync} from "node:zlib";
import {httpFetch, ResponseTooLarge} from "../../loaders/llm/httpFetch.js";

let dripClosed = false;
const body = JSON.stringify({choices: [{message: {content: "héllo ✓"}}]});
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const path = req.url ?? "/";
    if (path === "/echo") {
      res.writeHead(200, {"content-type": "application/json", "x-request-id": "r1"});
      res.end(JSON.stringify({method: req.method, auth: req.headers.authorization, length: req.headers["content-length"], body: Buffer.concat(chunks).toString()}));
    } else if (path.startsWith("/enc/")) {
      const enc = path.slice(5);
      const data = enc === "gzip" ? gzipSync(body) : enc === "br" ? brotliCompressSync(body) : deflateSync(body);
      res.writeHead(200, {"content-type": "application/json", "content-encoding": enc, "content-length": String(data.length)});
      res.end(data);
    } else if (path === "/empty") {
      res.writeHead(204);
      res.end();
    } else if (path === "/retry") {
      res.writeHead(429, {"retry-after": "7", "set-cookie": ["a=1", "b=2"]});
      res.end("{}");
    } else if (path === "/cut") {
      res.writeHead(200, {"content-type": "application/json", "content-length": "500"});
      res.write('{"partial": ');
      setTimeout(() => req.socket.destroy(), 10);
    } else if (path.startsWith("/bomb/")) {
      // 8 MiB of zeros, compressed to a few kB.
      const enc = path.slice(6);
      const zeros = Buffer.alloc(8 * 1024 ** 2);
      const data = enc === "gzip" ? gzipSync(zeros) : enc === "br" ? brotliCompressSync(zeros, {params: {[constants.BROTLI_PARAM_QUALITY]: 4}}) : deflateSync(zeros);
      res.writeHead(200, {"content-type": "application/json", "content-encoding": enc});
      res.end(data);
    } else if (path.startsWith("/bytes/")) {
      res.writeHead(200, {"content-type": "application/json"});
      res.end(Buffer.alloc(Number(path.slice(7)), " "));
    } else if (path === "/slow") {
      setTimeout(() => res.end("{}"), 2000);
    } else if (path === "/drip") {
      // Headers at once, then one byte every 100 ms of a body announced as 1 MB: never idle, never done.
      res.writeHead(200, {"content-type": "application/json", "content-length": String(1e6)});
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(" ")), 100);
      res.on("close", () => {
        clearInterval(timer);
        dripClosed = true;
      });
    }
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
after(() => {
  server.closeAllConnections();
  server.close();
});

test("sends method, headers and body; returns status, headers and body", async () => {
  const r = await httpFetch(`${base}/echo`, {method: "POST", body: '{"q": "ü"}', headers: {authorization: "Bearer k", "content-type": "application/json"}});
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("x-request-id"), "r1");
  assert.deepEqual(await r.json(), {method: "POST", auth: "Bearer k", length: String(Buffer.byteLength('{"q": "ü"}')), body: '{"q": "ü"}'});
});

test("decodes gzip, deflate and brotli bodies", async () => {
  for (const enc of ["gzip", "deflate", "br"]) {
    const r = await httpFetch(`${base}/enc/${enc}`);
    assert.equal(r.headers.get("content-encoding"), null, "the body handed back is decoded");
    assert.deepEqual(await r.json(), JSON.parse(body), enc);
  }
});

test("empty bodies, error statuses and repeated headers", async () => {
  const empty = await httpFetch(`${base}/empty`);
  assert.equal(empty.status, 204);
  assert.equal(await empty.text(), "");
  const limited = await httpFetch(`${base}/retry`);
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("retry-after"), "7");
  assert.deepEqual(limited.headers.getSetCookie(), ["a=1", "b=2"]);
});

test("failures look like the global fetch's: TypeError for network trouble, AbortError for aborts", async () => {
  await assert.rejects(httpFetch(`${base}/cut`), (e: unknown) => e instanceof TypeError && e.message === "fetch failed");
  await assert.rejects(httpFetch("http://127.0.0.1:1/"), (e: unknown) => e instanceof TypeError && e.message === "fetch failed");
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  await assert.rejects(httpFetch(`${base}/slow`, {signal: controller.signal}), (e: unknown) => (e as Error).name === "AbortError");
  await assert.rejects(httpFetch(`${base}/slow`, {signal: AbortSignal.abort()}), (e: unknown) => (e as Error).name === "AbortError");
});

test("bodies are capped after decompression: gzip, deflate and brotli bombs and plain bodies over the limit reject with ResponseTooLarge", async () => {
  const limit = 1024 ** 2;
  for (const enc of ["gzip", "deflate", "br"]) {
    await assert.rejects(httpFetch(`${base}/bomb/${enc}`, undefined, limit), (e: unknown) => e instanceof ResponseTooLarge && e.limit === limit, enc);
  }
  assert.equal((await (await httpFetch(`${base}/bytes/${limit}`, undefined, limit)).arrayBuffer()).byteLength, limit, "a body exactly at the limit is read");
  await assert.rejects(httpFetch(`${base}/bytes/${limit + 1}`, undefined, limit), ResponseTooLarge);
  // What goes to the global fetch (a Request object) is capped the same way.
  await assert.rejects(httpFetch(new Request(`${base}/bomb/gzip`), undefined, limit), ResponseTooLarge);
  assert.equal((await (await httpFetch(new Request(`${base}/bytes/10`), undefined, limit)).text()).length, 10);
  // The default cap is 4 MiB.
  await assert.rejects(httpFetch(`${base}/bomb/br`), (e: unknown) => e instanceof ResponseTooLarge && e.limit === 4 * 1024 ** 2);
});

test("a body that trickles in is abandoned when the caller's deadline aborts it mid-body, and the connection is closed", async () => {
  // The LLM clients give every attempt a deadline (complete.ts's timeout_ms) through the signal; it holds after the headers too.
  const started = Date.now();
  await assert.rejects(httpFetch(`${base}/drip`, {signal: AbortSignal.timeout(500)}), (e: unknown) => (e as Error).name === "TimeoutError" || (e as Error).name === "AbortError");
  assert.ok(Date.now() - started < 2000, `gave up after ${Date.now() - started} ms`);
  for (let i = 0; i < 50 && !dripClosed; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(dripClosed, "the server saw the connection closed");
});
