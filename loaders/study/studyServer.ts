/**
 * The HTTP server of `parley play`: participants' pages and their API, and
 * the experimenter's admin page. It holds the API keys and makes the LLM
 * calls (liveGames.ts); the browser only ever receives the participant's
 * own view (the experiment's texts, the seat's observation and the legal
 * actions, the completion code once earned), never a key or another seat's
 * private facts. Access rules: access.ts.
 *
 * Participant routes (`<id>`: 22 random base64url characters):
 *   GET  /p/new                  assigns a condition (balanced), redirects to /p/<id>
 *   GET  /p/<id>                 the study page (static HTML; /assets/study.js and .css)
 *   GET  /api/p/<id>             where the participant stands, as JSON
 *   POST /api/p/<id>/consent     {agree: boolean}
 *   POST /api/p/<id>/attention   {answer: string}
 *   POST /api/p/<id>/move        {action, after?, token?}: 200 with the new state, or 422 {error} (nothing changed);
 *                                409 when `after` (the moves the page had seen received) is behind: a move sent twice;
 *                                a move whose `token` was accepted already is not played again (200, the state)
 *   POST /api/p/<id>/retry       rebuild a game whose LLM endpoint failed
 *   POST /api/p/<id>/quiz        {answers: number[]}
 * `/p/new` resumes rather than repeats: a browser that holds a participant's
 * cookie (set by `/p/new`), or a link whose panel id (PROLIFIC_PID, workerId,
 * the experiment's `panel`) a participant already has, goes back to that
 * participant; the panel's parameters in the link are kept with a new one.
 * A panel id is taken only when the participant is made: one that a later
 * link brings to a participant without one is refused (kept as a refused
 * attempt, shown on the admin page), never attached.
 * Admin (token): GET /admin (adminPages.ts), /admin/live (its live part),
 *   /admin/admin.js, /admin/progress.json, /admin/participants.json,
 *   /admin/csv/<table>.csv, /admin/p/<id> (one participant's game),
 *   /admin/tables.tar, and
 *   /admin/new?condition=<id>: a new participant in that condition (not
 *   assigned at random), redirected to their page; for pilots and demos.
 */
import {createServer, type IncomingMessage, type Server, type ServerResponse} from "node:http";
import type {AddressInfo} from "node:net";
import {readdirSync, readFileSync, realpathSync} from "node:fs";
import {join} from "node:path";
import {tar} from "../io/tar.js";
import {bearer, cookie, FailureThrottle, isLoopbackAddress, isLoopbackHost, isLoopbackHostHeader, notAPersonOpeningTheLink, peerOf, RateLimit, sameToken, setCookie} from "./access.js";
import {PARTICIPANT_ID, panelInfo, refusePanelId, type Participant} from "./participants.js";
import {StepError, type Study} from "./study.js";
import {progress} from "./progress.js";
import {ADMIN_SCRIPT, adminLive, adminPage, CSV_TABLES, escapeHtml, participantLines, participantPage, spreadsheetCsv, type CsvTable} from "./adminPages.js";
import {participantRow} from "./studyTables.js";
import {queryRun, RunTablesMissing} from "../io/parquet.js";

export interface StudyServerOptions {
  study: Study;
  out: string;
  host: string;
  port: number;
  /** Required of every participant request when the server is exposed (a non-loopback --host). */
  playToken: string | null;
  adminToken: string;
  assets: {js: string; css: string};
}

export interface StudyServer {
  server: Server;
  /** Base URL (http://host:port). */
  url: string;
  /** The link to give participants (with the access token when exposed). */
  participantLink: string;
  adminLink: string;
  close(): Promise<void>;
}

/** A request the server refuses: status and one line for the body. */
class Refusal extends Error {
  constructor(readonly status: number, message: string, readonly headers: Record<string, string> = {}) {
    super(message);
  }
}

const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

const MAX_BODY = 64 * 1024;

export {escapeHtml};

