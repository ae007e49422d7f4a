import type { ApiError } from "./errors.js";
import { API_SECURITY_HEADERS } from "./security-headers.js";

const JSON_HEADERS = { ...API_SECURITY_HEADERS, "content-type": "application/json; charset=utf-8" };

/** A JSON response; like every API response it is never sniffed nor stored by a cache. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** A JSON response that carries a token: also `Pragma: no-cache` for HTTP/1.0 caches. */
export function jsonWithToken(status: number, body: unknown): Response {
  return json(status, body, { pragma: "no-cache" });
}

/** 204 No Content. */
export function noContent(): Response {
  return new Response(null, { status: 204, headers: API_SECURITY_HEADERS });
}

/** The error response for an {@link ApiError}. */
export function errorResponse(error: ApiError): Response {
  return json(error.status, error.toBody(), error.headers);
}
