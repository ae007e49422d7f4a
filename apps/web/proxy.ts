import { type ProtectedPage, withSession } from "@domain-auth/core/next";
import { type NextRequest, NextResponse } from "next/server";
import { isAuthPage, withSecurityHeaders } from "@/lib/domain-auth/security-headers";

/**
 * Your pages that need a signed-in user, answered before they render: signed out, a 307 to
 * `/login?next=<page>`; with `roles`, another role gets a 403. A path covers the pages under it.
 * Keep `await requireUser()` in each page too: it is the page's own check.
 *
 * @example [{ path: "/dashboard" }, { path: "/reports", roles: ["Admin"] }]
 */
const PROTECTED_PAGES: ProtectedPage[] = [];

/**
 * Renews the session of every page whose access cookie expired while its refresh cookie lives (so
 * the page renders signed in), answers the protected pages' visitors who may not see them, and
 * gives the auth pages their security headers.
 */
export function proxy(request: NextRequest): Promise<NextResponse> {
  return withSession(request, {
    protect: PROTECTED_PAGES,
    respond: (requestHeaders) =>
      isAuthPage(request.nextUrl.pathname)
        ? withSecurityHeaders(request, { requestHeaders })
        : NextResponse.next({ request: { headers: requestHeaders } }),
  });
}

export const config = {
  // Pages only (the API sets its own headers; assets need none), however they are rendered: a
  // navigation, a prefetch, an RSC request.
  matcher: ["/((?!api$|api/|_next/|favicon\\.ico).*)"],
};
