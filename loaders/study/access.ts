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
 * Tokens are compared in constant time.
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

/** The value of cookie `name` in the request, or null. */
export function cookie(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
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
