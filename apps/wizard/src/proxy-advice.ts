import { AUTH_PAGES } from "@domain-auth/core/vocabulary";

/**
 * What to make of a project's own proxy so sessions renew before a page renders and
 * `requireUser` knows the way back (docs/api.md#cookie-sessions), and the auth pages get their security
 * headers (docs/security.md#security-headers): Next.js runs one proxy per app, so the wizard does not write its
 * `proxy.ts` beside it.
 *
 * @param file the project's proxy or middleware file, e.g. `src/proxy.ts`.
 * @param sourceDir `""`, or `"src/"` when the app lives in `src/app`.
 */
export function ownProxyAdvice(file: string, sourceDir: "" | "src/"): string {
  return [
    `${file} is yours and stays as it is (Next.js runs one proxy). For sessions renewed before a page renders, and the auth pages' security headers, wrap its function:`,
    `  import { withSession } from "@domain-auth/core/next";`,
    `  import { isAuthPage, withSecurityHeaders } from "@/lib/domain-auth/security-headers";`,
    "",
    "  export function proxy(request: NextRequest) {",
    "    return withSession(request, {",
    '      protect: [], // pages answered 307 (signed out) or 403 (another role) before they render: { path: "/dashboard", roles?: [...] }',
    "      respond: (requestHeaders) => {",
    "        if (isAuthPage(request.nextUrl.pathname)) return withSecurityHeaders(request, { requestHeaders });",
    "        // … what your proxy does, passing requestHeaders on:",
    "        return NextResponse.next({ request: { headers: requestHeaders } });",
    "      },",
    "    });",
    "  }",
    `If it exports a matcher, let it match every page (at least ${AUTH_PAGES.join(", ")} and the pages that call requireUser).`,
    ...(file.includes("middleware")
      ? ["A middleware file runs on the edge runtime, where domain-auth cannot: rename it proxy.ts (Next.js 16) first."]
      : []),
    `(${sourceDir}lib/domain-auth/security-headers.ts and docs of @domain-auth/core/next have the details.)`,
  ].join("\n");
}
