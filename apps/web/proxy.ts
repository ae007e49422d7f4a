import type { NextRequest, NextResponse } from "next/server";
import { withSecurityHeaders } from "@/lib/domain-auth/security-headers";

/** The auth pages' security headers; a project with a proxy of its own calls `withSecurityHeaders` from it instead. */
export function proxy(request: NextRequest): NextResponse {
  return withSecurityHeaders(request);
}

export const config = {
  // The auth pages only (`DOMAIN_AUTH_PAGES`); prefetches render no page.
  matcher: [
    {
      source: "/(setup|login|register|profile|admin|forgot-password|reset-password|verify-email)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
