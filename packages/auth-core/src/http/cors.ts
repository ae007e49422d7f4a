import type { ApiRequest } from "./api-request.js";
import type { Reply } from "./responses.js";
/**
 * Cross-origin calls to `/api/*` (docs/api.md#cors): the origins allowed, the preflight's answer and the
 * headers every response to an allowed origin carries. Never credentials: tokens travel in
 * `Authorization`, which a page sends only when its own script does so.
 */

/** The request headers a preflight allows. */
export const CORS_ALLOWED_HEADERS = "authorization, content-type";
/** The response headers a script on another origin may read besides the simple ones. */
export const CORS_EXPOSED_HEADERS = "Retry-After, WWW-Authenticate";
/** How long a browser may keep a preflight's answer, in seconds. */
export const CORS_MAX_AGE_SECONDS = 600;

/** `*`, or the exact origins (`scheme://host[:port]`) allowed to call the API from a browser. */
export type CorsOrigins = "*" | readonly string[];

/**
 * Why `value` cannot be an entry of `CORS_ORIGINS`, or `undefined` when it is an exact origin:
 * `http:` or `https:`, a host, an optional port, nothing after it (no path, not even `/`).
 */
export function corsOriginProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `'${value}' is not an origin like https://app.example.com`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `'${value}' is not an http or https origin`;
  if (url.origin !== value) return `'${value}' is not an exact origin; write it as ${url.origin}`;
  return undefined;
}

/**
 * Reads `CORS_ORIGINS`: `*`, or origins separated by commas (spaces around them ignored).
 * @returns `null` when unset or empty (same origin only).
 * @throws {Error} naming the first entry that is not an exact origin.
 */
export function parseCorsOrigins(raw: string | undefined): CorsOrigins | null {
  const entries = (raw ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) return null;
  if (entries.includes("*")) {
    if (entries.length > 1) throw new Error("'*' allows every origin and cannot be listed with others");
    return "*";
  }
  for (const entry of entries) {
    const problem = corsOriginProblem(entry);
    if (problem) throw new Error(problem);
  }
  return Object.freeze([...new Set(entries)]);
}

/** The CORS side of the API: who may call, and what their responses carry. */
export interface CorsPolicy {
  /** `true` when `origin` (a request's `Origin`) may call the API. */
  allows(origin: string | null): origin is string;
  /**
   * The answer to a preflight from an allowed origin for a path answering `methods`, or `null` when
   * the request is not such a preflight (it is then routed like any request).
   */
  preflight(request: ApiRequest, methods: readonly string[] | null): Reply | null;
  /** Adds `Vary: Origin` to an API response and, for an allowed origin, its CORS headers. */
  decorate(request: ApiRequest, reply: Reply): Reply;
}

function appendVary(headers: Record<string, string>, value: string): void {
  const current = headers.vary;
  if (!current) headers.vary = value;
  else if (!current.split(",").some((item) => item.trim().toLowerCase() === value.toLowerCase())) headers.vary = `${current}, ${value}`;
}

/**
 * The CORS policy for `origins` (see {@link parseCorsOrigins}).
 *
 * @example
 * const cors = createCorsPolicy(["https://app.example.com"]);
 * const response = cors.preflight(request, ["GET", "POST"]) ?? cors.decorate(request, await route(request));
 */
export function createCorsPolicy(origins: CorsOrigins): CorsPolicy {
  const listed = origins === "*" ? null : new Set(origins);
  const allows = (origin: string | null): origin is string => origin !== null && (listed === null || listed.has(origin));
  return {
    allows,
    preflight(request, methods) {
      const origin = request.headers.get("origin");
      if (request.method.toUpperCase() !== "OPTIONS" || !request.headers.has("access-control-request-method")) return null;
      if (!allows(origin) || methods === null) return null;
      return {
        status: 204,
        body: null,
        headers: {
          "access-control-allow-origin": origin,
          "access-control-allow-methods": methods.join(", "),
          "access-control-allow-headers": CORS_ALLOWED_HEADERS,
          "access-control-max-age": String(CORS_MAX_AGE_SECONDS),
          "access-control-expose-headers": CORS_EXPOSED_HEADERS,
          vary: "Origin",
          "x-content-type-options": "nosniff",
          "cache-control": "no-store",
        },
      };
    },
    decorate(request, response) {
      const origin = request.headers.get("origin");
      const headers = response.headers;
      appendVary(headers, "Origin");
      if (allows(origin)) {
        headers["access-control-allow-origin"] = origin;
        headers["access-control-expose-headers"] = CORS_EXPOSED_HEADERS;
      }
      return response;
    },
  };
}
