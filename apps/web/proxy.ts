import { withSession } from "@domain-auth/core/next";
import { type NextRequest, NextResponse } from "next/server";
import { isAuthPage, withSecurityHeaders } from "@/lib/domain-auth/security-headers";

/**
 * Renews the session of every page whose access cookie expired while its refresh cookie lives (so
 * the page renders signed in), and gives the auth pages their security headers.
 */
export function proxy(request: NextRequest): Promise<NextResponse> {
  return withSession(request, (requestHeaders) =>
    isAuthPage(request.nextUrl.pathname)
      ? withSecurityHeaders(request, { requestHeaders })
      : NextResponse.next({ request: { headers: requestHeaders } }),
  );
}

export const config = {
  // Pages only (the API sets its own headers; assets need none), however they are rendered: a
  // navigation, a prefetch, an RSC request.
  matcher: ["/((?!api$|api/|_next/|favicon\\.ico).*)"],
};
