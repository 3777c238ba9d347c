/**
 * Who may talk to a `parley play` server.
 *
 * - Not exposed (the default, bound to 127.0.0.1): a request must come from
 *   a loopback address and name a loopback host (`Host: 127.0.0.1:<port>`,
 *   `localhost`, `[::1]`); anything else gets 403. The Host check keeps a web
 *   page elsewhere from reaching the server through a DNS name that resolves
 *   to 127.0.0.1 (DNS rebinding).
 * - Exposed (`--host` on another interface): every participant request must
 *   carry the access token, in the link (`?t=<token>`, after which a cookie
 *   carries it) or the cookie; without it, 403.
 * - `/admin` always needs the admin token (`Authorization: Bearer`, `?token=`
 *   then a cookie); without it, 401.
 * Tokens are compared in constant time. Tokens given through the
 * environment must look random (`tokenProblem`); guessing is slowed per
 * peer (`FailureThrottle`: after a few wrong tokens or unknown participant
 * links, the peer's credential-bearing requests get 429 for a pause that
 * doubles with each further failure); `/p/new` makes a participant only for a
 * person opening the link (`notAPersonOpeningTheLink`: no request from within
 * another site's page) and at a bounded rate (`RateLimit`, per peer and overall).
 */
import type {IncomingMessage} from "node:http";
import {isIP} from "node:net";
import {randomBytes, timingSafeEqual} from "node:crypto";

export const newToken = (): string => randomBytes(24).toString("base64url");

/** Whether `address` (a socket's remote address) is a loopback address. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith("127.");
  return address === "::1";
}

/** Whether a --host value binds to loopback only. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || isLoopbackAddress(host);
}

/** Whether a Host header names this machine's loopback (with any port). */
export function isLoopbackHostHeader(header: string | undefined): boolean {
  if (!header) return false;
  const name = header.startsWith("[") ? header.slice(0, header.indexOf("]") + 1) : header.replace(/:\d+$/, "");
  return name === "localhost" || name === "[::1]" || isLoopbackAddress(name);
}

