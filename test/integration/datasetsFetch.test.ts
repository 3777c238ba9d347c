/**
 * `parley datasets fetch` against a mirror on loopback: the real catalog's
 * source lists, the real files (served from the configured datasets
 * directory), real HTTP with Range requests. No request leaves loopback.
 */
import test from "node:test";
import assert from "node:assert/strict";
import {createServer, type IncomingMessage, type ServerResponse} from "node:http";
import {copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from "node:fs";
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

test("links planted in the datasets folder are never written through: a linked part, a linked folder, a linked file", {skip}, async () => {
  const server = await mirror();
  const outside = tmp.dir();
  const victim = join(outside, "victim.txt");
  writeFileSync(victim, "precious\n");

  // A part that is a link to a file elsewhere, and one that is a dangling link (following it would create a file elsewhere).
  for (const [linkTo, what] of [[victim, "an existing file"], [join(outside, "created.txt"), "a missing file"]] as const) {
    const dir = tmp.dir();
    mkdirSync(join(dir, "dealornodeal"));
    symlinkSync(linkTo, join(dir, `${VAL}.part`));
    const run = await fetchInto(dir, ["dond", "--mirror", server.url]);
    assert.equal(run.code, 1, what);
    const lines = run.stderr.split("\n").filter((l) => l.includes("val.txt"));
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0], /^parley datasets fetch: dond: dealornodeal\/val\.txt: .*val\.txt\.part is a symbolic link; not written through \(remove it and run again\)$/);
    assert.equal(readFileSync(victim, "utf8"), "precious\n", `${what}: the file the link points to is untouched`);
    assert.ok(!existsSync(join(outside, "created.txt")), `${what}: nothing is created where the link points`);
    assert.ok(!existsSync(join(dir, VAL)), `${what}: no dataset file stands for it`);
    assert.ok(lstatSync(join(dir, `${VAL}.part`)).isSymbolicLink(), "the planted link is left for the user to look at");
    assert.ok(existsSync(join(dir, "dealornodeal/LICENSE")), "the other file is fetched");
  }

  // A dataset folder that is a link out of the datasets folder: nothing is written there.
  const dir = tmp.dir();
  const elsewhere = tmp.dir();
  symlinkSync(elsewhere, join(dir, "dealornodeal"));
  const run = await fetchInto(dir, ["dond", "--mirror", server.url]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /^parley datasets fetch: dond: dealornodeal\/val\.txt: .*dealornodeal is a link out of the datasets folder \(to .*\); not written through$/m);
  assert.deepEqual(readdirSync(elsewhere), [], "nothing lands in the folder the link points to");

  // A dataset file that is a link out of the folder is read, never replaced: present when it holds the published file, else reported.
  const linked = tmp.dir();
  mkdirSync(join(linked, "dealornodeal"));
  const copy = join(outside, "val-copy.txt");
  copyFileSync(join(shared!, VAL), copy);
  symlinkSync(copy, join(linked, VAL));
  const present = await fetchInto(linked, ["dond", "--mirror", server.url]);
  assert.equal(present.code, 0, present.stderr);
  assert.deepEqual(JSON.parse(present.stdout).datasets.map((d: {present: number; fetched: number}) => [d.present, d.fetched]), [[1, 1]]);
  const other = tmp.dir();
  mkdirSync(join(other, "dealornodeal"));
  symlinkSync(victim, join(other, VAL));
  const kept = await fetchInto(other, ["dond", "--mirror", server.url]);
  assert.equal(kept.code, 1);
  assert.match(kept.stderr, /^parley datasets fetch: dond: dealornodeal\/val\.txt is a link out of the datasets folder \(to .*victim\.txt\); not touched$/m);
  assert.ok(lstatSync(join(other, VAL)).isSymbolicLink());
  assert.equal(readFileSync(victim, "utf8"), "precious\n");
});

