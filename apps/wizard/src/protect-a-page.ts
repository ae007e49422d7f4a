/**
 * How to protect a page of the project's own (docs/web.md), as the next steps print it and the
 * README shows it: the page, then the line of the scaffolded `proxy.ts` that gives it a real status.
 */

/** What the lines depend on. */
export interface ProtectAPageOptions {
  /** `next.config` turns on `cacheComponents`: the page opts out of the prerendered shell. */
  readonly cacheComponents: boolean;
  /** `""`, or `"src/"` when the app lives in `src/app`. */
  readonly sourceDir: "" | "src/";
  /** The project's own proxy file, when the scaffolded `proxy.ts` gave way to it. */
  readonly ownProxy?: string | undefined;
}

/**
 * The line that lets a page read the request under `cacheComponents`: without it `next build` stops
 * at the page ("uncached or runtime data during prerendering"); Next.js refuses it without
 * `cacheComponents`.
 */
export const INSTANT_LINE = "export const instant = false; // cacheComponents is on";

/** A protected page's file, as the README shows it (the `instant` line only under `cacheComponents`). */
export function protectedPageSource(cacheComponents: boolean): string {
  return [
    `import { requireUser } from "@domain-auth/core/next";`,
    "",
    ...(cacheComponents ? [INSTANT_LINE, ""] : []),
    "export default async function Dashboard() {",
    "  const user = await requireUser(); // signed out: to /login, then back",
    "  return <p>Signed in as {user.email}</p>;",
    "}",
  ].join("\n");
}

/** The entry of the scaffolded `proxy.ts` that answers the page before it renders. */
export const PROTECTED_PAGES_LINE = 'const PROTECTED_PAGES: ProtectedPage[] = [{ path: "/dashboard" }];';

/** The next steps' lines on protecting a page. */
export function protectAPage(options: ProtectAPageOptions): string[] {
  const indent = (line: string) => (line === "" ? "" : `  ${line}`);
  return [
    "Protect a page of your own (currentUser and can too; see the docs):",
    `  // ${options.sourceDir}app/dashboard/page.tsx`,
    ...protectedPageSource(options.cacheComponents).split("\n").map(indent),
    ...(options.ownProxy
      ? [
          `In ${options.ownProxy}, for a 307 to /login or a 403 before it renders:`,
          '  withSession(request, { protect: [{ path: "/dashboard" }], respond })',
        ]
      : [`In ${options.sourceDir}proxy.ts, for a 307 to /login or a 403 before it renders:`, `  ${PROTECTED_PAGES_LINE}`]),
  ];
}