export function sameToken(given: string | null | undefined, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The value of cookie `name` in the request, or null. A value that is not
 * valid percent-encoding (`parley_admin=%`) is returned as sent: it matches
 * no token, so it is refused like any wrong one (never an error).
 */
export function cookie(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return null;
}

/** The characters a token given through the environment may hold (safe in a link, a cookie and a header). */
const TOKEN = /^[A-Za-z0-9\-_.~+/=]+$/;
export const MIN_TOKEN_LENGTH = 16;

/**
 * Why `token` (from the environment variable `name`) is too weak to guard
 * the server, or null: at least 16 characters from the link-safe set, at
 * least 8 of them different (so neither "x" nor "aaaaaaaaaaaaaaaaaaaa" passes).
 * The token itself is never part of the message.
 */
export function tokenProblem(name: string, token: string): string | null {
  const strong = token.length >= MIN_TOKEN_LENGTH && token.length <= 1024 && TOKEN.test(token) && new Set(token).size >= 8;
  return strong ? null : `${name}: expected a random token of at least ${MIN_TOKEN_LENGTH} characters (letters, digits and -_.~+/=, at least 8 different), e.g. from "openssl rand -base64 24"; or unset it to have one generated`;
}

/**
 * The peer a request counts against: its IPv4 address, or the /64 prefix of
 * an IPv6 one (one host usually holds a whole /64, so counting single
 * addresses would let it rotate through them).
 */
export function peerOf(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? "";
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4;
  if (isIP(address) !== 6) return address;
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/**
 * Failed attempts per peer (wrong tokens, unknown participant links): the
 * first `free` cost nothing; each one after that pauses the peer for 1 s,
 * then 2, 4, … up to `maxPauseMs`, during which its requests that carry a
 * credential are answered 429 without being checked (so a guess cannot be
 * tried at all). A peer's count is forgotten after `forgetMs` without a
 * failure, or at a success where `resetOnSuccess` (a correct admin token:
 * nobody can hold it to reset the count while guessing another).
 */
export class FailureThrottle {
  private readonly peers = new Map<string, {failures: number; last: number; until: number}>();

  constructor(
    private readonly free = 10,
    private readonly maxPauseMs = 15 * 60_000,
    private readonly forgetMs = 60 * 60_000,
    private readonly maxPeers = 100_000,
  ) {}

  /** Milliseconds `peer` must still wait before a credential of theirs is checked, or 0. */
  paused(peer: string, now = Date.now()): number {
    const entry = this.peers.get(peer);
    return entry ? Math.max(0, entry.until - now) : 0;
  }

  failed(peer: string, now = Date.now()): void {
    let entry = this.peers.get(peer);
    if (entry && now - entry.last > this.forgetMs) entry = undefined;
    this.peers.delete(peer);
    entry ??= {failures: 0, last: now, until: 0};
    entry.failures++;
    entry.last = now;
    if (entry.failures > this.free) entry.until = now + Math.min(1000 * 2 ** Math.min(30, entry.failures - this.free - 1), this.maxPauseMs);
    // Map order is the order of last failure: the stalest peers go first when there are too many.
    this.peers.set(peer, entry);
    for (const [key, old] of this.peers) {
      if (this.peers.size <= this.maxPeers && now - old.last <= this.forgetMs) break;
      this.peers.delete(key);
    }
  }

  succeeded(peer: string): void {
    this.peers.delete(peer);
  }
}

/**
 * A token bucket per key plus one for everybody: each allows `burst` at
 * once and refills `perMinute` a minute. `take` answers 0 (allowed, counted)
 * or the milliseconds until the next one would be.
 */
export class RateLimit {
  private readonly buckets = new Map<string, {tokens: number; at: number}>();
  private readonly everybody: {tokens: number; at: number};

  constructor(
    private readonly peer: {burst: number; perMinute: number},
    private readonly all: {burst: number; perMinute: number},
    private readonly maxPeers = 100_000,
  ) {
    this.everybody = {tokens: all.burst, at: Date.now()};
  }

  private static refill(bucket: {tokens: number; at: number}, limit: {burst: number; perMinute: number}, now: number): void {
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((now - bucket.at) * limit.perMinute) / 60_000);
    bucket.at = now;
  }

  take(key: string, now = Date.now()): number {
    const mine = this.buckets.get(key) ?? {tokens: this.peer.burst, at: now};
    RateLimit.refill(mine, this.peer, now);
    RateLimit.refill(this.everybody, this.all, now);
    const wait = (bucket: {tokens: number}, limit: {perMinute: number}) => (bucket.tokens >= 1 ? 0 : Math.ceil(((1 - bucket.tokens) * 60_000) / limit.perMinute));
    const ms = Math.max(wait(mine, this.peer), wait(this.everybody, this.all));
    if (ms === 0) {
      mine.tokens -= 1;
      this.everybody.tokens -= 1;
    }
    this.buckets.delete(key);
    this.buckets.set(key, mine);
    // Full buckets hold nothing worth keeping; past the cap the least recently seen go.
    for (const k of this.buckets.keys()) {
      if (this.buckets.size <= this.maxPeers) break;
      this.buckets.delete(k);
    }
    return ms;
  }
}

/**
 * Why a request for `/p/new` is not a person opening the study's link, or
 * null when it may be one. A participant is made by a top-level navigation:
 * a link clicked in an email or a chat (from another site: allowed), the
 * address typed, or the study's own page. Refused: what another site's page
 * makes a browser send by itself, i.e. a fetch (`Origin` of another site, or
 * `Sec-Fetch-Mode` other than navigate), an image, script or frame
 * (`Sec-Fetch-Dest` other than document), and, for browsers without fetch
 * metadata, a request with another site's `Referer` that does not ask for a page.
 */
export function notAPersonOpeningTheLink(req: IncomingMessage): string | null {
  const h = req.headers;
  const host = h.host ?? "";
  const sameHost = (url: string) => {
    try {
      return new URL(url).host === host;
    } catch {
      return false;
    }
  };
  const origin = h.origin;
  if (origin !== undefined && !sameHost(origin)) return "the request came from a script on another site";
  const site = h["sec-fetch-site"];
  if (site !== undefined) {
    if (site === "same-origin" || site === "none") return null;
    if (h["sec-fetch-mode"] !== "navigate") return "the request came from within another site's page";
    const dest = h["sec-fetch-dest"];
    if (dest !== undefined && dest !== "document") return `the request was made by another site's page (Sec-Fetch-Dest: ${dest})`;
    return null;
  }
  const referer = h.referer;
  if (referer !== undefined && !sameHost(referer) && !/\btext\/html\b/i.test(h.accept ?? "")) return "the request came from within another site's page";
  return null;
}

/** A cookie that only this server's pages send back (not readable by scripts). */
export function setCookie(name: string, value: string, path: string): string {
  return `${name}=${encodeURIComponent(value)}; Path=${path}; HttpOnly; SameSite=Strict; Max-Age=${60 * 60 * 24 * 30}`;
}

/** The bearer token of an Authorization header, or null. */
export function bearer(req: IncomingMessage): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
  return match ? match[1] : null;
}
