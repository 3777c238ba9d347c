// `parley serve` as a child process, sent hostile raw requests over a socket: each gets its answer and the server keeps serving.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawn, type ChildProcess} from "node:child_process";
import {connect} from "node:net";
import {existsSync, mkdtempSync, symlinkSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {once} from "node:events";
import {projectRoot} from "../../loaders/projectConfig.js";

/** Starts `parley serve <dir> --port 0`; resolves with the child and its port once it says where it listens. */
async function startServe(dir: string): Promise<{child: ChildProcess; port: number; stderr: () => string}> {
  const child = spawn(process.execPath, [join(projectRoot, "bin/parley.js"), "serve", dir, "--port", "0"], {stdio: ["ignore", "ignore", "pipe"]});
  let stderr = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on("data", (chunk) => {
      stderr += chunk;
      const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
      if (m) resolve(Number(m[1]));
    });
    child.on("exit", (code) => reject(new Error(`parley serve exited with ${code}: ${stderr}`)));
  });
  return {child, port, stderr: () => stderr};
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `request` verbatim and reads the whole answer; the request asks the
 * server to close the connection (a half-close from our side would make Node
 * drop responses that are still streaming).
 */
async function raw(port: number, request: string): Promise<RawResponse> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  socket.write(request);
  const chunks: Buffer[] = [];
  socket.on("data", (c) => chunks.push(c));
  await once(socket, "close");
  const text = Buffer.concat(chunks).toString("latin1");
  const [head, ...rest] = text.split("\r\n\r\n");
  const [statusLine, ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  return {status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n")};
}

const get = (path: string, extra = "") => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}Connection: close\r\n\r\n`;

test("parley serve answers malformed and unexpected requests and keeps serving", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-serve-"));
  writeFileSync(join(dir, "index.html"), "<p>home</p>");
  writeFileSync(join(dir, "data.parquet"), "0123456789");
  // A file whose reads fail (EIO) after the server has started answering: a stream error mid-response.
  const unreadable = existsSync("/proc/self/mem");
  if (unreadable) symlinkSync("/proc/self/mem", join(dir, "unreadable.bin"));
  const {child, port, stderr} = await startServe(dir);
  try {
    const stillServing = async () => {
      const home = await raw(port, get("/"));
      assert.equal(home.status, 200);
      assert.match(home.body, /home/);
    };

    for (const path of ["/%", "/%E0%A4%A", "/abc%zz", "/%00", "/index.html%00.html"]) {
      const r = await raw(port, get(path));
      assert.equal(r.status, 400, `${path}: ${r.status}`);
      await stillServing();
    }

    for (const method of ["POST", "DELETE", "PUT", "OPTIONS"]) {
      const r = await raw(port, `${method} /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi`);
      assert.equal(r.status, 405, method);
      assert.equal(r.headers.allow, "GET, HEAD");
      await stillServing();
    }

    // Ranges: nonsense is ignored (whole file), unsatisfiable is 416, huge numbers are not a crash.
    assert.equal((await raw(port, get("/data.parquet", "Range: bytes=abc\r\n"))).status, 200);
    assert.equal((await raw(port, get("/data.parquet", "Range: bytes=5-2\r\n"))).status, 416);
    assert.equal((await raw(port, get("/data.parquet", "Range: bytes=99999999999999999999999-\r\n"))).status, 416);
    const tail = await raw(port, get("/data.parquet", "Range: bytes=-99999999999999999999999\r\n"));
    assert.equal(tail.status, 206);
    assert.equal(tail.body, "0123456789");
    const piece = await raw(port, get("/data.parquet", "Range: bytes=2-4\r\n"));
    assert.equal(piece.status, 206);
    assert.equal(piece.body, "234");
    await stillServing();

    if (unreadable) {
      await raw(port, get("/unreadable.bin"));
      await stillServing();
    }
    assert.equal(child.exitCode, null, stderr());
  } finally {
    child.kill();
  }
});
