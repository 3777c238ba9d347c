/**
 * A static file server for a built site, bound to 127.0.0.1. Used by
 * `parley serve` and by the browser tests. Answers Range requests, since
 * DuckDB-WASM may read Parquet files in pieces.
 *
 * Any page open in a browser can send it anything, so no request may stop
 * it: a path that does not decode or names a NUL byte gets 400, methods
 * other than GET and HEAD get 405, and an exception or a stream error while
 * answering ends that one response (500 if nothing was sent yet), never the
 * process.
 */
import {createServer, type IncomingMessage, type Server, type ServerResponse} from "node:http";
import {createReadStream, existsSync, statSync} from "node:fs";
import {pipeline} from "node:stream";
import {extname, join, normalize, resolve, sep} from "node:path";

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".parquet": "application/vnd.apache.parquet",
  ".arrow": "application/vnd.apache.arrow.file",
  ".csv": "text/csv; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".woff2": "font/woff2",
};

export interface StaticServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

class BadRequest extends Error {}

/** The decoded path of a request URL; BadRequest for invalid percent-encoding or a NUL byte (which no file name holds). */
function decodedPath(url: string): string {
  let path: string;
  try {
    path = decodeURIComponent(url.split(/[?#]/)[0]);
  } catch {
    throw new BadRequest("invalid percent-encoding in the path");
  }
  if (path.includes("\0")) throw new BadRequest("NUL byte in the path");
  return path;
}

/** Resolves a URL path to a file under root, Framework style: /page -> page.html, /dir/ -> dir/index.html. */
function fileFor(root: string, urlPath: string): string | null {
  const clean = normalize(decodedPath(urlPath)).replace(/^([/\\])+/, "");
  const base = resolve(root, clean);
  if (base !== root && !base.startsWith(root + sep)) return null;
  for (const candidate of [base, base + ".html", join(base, "index.html")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Sends `file` (or bytes start..end of it) as the body; a read error ends this response only. */
function sendFile(res: ServerResponse, file: string, range?: {start: number; end: number}): void {
  pipeline(createReadStream(file, range), res, (error) => {
    if (error && !res.destroyed) res.destroy();
  });
}

function answer(root: string, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, {allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8"});
    res.end("Method not allowed: this server only reads files\n");
    return;
  }
  const file = fileFor(root, req.url ?? "/");
  if (!file) {
    const notFound = join(root, "404.html");
    res.writeHead(404, {"content-type": types[".html"]});
    if (req.method === "HEAD") res.end();
    else if (existsSync(notFound)) sendFile(res, notFound);
    else res.end("Not found");
    return;
  }
  const size = statSync(file).size;
  const headers: Record<string, string | number> = {"content-type": types[extname(file)] ?? "application/octet-stream", "accept-ranges": "bytes"};
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
  if (range && (range[1] || range[2])) {
    const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start >= size || start > end) {
      res.writeHead(416, {"content-range": `bytes */${size}`});
      res.end();
      return;
    }
    res.writeHead(206, {...headers, "content-range": `bytes ${start}-${end}/${size}`, "content-length": end - start + 1});
    if (req.method === "HEAD") res.end();
    else sendFile(res, file, {start, end});
    return;
  }
  res.writeHead(200, {...headers, "content-length": size});
  if (req.method === "HEAD") res.end();
  else sendFile(res, file);
}

export function serveStatic(dir: string, port = 0): Promise<StaticServer> {
  const root = resolve(dir);
  if (!existsSync(root)) throw new Error(`serve: ${root} does not exist (run "npm run build" first)`);
  const server = createServer((req, res) => {
    try {
      answer(root, req, res);
    } catch (error) {
      const bad = error instanceof BadRequest;
      if (res.headersSent) res.destroy();
      else {
        res.writeHead(bad ? 400 : 500, {"content-type": "text/plain; charset=utf-8"});
        res.end(bad ? `Bad request: ${error.message}\n` : "Internal error\n");
      }
    }
  });
  return new Promise((resolveServer, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const actual = typeof address === "object" && address ? address.port : port;
      resolveServer({
        url: `http://127.0.0.1:${actual}`,
        server,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
