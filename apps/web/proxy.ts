import { createNonce, securityHeaders } from "@domain-auth/core/security-headers";
import { type NextRequest, NextResponse } from "next/server";

/**
 * Gives every page its security headers (CONTRACT §13) with a fresh nonce. Next.js reads the nonce from
 * the request's `Content-Security-Policy` and puts it on its own scripts, so the pages must render per
 * request (the root layout's `loadPageState` awaits `connection()`).
 */
export function proxy(request: NextRequest): NextResponse {
  const nonce = createNonce();
  const headers = securityHeaders({ nonce, appUrl: process.env.APP_URL, development: process.env.NODE_ENV !== "production" });
  const policy = headers["content-security-policy"] ?? "";
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Pages only: the API sets its own headers, and static files and prefetches render no page.
  matcher: [
    {
      source: "/((?!api(?:/|$)|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
