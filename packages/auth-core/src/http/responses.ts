import type { ApiError } from "./errors.js";
import { API_SECURITY_HEADERS } from "./security-headers.js";

const JSON_HEADERS = { ...API_SECURITY_HEADERS, "content-type": "application/json; charset=utf-8" };

/**
 * An answer as the handlers make it: its status, its headers by lower-case name and its body as
 * text. It becomes a Web `Response` once, at the edge ({@link toResponse}, for `auth.handle`);
 * `createNodeListener` writes it to the socket as it is. In Node.js 20 a Web `Response` costs a
 * headers list, and one with a body a stream as well: more than the rest of a `me`.
 */
export interface Reply {
  readonly status: number;
  /** Each reply has its own object: the CORS layer adds to it. */
  readonly headers: Record<string, string>;
  /** `null` for no body. */
  readonly body: string | null;
  /** `Set-Cookie` values, each its own header (the cookie transport, docs/api.md#cookie-sessions). */
  readonly cookies?: readonly string[];
}

/** A JSON reply; like every API response it is never sniffed nor stored by a cache. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** A JSON reply that carries a token: also `Pragma: no-cache` for HTTP/1.0 caches. */
export function jsonWithToken(status: number, body: unknown): Reply {
  return json(status, body, { pragma: "no-cache" });
}

/** 302 Found to `location` (a browser navigation: a provider's sign-in, and back), never cached. */
export function redirect(location: string, cookies: readonly string[] = []): Reply {
  return { status: 302, headers: { ...API_SECURITY_HEADERS, location, "cache-control": "no-store" }, body: null, cookies };
}

/** 204 No Content. */
export function noContent(): Reply {
  return { status: 204, headers: { ...API_SECURITY_HEADERS }, body: null };
}

/**
 * How long a client waits after a 503 that names no time of its own (a database that is locked,
 * down or out of space): a restart or a failover takes seconds, and a sooner retry only adds load.
 */
export const UNAVAILABLE_RETRY_SECONDS = 5;

/** The error reply for an {@link ApiError}. Every 503 carries `Retry-After`, whatever made it. */
export function errorResponse(error: ApiError): Reply {
  const headers =
    error.status === 503 && error.headers["retry-after"] === undefined
      ? { ...error.headers, "retry-after": String(UNAVAILABLE_RETRY_SECONDS) }
      : error.headers;
  return json(error.status, error.toBody(), headers);
}

/** The Web `Response` of a reply. */
export function toResponse(reply: Reply): Response {
  const response = new Response(reply.body, { status: reply.status, headers: reply.headers });
  for (const cookie of reply.cookies ?? []) response.headers.append("set-cookie", cookie);
  return response;
}

/** A reply's headers as node:http writes them: each `Set-Cookie` on its own. */
export function nodeHeaders(reply: Reply): Record<string, string | string[]> {
  return reply.cookies?.length ? { ...reply.headers, "set-cookie": [...reply.cookies] } : reply.headers;
}
