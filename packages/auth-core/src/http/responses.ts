import type { ApiError } from "./errors.js";
import { API_SECURITY_HEADERS } from "./security-headers.js";

const JSON_HEADERS = { ...API_SECURITY_HEADERS, "content-type": "application/json; charset=utf-8" };

/**
 * The JSON text of each response {@link json} made, kept beside it: a Web `Response` built with a
 * body costs a body stream (tens of microseconds in Node.js 20, more than the rest of a `me`), so
 * the handlers make theirs without one. {@link withBody} gives it its body for Web callers (the
 * instance's `handle`); `createNodeListener` writes the text to the socket without any stream.
 */
const pendingBodies = new WeakMap<Response, string>();

/**
 * A JSON response; like every API response it is never sniffed nor stored by a cache. Its body
 * is attached by {@link withBody} (or written by `createNodeListener` from {@link pendingBodyOf}).
 */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const response = new Response(null, { status, headers: { ...JSON_HEADERS, ...headers } });
  pendingBodies.set(response, JSON.stringify(body));
  return response;
}

/**
 * The property of an instance's `handle` that holds the same handler answering without attaching
 * JSON bodies (read them with {@link pendingBodyOf}); `createNodeListener` uses it.
 */
export const RAW_HANDLE: unique symbol = Symbol("domain-auth.handle-without-bodies");

/** The JSON text of a response made by {@link json} and not yet given its body, else `undefined`. */
export function pendingBodyOf(response: Response): string | undefined {
  return pendingBodies.get(response);
}

/** `response` as a complete Web `Response`: one made by {@link json} gets its JSON text as its body. */
export function withBody(response: Response): Response {
  const text = pendingBodies.get(response);
  if (text === undefined) return response;
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
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
