import { createNonce, securityHeaders } from "@domain-auth/core/security-headers";
import { type NextRequest, NextResponse } from "next/server";

/**
 * `isAuthPage(pathname)`: `true` for an auth page (`app/(domain-auth)`). The nonce-based policy is theirs: a
 * page of the project that Next.js prerenders could not carry a per-request nonce, so it would lose its scripts.
 */
export { isAuthPage } from "@domain-auth/core/security-headers";

/** Options of {@link withSecurityHeaders}. */
export interface WithSecurityHeadersOptions {
  /** The request headers to pass on, as an earlier step of the proxy left them (`withSession`'s). @default the request's own */
  readonly requestHeaders?: Headers;
  /** Builds the response from the request headers to pass on. @default `NextResponse.next` with them */
  readonly respond?: (requestHeaders: Headers) => NextResponse;
}

const passOn = (requestHeaders: Headers) => NextResponse.next({ request: { headers: requestHeaders } });

/**
 * Gives an auth page its security headers (docs/security.md#security-headers) with a fresh nonce. Next.js reads the nonce from
 * the request's `Content-Security-Policy` and puts it on its own scripts, so the page must render per
 * request (the auth pages' layout awaits `connection()`).
 *
 * It composes with the other steps of a proxy: `requestHeaders` are the headers an earlier step passes on
 * (the session's, from `withSession` of `@domain-auth/core/next`), `respond` builds the response:
 *
 * @example
 * export function proxy(request: NextRequest) {
 *   return withSession(request, (requestHeaders) =>
 *     isAuthPage(request.nextUrl.pathname)
 *       ? withSecurityHeaders(request, { requestHeaders })
 *       : NextResponse.next({ request: { headers: requestHeaders } }),
 *   );
 * }
 */
export function withSecurityHeaders(request: NextRequest, options: WithSecurityHeadersOptions = {}): NextResponse {
  const nonce = createNonce();
  const headers = securityHeaders({ nonce, appUrl: process.env.APP_URL, development: process.env.NODE_ENV !== "production" });
  const requestHeaders = new Headers(options.requestHeaders ?? request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", headers["content-security-policy"] ?? "");
  const response = (options.respond ?? passOn)(requestHeaders);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
