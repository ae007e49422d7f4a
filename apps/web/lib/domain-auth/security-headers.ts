import { createNonce, securityHeaders } from "@domain-auth/core/security-headers";
import { type NextRequest, NextResponse } from "next/server";

/**
 * `isAuthPage(pathname)`: `true` for an auth page (`app/(domain-auth)`). The nonce-based policy is theirs: a
 * page of the project that Next.js prerenders could not carry a per-request nonce, so it would lose its scripts.
 */
export { isAuthPage } from "@domain-auth/core/security-headers";

/**
 * Gives an auth page its security headers (CONTRACT §13) with a fresh nonce. Next.js reads the nonce from
 * the request's `Content-Security-Policy` and puts it on its own scripts, so the page must render per
 * request (the auth pages' layout awaits `connection()`).
 *
 * `respond` builds the response from the request headers to forward (by default `NextResponse.next`), so
 * a proxy of the project's own composes with it:
 *
 * @example
 * export function proxy(request: NextRequest) {
 *   if (isAuthPage(request.nextUrl.pathname)) return withSecurityHeaders(request);
 *   // … the project's own proxy
 * }
 */
export function withSecurityHeaders(
  request: NextRequest,
  respond: (requestHeaders: Headers) => NextResponse = (requestHeaders) => NextResponse.next({ request: { headers: requestHeaders } }),
): NextResponse {
  const nonce = createNonce();
  const headers = securityHeaders({ nonce, appUrl: process.env.APP_URL, development: process.env.NODE_ENV !== "production" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", headers["content-security-policy"] ?? "");
  const response = respond(requestHeaders);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
