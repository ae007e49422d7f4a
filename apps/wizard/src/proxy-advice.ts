import { AUTH_PAGES } from "@domain-auth/core/vocabulary";

/**
 * What to add to a project's own proxy (or middleware) so the auth pages get their security headers
 * (CONTRACT §13): Next.js runs one proxy per app, so the wizard does not write its `proxy.ts` beside it.
 *
 * @param file the project's proxy or middleware file, e.g. `src/proxy.ts`.
 * @param sourceDir `""`, or `"src/"` when the app lives in `src/app`.
 */
export function ownProxyAdvice(file: string, sourceDir: "" | "src/"): string {
  return [
    `${file} is yours and stays as it is (Next.js runs one proxy). For the auth pages' security headers, add to it:`,
    `  import { isAuthPage, withSecurityHeaders } from "@/lib/domain-auth/security-headers";`,
    `and first thing in its function:`,
    `  if (isAuthPage(request.nextUrl.pathname)) return withSecurityHeaders(request);`,
    `If it exports a matcher, let it match ${AUTH_PAGES.join(", ")}.`,
    `(${sourceDir}lib/domain-auth/security-headers.ts has the details.)`,
  ].join("\n");
}