test("a body larger than the file, announced or not, is cut at the listed size; a trickle and a silent server are abandoned", {skip}, async () => {
  const size = statSync(join(shared!, VAL)).size;
  // Announced: a Content-Length above the listed size is refused before anything is written.
  const announced = await mirror((path, _body, _req, res) => path === VAL && (res.writeHead(200, {"content-length": 3 * 1024 ** 3}).end(), true));
  const dir = tmp.dir();
  const big = await fetchInto(dir, ["dond", "--mirror", announced.url]);
  assert.equal(big.code, 1);
  assert.match(big.stderr, new RegExp(`^parley datasets fetch: dond: dealornodeal/val\\.txt: http://127\\.0\\.0\\.1:\\d+/dealornodeal/val\\.txt: the server announces 3221225472 bytes where ${size} were expected; nothing was written$`, "m"));
  assert.ok(!existsSync(join(dir, VAL)) && !existsSync(join(dir, `${VAL}.part`)));

  // Not announced: an endless chunked body stops one chunk past the listed size; the part is deleted.
  let sent = 0;
  const endless = await mirror((path, _body, _req, res) => {
    if (path !== VAL) return false;
    res.writeHead(200);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) sent += chunk.length;
      if (!res.destroyed) res.once("drain", pump);
    };
    res.on("close", () => res.removeAllListeners("drain"));
    pump();
    return true;
  });
  const dir2 = tmp.dir();
  const flood = await fetchInto(dir2, ["dond", "--mirror", endless.url]);
  assert.equal(flood.code, 1);
  assert.match(flood.stderr, new RegExp(`^parley datasets fetch: dond: dealornodeal/val\\.txt: http://127\\.0\\.0\\.1:\\d+/dealornodeal/val\\.txt: more than the ${size} bytes expected; the download was discarded$`, "m"));
  assert.ok(!existsSync(join(dir2, `${VAL}.part`)) && !existsSync(join(dir2, VAL)));
  assert.ok(sent < 64 * 1024 ** 2, `the client stopped reading (the server sent ${sent} bytes)`);
  assert.ok(!/\n\s+at /.test(flood.stderr), "no stack trace");

  // A trickle (a byte every 300 ms) is below the minimum rate; a server that never answers sends nothing at all.
  // Both are abandoned within the per-file deadline, with one line each, and what arrived is kept to resume.
  const trickle = await mirror((path, body, _req, res) => {
    if (path !== VAL) return false;
    res.writeHead(200, {"content-length": body.length});
    let at = 0;
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(body.subarray(at, ++at))), 300);
    res.on("close", () => clearInterval(timer));
    return true;
  });
  const silent = await mirror((path) => path === VAL);
  for (const [server, what] of [[trickle, "trickle"], [silent, "silence"]] as const) {
    const started = Date.now();
    const slow = await fetchInto(tmp.dir(), ["dond", "--mirror", server.url, "--min-rate", "1000", "--stall", "1", "--deadline", "4"]);
    const took = Date.now() - started;
    assert.equal(slow.code, 1, what);
    const lines = slow.stderr.split("\n").filter((l) => l.includes("val.txt"));
    assert.equal(lines.length, 1, slow.stderr);
    assert.match(lines[0], /^parley datasets fetch: dond: dealornodeal\/val\.txt: http:\/\/127\.0\.0\.1:\d+\/dealornodeal\/val\.txt: not fetched within the deadline of 4 s \((slower than 1000 bytes\/s|no answer|no data) for 1 s\)/, what);
    assert.ok(took < 15_000, `${what}: gave up after ${took} ms`);
  }
});

test("the limits are options: out-of-range values are refused with one line", async () => {
  for (const [flag, value] of [["--min-rate", "-1"], ["--stall", "0"], ["--deadline", "abc"]]) {
    const r = await fetchInto(tmp.dir(), ["dond", `${flag}=${value}`]);
    assert.equal(r.code, 2, `${flag} ${value}`);
    assert.match(r.stderr.trim(), new RegExp(`^parley datasets fetch: ${flag}: expected an integer from \\d+ to \\d+, got ${value}$`));
  }
});

test("a password in a mirror URL is never printed", {skip}, async () => {
  const server = await mirror((path, _body, _req, res) => path === VAL && (res.writeHead(404).end(), true));
  const secret = "s3cr3t-pass";
  const withCredentials = server.url.replace("http://", `http://reader:${secret}@`);
  const run = await fetchInto(tmp.dir(), ["dond", "--mirror", withCredentials]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /dealornodeal\/val\.txt: http:\/\/\*\*\*@127\.0\.0\.1:\d+\/dealornodeal\/val\.txt: HTTP 404 \(not found\)$/m);
  assert.ok(!run.stderr.includes(secret) && !run.stdout.includes(secret) && !run.stderr.includes("reader"), run.stderr + run.stdout);
  const unreachable = await fetchInto(tmp.dir(), ["dond", "--mirror", `http://reader:${secret}@127.0.0.1:1/?token=abc123`]);
  assert.equal(unreachable.code, 1);
  assert.ok(!unreachable.stderr.includes(secret) && !unreachable.stderr.includes("abc123"), unreachable.stderr);
});