/** The cookie that brings a browser back to its participant from `/p/new` (Lax: sent when a panel's page links here). */
const PARTICIPANT_COOKIE = "parley_participant";
const participantCookie = (id: string) => `${PARTICIPANT_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${60 * 60 * 24 * 90}`;
/** A move's token as the page sends it. */
const MOVE_TOKEN = /^[A-Za-z0-9_-]{8,64}$/;

function studyPage(title: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="stylesheet" href="/assets/study.css"></head>
<body><main id="study" class="parley-study"><p class="parley-loading">Loading…</p></main><script type="module" src="/assets/study.js"></script></body></html>
`;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/i.test(req.headers["content-type"] ?? "")) throw new Refusal(415, "expected a JSON body (content-type: application/json)");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Refusal(413, `the body is larger than ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new Refusal(400, "the body is not valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new Refusal(400, "expected a JSON object");
  return body as Record<string, unknown>;
}

/** New participants from `/p/new`: per peer 60 at once then 6 a minute; in all 600 at once then 60 a minute. */
export const NEW_PARTICIPANT_LIMITS = {peer: {burst: 60, perMinute: 6}, all: {burst: 600, perMinute: 60}};

export function startStudyServer(options: StudyServerOptions): Promise<StudyServer> {
  const {study} = options;
  const {experiment, store} = study;
  const exposed = !isLoopbackHost(options.host);
  if (exposed && !options.playToken) throw new Error(`--host ${options.host} exposes the server: an access token is required`);

  // Guessing, slowed per peer: wrong admin tokens, wrong access tokens, unknown participant links (access.ts).
  const adminFailures = new FailureThrottle();
  const playFailures = new FailureThrottle();
  const linkFailures = new FailureThrottle();
  const newParticipants = new RateLimit(NEW_PARTICIPANT_LIMITS.peer, NEW_PARTICIPANT_LIMITS.all);
  const seconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));
  /** 429 while `peer` is paused by `throttle`: its credential is not even looked at. */
  const refuseWhilePaused = (throttle: FailureThrottle, peer: string) => {
    const ms = throttle.paused(peer);
    if (ms > 0) throw new Refusal(429, `too many failed attempts from your address; try again in ${seconds(ms)} s`, {"retry-after": seconds(ms)});
  };

  /** What a participant's link carries on an exposed server: the access token. */
  const participantQuery = exposed ? `?t=${encodeURIComponent(options.playToken!)}` : "";

  const send = (res: ServerResponse, status: number, body: string | Buffer, type: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, {...SECURITY_HEADERS, "content-type": type, "content-length": String(Buffer.byteLength(body)), ...headers});
    res.end(body);
  };
  const json = (res: ServerResponse, status: number, value: unknown) => send(res, status, JSON.stringify(value), "application/json; charset=utf-8");

  /** When each participant's page last asked anything (this process; the admin page's idle times). */
  const lastSeen = new Map<string, number>();

  async function participantApi(p: Participant, action: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    lastSeen.set(p.id, Date.now());
    if (!action) {
      if (req.method !== "GET") throw new Refusal(405, "use GET", {allow: "GET"});
      return json(res, 200, await study.view(p));
    }
    if (req.method !== "POST") throw new Refusal(405, "use POST", {allow: "POST"});
    const body = await readJson(req);
    switch (action) {
      case "consent":
        await study.consent(p, body.agree);
        break;
      case "attention":
        await study.attention(p, body.answer ?? "");
        break;
      case "move": {
        if (!("action" in body)) throw new Refusal(400, "expected {action: your move}");
        const after = body.after;
        if (after !== undefined && !(Number.isSafeInteger(after) && (after as number) >= 0)) throw new Refusal(400, "after: expected the number of your moves the page has seen received");
        const token = body.token;
        if (token !== undefined && !(typeof token === "string" && MOVE_TOKEN.test(token))) throw new Refusal(400, "token: expected 8 to 64 letters, digits, _ or -");
        const refused = await study.move(p, body.action, after as number | undefined, token as string | undefined);
        if (refused) return json(res, refused.stale ? 409 : 422, {...refused, state: await study.view(p)});
        break;
      }
      case "retry":
        await study.retry(p);
        break;
      case "quiz":
        await study.quiz(p, body.answers);
        break;
      default:
        throw new Refusal(404, "not found");
    }
    json(res, 200, await study.view(p));
  }

  function checkAdmin(req: IncomingMessage, url: URL): {setCookie?: string} {
    const peer = peerOf(req);
    const query = url.searchParams.get("token");
    const given = [bearer(req), cookie(req, "parley_admin"), query];
    const presented = given.some((t) => t !== null);
    if (presented) refuseWhilePaused(adminFailures, peer);
    if (sameToken(given[0], options.adminToken) || sameToken(given[1], options.adminToken)) {
      adminFailures.succeeded(peer);
      return {};
    }
    if (sameToken(query, options.adminToken)) {
      adminFailures.succeeded(peer);
      return {setCookie: setCookie("parley_admin", options.adminToken, "/admin")};
    }
    // A request with no token at all is no guess; a wrong one counts against the peer.
    if (presented) adminFailures.failed(peer);
    throw new Refusal(401, "the admin pages need the admin token (printed when the server started; PARLEY_ADMIN_TOKEN): /admin?token=<token> or Authorization: Bearer <token>", {"www-authenticate": 'Bearer realm="parley play admin"'});
  }

  async function admin(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const auth = checkAdmin(req, url);
    if (req.method !== "GET") throw new Refusal(405, "use GET", {allow: "GET"});
    if (auth.setCookie) {
      // Keep the token out of the address bar (and of the history) once the cookie holds it.
      const rest = new URLSearchParams(url.searchParams);
      rest.delete("token");
      res.writeHead(303, {...SECURITY_HEADERS, location: url.pathname + (rest.size ? `?${rest}` : ""), "set-cookie": auth.setCookie});
      return void res.end();
    }
    const rows = progress(experiment, store.all());
    const now = Date.now();
    if (url.pathname === "/admin/progress.json") return json(res, 200, {experiment: experiment.id, conditions: rows});
    if (url.pathname === "/admin/participants.json") return json(res, 200, {experiment: experiment.id, participants: participantLines(store.all(), now, lastSeen)});
    if (url.pathname === "/admin/live") return send(res, 200, adminLive(rows, participantLines(store.all(), now, lastSeen), now), "text/html; charset=utf-8");
    if (url.pathname === "/admin/admin.js") return send(res, 200, ADMIN_SCRIPT, "text/javascript; charset=utf-8");
    const csvPath = /^\/admin\/csv\/([a-z]+)\.csv$/.exec(url.pathname);
    if (csvPath) {
      const table = csvPath[1] as CsvTable;
      if (!CSV_TABLES.includes(table)) throw new Refusal(404, `no table ${table}; expected one of ${CSV_TABLES.join(", ")}`);
      const data = await tableCsv(table);
      return send(res, 200, data, "text/csv; charset=utf-8", {"content-disposition": `attachment; filename="${experiment.id}-${table}.csv"`});
    }
    const one = /^\/admin\/p\/([^/]+)$/.exec(url.pathname);
    if (one) {
      const p = store.get(one[1]);
      if (!p) throw new Refusal(404, "no participant has this id");
      const line = participantLines([p], now, lastSeen)[0];
      return send(res, 200, participantPage(experiment, p, line, study.records.byParticipant.get(p.id)), "text/html; charset=utf-8");
    }
    // The stylesheet again under /admin: an exposed server's /assets need the participants' token, which the experimenter may not carry.
    if (url.pathname === "/admin/study.css") return send(res, 200, options.assets.css, "text/css; charset=utf-8");
    if (url.pathname === "/admin/tables.tar") {
      return send(res, 200, tablesArchive(options.out), "application/x-tar", {"content-disposition": `attachment; filename="${experiment.id}-tables.tar"`});
    }
    if (url.pathname === "/admin/new") {
      const condition = url.searchParams.get("condition") ?? "";
      if (!experiment.conditions.some((c) => c.id === condition)) throw new Refusal(400, `expected ?condition= one of ${experiment.conditions.map((c) => c.id).join(", ")}, got ${JSON.stringify(condition)}`);
      const p = store.create(Date.now(), condition);
      res.writeHead(303, {...SECURITY_HEADERS, location: `/p/${p.id}${participantQuery}`});
      return void res.end();
    }
    if (url.pathname === "/admin" || url.pathname === "/admin/") return send(res, 200, adminPage(experiment, adminLive(rows, participantLines(store.all(), now, lastSeen), now)), "text/html; charset=utf-8");
    throw new Refusal(404, "not found");
  }

  /** A table as CSV: participants from the store (as they are now), the game tables from the current table set (empty until a game is over). */
  async function tableCsv(table: CsvTable): Promise<string> {
    if (table === "participants") return spreadsheetCsv(store.all().map((p) => participantRow(p, experiment, study.records.byParticipant.has(p.id))));
    try {
      return spreadsheetCsv(await queryRun(options.out, [table], `SELECT * FROM ${table}`));
    } catch (error) {
      if (error instanceof RunTablesMissing || (error as NodeJS.ErrnoException).code === "ENOENT") return "";
      throw error;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!exposed) {
      if (!isLoopbackAddress(req.socket.remoteAddress)) throw new Refusal(403, "this server answers only this machine (start it with --host to let other machines in)");
      if (!isLoopbackHostHeader(req.headers.host)) throw new Refusal(403, "this server answers only requests addressed to 127.0.0.1 or localhost");
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    // Browsers ask for an icon on every page: answer "none" rather than a 404 in the participant's console.
    if (url.pathname === "/favicon.ico") return send(res, 204, "", "image/x-icon");
    if (url.pathname === "/admin" || url.pathname.startsWith("/admin/")) return admin(req, res, url);

    const headers: Record<string, string> = {};
    const peer = peerOf(req);
    if (exposed) {
      const given = url.searchParams.get("t");
      const kept = cookie(req, "parley_play");
      if (given !== null || kept !== null) refuseWhilePaused(playFailures, peer);
      if (sameToken(given, options.playToken!)) headers["set-cookie"] = setCookie("parley_play", options.playToken!, "/");
      else if (!sameToken(kept, options.playToken!)) {
        if (given !== null || kept !== null) playFailures.failed(peer);
        throw new Refusal(403, "this study's links carry an access token; open the link you were given");
      }
      playFailures.succeeded(peer);
    }

    if (req.method === "GET" && url.pathname === "/assets/study.js") return send(res, 200, options.assets.js, "text/javascript; charset=utf-8", headers);
    if (req.method === "GET" && url.pathname === "/assets/study.css") return send(res, 200, options.assets.css, "text/css; charset=utf-8", headers);
    if (req.method === "GET" && url.pathname === "/") {
      return send(res, 200, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(experiment.title)}</title></head><body><p>${escapeHtml(experiment.title)}: <a href="/p/new${escapeHtml(participantQuery)}">take part</a>.</p></body></html>`, "text/html; charset=utf-8", headers);
    }
    if (req.method === "GET" && url.pathname === "/p/new") {
      // A participant counts as started for a while (participants.ts PENDING_MS): only people opening the link make one, at a bounded rate.
      const why = notAPersonOpeningTheLink(req);
      if (why) throw new Refusal(403, `${why}; a participant is made only by opening the study's link: open the study's link in your browser`);
      // One person, one participant: the panel's id in the link, else this browser's cookie, goes back to theirs.
      const panel = panelInfo(url.searchParams, experiment.panel);
      const kept = store.get(cookie(req, PARTICIPANT_COOKIE) ?? "");
      let p = panel.id !== null ? store.byPanelId(panel.id) : kept;
      // This browser's participant came without a panel id and a link now brings one. Another site can send a browser to any
      // link, so the id is not attached (payments matched on it would go to whoever chose it): a panel id is taken only at a
      // participant's first arrival. The browser goes back to its participant; the id is kept as refused, for the admin.
      // (Another id on a browser whose participant has one is another person: a shared computer, a new participant.)
      if (!p && kept && panel.id !== null && !kept.panel_id) {
        p = kept;
        refusePanelId(p, panel, Date.now());
        store.save(p);
      }
      if (!p) {
        const wait = newParticipants.take(peer);
        if (wait > 0) throw new Refusal(429, `too many new participants at once; try again in ${seconds(wait)} s`, {"retry-after": seconds(wait)});
        p = store.create(Date.now(), undefined, panel);
      }
      const cookies = [...(headers["set-cookie"] ? [headers["set-cookie"]] : []), participantCookie(p.id)];
      res.writeHead(303, {...SECURITY_HEADERS, ...headers, "set-cookie": cookies, location: `/p/${p.id}${participantQuery}`});
      return void res.end();
    }
    // A participant's link is their key: unknown ones count against the peer (known ones do not reset the count, as everyone holds one).
    const page = /^\/p\/([^/]+)$/.exec(url.pathname);
    if (page) {
      if (req.method !== "GET") throw new Refusal(405, "use GET", {allow: "GET"});
      refuseWhilePaused(linkFailures, peer);
      if (!PARTICIPANT_ID.test(page[1]) || !store.get(page[1])) {
        linkFailures.failed(peer);
        throw new Refusal(404, "no participant has this link; start at /p/new");
      }
      return send(res, 200, studyPage(experiment.title), "text/html; charset=utf-8", headers);
    }
    const api = /^\/api\/p\/([^/]+)(?:\/([a-z]+))?$/.exec(url.pathname);
    if (api) {
      refuseWhilePaused(linkFailures, peer);
      const p = store.get(api[1]);
      if (!p) {
        linkFailures.failed(peer);
        throw new Refusal(404, "no participant has this id");
      }
      return participantApi(p, api[2] ?? "", req, res);
    }
    throw new Refusal(404, "not found");
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const refusal = error instanceof Refusal ? error : error instanceof StepError ? new Refusal(error.status, error.message) : null;
      if (!refusal) process.stderr.write(`parley play: ${req.method} ${req.url?.split("?")[0]}: ${(error as Error)?.stack ?? error}\n`);
      if (res.headersSent) return void res.destroy();
      const status = refusal?.status ?? 500;
      const message = refusal?.message ?? "internal error";
      const wantsJson = (req.url ?? "").startsWith("/api/") || (req.url ?? "").endsWith(".json");
      if (wantsJson) send(res, status, JSON.stringify({error: message}), "application/json; charset=utf-8", refusal?.headers);
      else send(res, status, message + "\n", "text/plain; charset=utf-8", refusal?.headers);
    });
  });
  // A participant's move waits for the LLM's reply: allow it a few minutes.
  server.requestTimeout = 10 * 60_000;

  return new Promise<StudyServer>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      const {port} = server.address() as AddressInfo;
      const host = options.host.includes(":") ? `[${options.host}]` : options.host;
      const url = `http://${host}:${port}`;
      resolve({
        server, url,
        participantLink: `${url}/p/new${participantQuery}`,
        adminLink: `${url}/admin?token=${encodeURIComponent(options.adminToken)}`,
        close: () => new Promise((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}

/** The current table set of `out` as a tar archive (one generation, read through the `current` link, so never a mix). */
export function tablesArchive(out: string): Buffer {
  for (let attempt = 0; ; attempt++) {
    try {
      const generation = realpathSync(join(out, ".parley", "tables", "current"));
      const members: Record<string, Uint8Array> = {};
      for (const entry of readdirSync(generation, {withFileTypes: true})) {
        if (entry.isFile() && (entry.name.endsWith(".parquet") || entry.name === "tables.json")) members[entry.name] = readFileSync(join(generation, entry.name));
        if (entry.isDirectory() && entry.name.startsWith("game=")) {
          for (const name of readdirSync(join(generation, entry.name))) if (name.endsWith(".parquet")) members[`${entry.name}/${name}`] = readFileSync(join(generation, entry.name, name));
        }
      }
      return tar(members);
    } catch (error) {
      // A new set was switched in while this one was being read (its generation deleted): read the new one.
      if ((error as NodeJS.ErrnoException).code === "ENOENT" && attempt < 3) continue;
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return tar({});
      throw error;
    }
  }
}
