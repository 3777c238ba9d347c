/**
 * `parley datasets fetch` against a mirror on loopback: the real catalog's
 * source lists, the real files (served from the configured datasets
 * directory), real HTTP with Range requests. No request leaves loopback.
 */
import test from "node:test";
import assert from "node:assert/strict";
import {createServer, type IncomingMessage, type ServerResponse} from "node:http";
import {existsSync, mkdirSync, readFileSync, statSync, writeFileSync, copyFileSync} from "node:fs";
import {join} from "node:path";
import {createHash} from "node:crypto";
import type {AddressInfo} from "node:net";
import {datasetsConfig} from "../../loaders/projectConfig.js";
import {parley, scratch} from "../support/cli.js";

const shared = datasetsConfig().dir;
const skip = shared && existsSync(join(shared, "dealornodeal/val.txt")) && existsSync(join(shared, "negotiationarena")) ? false : "no datasets directory with dealornodeal/ and negotiationarena/ configured";
const tmp = scratch("parley-fetch-");
const VAL = "dealornodeal/val.txt";

interface Mirror {
  url: string;
  requests: {path: string; range?: string}[];
}

/**
 * A static server over the shared datasets; `handle` may take over a request
 * (return true) to misbehave. Honours `Range: bytes=N-` with 206.
 */
async function mirror(handle?: (path: string, body: Buffer, req: IncomingMessage, res: ServerResponse) => boolean): Promise<Mirror> {
  const requests: Mirror["requests"] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url!, "http://x").pathname.slice(1));
    requests.push({path, ...(req.headers.range ? {range: req.headers.range} : {})});
    const file = join(shared!, path);
    if (path.includes("..") || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end("not found");
    const body = readFileSync(file);
    if (handle?.(path, body, req, res)) return;
    const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? "")?.[1] ?? 0);
    if (from > 0) res.writeHead(206, {"content-length": body.length - from, "content-range": `bytes ${from}-${body.length - 1}/${body.length}`}).end(body.subarray(from));
    else res.writeHead(200, {"content-length": body.length}).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  tmp.keep({close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))});
  return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests};
}

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const fetchInto = (dir: string, args: string[]) => parley(["datasets", "fetch", ...args], {PARLEY_DATASETS: dir});

/** Sends the first `n` bytes of the body, announcing all of it, then drops the connection. */
function cutAfter(n: number, res: ServerResponse, body: Buffer): true {
  res.writeHead(200, {"content-length": body.length});
  // end(), not destroy(): the client gets all n bytes before the close, so the resume offset is exact.
  res.write(body.subarray(0, n), () => res.socket?.end());
  return true;
}

test("fetches from a mirror URL, byte for byte, and a second run finds everything in place", {skip}, async () => {
  const server = await mirror();
  const dir = tmp.dir();
  const first = await fetchInto(dir, ["dond", "negotiationarena", "--mirror", server.url]);
  assert.equal(first.code, 0, first.stderr);
  const summary = JSON.parse(first.stdout);
  assert.deepEqual(summary.datasets.map((d: {id: string; fetched: number; files: number}) => [d.id, d.fetched, d.files]), [["dond", 2, 2], ["negotiationarena", 8, 8]]);
  for (const path of [VAL, "dealornodeal/LICENSE", "negotiationarena/1707347676639/game_state.json"]) {
    assert.ok(readFileSync(join(dir, path)).equals(readFileSync(join(shared!, path))), path);
  }
  assert.match(first.stderr, /fetch dond: 2\/2 files, 0\.5 of 0\.5 MB/);
  const requested = server.requests.length;
  const again = await fetchInto(dir, ["dond", "negotiationarena", "--mirror", server.url]);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(JSON.parse(again.stdout).datasets.map((d: {present: number}) => d.present), [2, 8]);
  assert.equal(server.requests.length, requested, "nothing is requested again");
});

test("a cut connection resumes with a Range request, within a run and in the next run", {skip}, async () => {
  const size = statSync(join(shared!, VAL)).size;
  // Within one run: the first answer is cut after 100,000 bytes, the retry asks for the rest.
  let cut = true;
  const flaky = await mirror((path, body, req, res) => path === VAL && !req.headers.range && cut && ((cut = false), cutAfter(100_000, res, body)));
  const dir = tmp.dir();
  const run = await fetchInto(dir, ["dond", "--mirror", flaky.url]);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(flaky.requests.filter((r) => r.path === VAL).map((r) => r.range), [undefined, "bytes=100000-"]);
  assert.ok(readFileSync(join(dir, VAL)).equals(readFileSync(join(shared!, VAL))));

  // Across runs: a server that always cuts leaves the part and no file; the next run resumes it.
  const broken = await mirror((path, body, req, res) => {
    if (path !== VAL) return false;
    if (req.headers.range) return void req.socket.destroy(), true;
    return cutAfter(200_000, res, body);
  });
  const dir2 = tmp.dir();
  const failed = await fetchInto(dir2, ["dond", "--mirror", broken.url]);
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /dealornodeal\/val\.txt: .*200000 bytes kept in .*val\.txt\.part, run again to resume/);
  assert.ok(!existsSync(join(dir2, VAL)), "no file stands in for the incomplete download");
  assert.equal(statSync(join(dir2, `${VAL}.part`)).size, 200_000);
  assert.ok(existsSync(join(dir2, "dealornodeal/LICENSE")), "the other file is fetched");
  const healthy = await mirror();
  const resumed = await fetchInto(dir2, ["dond", "--mirror", healthy.url]);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.deepEqual(healthy.requests, [{path: VAL, range: "bytes=200000-"}]);
  assert.equal(statSync(join(dir2, VAL)).size, size);
  assert.ok(readFileSync(join(dir2, VAL)).equals(readFileSync(join(shared!, VAL))));
  assert.ok(!existsSync(join(dir2, `${VAL}.part`)));
});

