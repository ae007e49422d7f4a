import { type NextRequest, NextResponse } from "next/server";
import { isAuthPage, withSecurityHeaders } from "@/lib/domain-auth/security-headers";

/** Gives the auth pages their security headers; every other page passes through untouched. */
export function proxy(request: NextRequest): NextResponse {
  if (isAuthPage(request.nextUrl.pathname)) return withSecurityHeaders(request);
  return NextResponse.next();
}

export const config = {
  // Pages only (the API sets its own headers; assets need none), however they are rendered: a
  // navigation, a prefetch, an RSC request.
  matcher: ["/((?!api$|api/|_next/|favicon\\.ico).*)"],
};
