import type { ApiError } from "./errors.js";

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** A JSON response that carries a token: never cached. */
export function jsonWithToken(status: number, body: unknown): Response {
  return json(status, body, { "cache-control": "no-store", pragma: "no-cache" });
}

/** 204 No Content. */
export function noContent(): Response {
  return new Response(null, { status: 204 });
}

/** The error response for an {@link ApiError}. */
export function errorResponse(error: ApiError): Response {
  return json(error.status, error.toBody(), error.headers);
}