test("a file whose checksum does not match is rejected and nothing is left in its place", {skip}, async () => {
  const altered = readFileSync(join(shared!, VAL));
  const published = sha256(altered);
  altered[1000] ^= 1;
  const server = await mirror((path, _body, _req, res) => path === VAL && (res.writeHead(200, {"content-length": altered.length}).end(altered), true));
  const dir = tmp.dir();
  const run = await fetchInto(dir, ["dond", "--mirror", server.url]);
  assert.equal(run.code, 1);
  const lines = run.stderr.split("\n").filter((l) => l.includes("val.txt"));
  assert.equal(lines.length, 1, run.stderr);
  assert.match(lines[0], /^parley datasets fetch: dond: dealornodeal\/val\.txt: http:\/\/127\.0\.0\.1:\d+\/dealornodeal\/val\.txt: sha256 (\w+) where (\w+) was expected; the download was discarded$/);
  assert.deepEqual(/sha256 (\w+) where (\w+)/.exec(lines[0])!.slice(1), [sha256(altered), published]);
  assert.ok(!existsSync(join(dir, VAL)) && !existsSync(join(dir, `${VAL}.part`)));
  assert.ok(existsSync(join(dir, "dealornodeal/LICENSE")));
});

test("a directory mirror, a 404, an unreachable host and a file of the user's each give one clear line", {skip}, async () => {
  // Directory mirror: a folder laid out like the datasets directory.
  const mirrorDir = tmp.dir();
  for (const name of ["val.txt", "LICENSE"]) {
    mkdirSync(join(mirrorDir, "dealornodeal"), {recursive: true});
    copyFileSync(join(shared!, "dealornodeal", name), join(mirrorDir, "dealornodeal", name));
  }
  const dir = tmp.dir();
  const fromDir = await fetchInto(dir, ["dond", "--mirror", mirrorDir]);
  assert.equal(fromDir.code, 0, fromDir.stderr);
  assert.ok(readFileSync(join(dir, VAL)).equals(readFileSync(join(shared!, VAL))));

  const server = await mirror((path, _body, _req, res) => path === VAL && (res.writeHead(404).end(), true));
  const missing = await fetchInto(tmp.dir(), ["dond", "--mirror", server.url]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^parley datasets fetch: dond: dealornodeal\/val\.txt: http:\/\/127\.0\.0\.1:\d+\/dealornodeal\/val\.txt: HTTP 404 \(not found\)$/m);

  // Nothing listens on port 1 of loopback: the same as a host that cannot be reached.
  const nowhere = await fetchInto(tmp.dir(), ["dond", "--mirror", `http://127.0.0.1:1/`]);
  assert.equal(nowhere.code, 1);
  assert.equal(nowhere.stderr.trim().split("\n").filter((l) => l.startsWith("parley")).length, 1, nowhere.stderr);
  assert.match(nowhere.stderr, /parley datasets fetch: dond: cannot reach 127\.0\.0\.1:1 \(ECONNREFUSED\): no network\?/);

  // A different file already at the target is the user's: kept and reported.
  const mine = tmp.dir();
  mkdirSync(join(mine, "dealornodeal"));
  writeFileSync(join(mine, VAL), "my own notes\n");
  const kept = await fetchInto(mine, ["dond", "--mirror", mirrorDir]);
  assert.equal(kept.code, 1);
  assert.match(kept.stderr, /dealornodeal\/val\.txt exists and differs from the published file/);
  assert.equal(readFileSync(join(mine, VAL), "utf8"), "my own notes\n");

  const unknown = await fetchInto(tmp.dir(), ["glee", "--mirror", mirrorDir]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /"glee" has no published files to fetch \(it is generated at build time\)/);
});

test("GLEE's files, served with CRLF line ends as its repository has them, are checked and written as LF", {skip: skip || !existsSync(join(shared!, "glee-human")) ? "no glee-human in the datasets directory" : false}, async () => {
  const server = await mirror((path, body, _req, res) => {
    if (!path.startsWith("glee-human/")) return false;
    const crlf = Buffer.from(body.toString("latin1").replaceAll("\n", "\r\n"), "latin1");
    res.writeHead(200, {"content-length": crlf.length}).end(crlf);
    return true;
  });
  const dir = tmp.dir();
  const run = await fetchInto(dir, ["glee-human", "--mirror", server.url]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).datasets[0].fetched, 150);
  const game = "glee-human/bargaining/0003852CF8408F00/game.csv";
  assert.ok(readFileSync(join(dir, game)).equals(readFileSync(join(shared!, game))));
  assert.ok(!readFileSync(join(dir, game), "latin1").includes("\r"));
});
