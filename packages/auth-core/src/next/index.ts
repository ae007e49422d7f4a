/**
 * `@domain-auth/core/next`: who is signed in, for a Next.js project's own server components,
 * route handlers and server actions (docs/api.md#cookie-sessions), and the session part of its `proxy.ts`. The
 * only module of domain-auth that imports Next.js; server only. The instance is the one of
 * `authFromEnv()`, made from the environment once per process.
 *
 * @example
 * // app/dashboard/page.tsx
 * import { requireUser } from "@domain-auth/core/next";
 *
 * export default async function Dashboard() {
 *   const user = await requireUser();
 *   return <p>Signed in as {user.email}</p>;
 * }
 */
import { headers } from "next/headers.js";
import { forbidden, notFound, redirect } from "next/navigation.js";
import { type NextRequest, NextResponse } from "next/server.js";
import { cache } from "react";
import type { Operation } from "../config/vocabulary.js";
import { authFromEnv } from "../env.js";
import type { PageMembership, Profile } from "../instance/page-sessions.js";
import { signInPath } from "../policy/next-path.js";

export type { PageMembership, Profile } from "../instance/page-sessions.js";

/** The request header in which {@link withSession} tells server code the page's path and query. */
export const PAGE_PATH_HEADER = "x-domain-auth-path";

/** Options of {@link requireUser}. */
export interface RequireUserOptions {
  /** Roles that may see the page; a signed-in user with another is shown the 403 page. @default any role */
  readonly roles?: readonly string[];
}

/**
 * The signed-in user of the current request (the access cookie, or an `Authorization` header): the
 * profile `me` answers, or `null` when signed out, expired or revoked, or when the cookie came with
 * another origin's `Origin` (a forged form or fetch). One database read per request however often
 * it is called while rendering.
 *
 * @example
 * const user = await currentUser();
 * if (!user) return Response.json({ error: "sign in" }, { status: 401 });
 */
export const currentUser: () => Promise<Profile | null> = cache(async () => {
  // The request first: a page built ahead of time stops here, before an instance is made for it.
  const requestHeaders = await headers();
  const auth = await authFromEnv();
  return auth.currentUser(requestHeaders);
});

/**
 * The signed-in user, or never returns: a signed-out visitor is redirected to
 * `/login?next=<this page>`; a user without one of `roles` gets the 403 page (`forbidden()`, which
 * needs `experimental.authInterrupts` in next.config, as the wizard sets it).
 *
 * @example
 * const admin = await requireUser({ roles: ["Admin"] });
 */
export async function requireUser(options: RequireUserOptions = {}): Promise<Profile> {
  const user = await currentUser();
  if (!user) return redirect(signInPath((await headers()).get(PAGE_PATH_HEADER)));
  if (options.roles && (user.role === null || !options.roles.includes(user.role))) return forbiddenPage();
  return user;
}

/**
 * `forbidden()` of Next.js, from this module. Next.js compiles the project's code knowing
 * `experimental.authInterrupts` (it inlines `process.env.__NEXT_EXPERIMENTAL_AUTH_INTERRUPTS`), but
 * Node.js loads this package as it is (`serverExternalPackages`), where that variable is unset and
 * `forbidden()` would refuse to run. The variable says what the project's next.config turns on
 * (the wizard sets it; without it the server renders no 403 page), so it is set here as the compiler
 * would have.
 */
function forbiddenPage(): never {
  process.env.__NEXT_EXPERIMENTAL_AUTH_INTERRUPTS ??= "true";
  return forbidden();
}

/**
 * docs/api.md#permissions's decision, the one the API takes: may `user` (what {@link currentUser} returned, or
 * `null`) perform `operation` on the entity named `entity` in domain.yaml, on `record` when given?
 *
 * @example
 * if (await can(user, "delete", "Post", post)) …
 */
export async function can(
  user: Profile | null,
  operation: Operation,
  entity: string,
  record?: Readonly<Record<string, unknown>>,
  options?: { readonly membership?: PageMembership | null },
): Promise<boolean> {
  const auth = await authFromEnv();
  return auth.can(user, operation, entity, record, options);
}

/**
 * The signed-in user's membership of organization `organizationId` (docs/organizations.md): the
 * organization and their role in it, read from the database once per request and organization;
 * `null` when signed out or not a member. Pass it to {@link can} for a tenant entity.
 *
 * @example
 * const membership = await currentMembership(orgId);
 * if (membership && (await can(user, "create", "Project", undefined, { membership }))) …
 */
export const currentMembership: (organizationId: string) => Promise<PageMembership | null> = cache(async (organizationId: string) => {
  const auth = await authFromEnv();
  return auth.membership(await currentUser(), organizationId);
});

/** Options of {@link requireMember}. */
export interface RequireMemberOptions {
  /** Organization roles that may see the page; a member with another is shown the 403 page. @default any member */
  readonly roles?: readonly string[];
}

/**
 * The signed-in user's membership of organization `organizationId`, or never returns: a signed-out
 * visitor is redirected to `/login?next=<this page>`; someone who is not a member gets the 404 page
 * (an organization's existence is not revealed); a member without one of `roles` the 403 page.
 *
 * @example
 * // app/orgs/[orgId]/billing/page.tsx
 * const { organization, role } = await requireMember(orgId, { roles: ["Owner"] });
 */
export async function requireMember(
  organizationId: string,
  options: RequireMemberOptions = {},
): Promise<PageMembership & { readonly user: Profile }> {
  const user = await requireUser();
  const membership = await currentMembership(organizationId);
  if (!membership) return notFound();
  if (options.roles && !options.roles.includes(membership.role)) return forbiddenPage();
  return { ...membership, user };
}

/** Builds a proxy's response from the request headers to pass on. */
export type Respond = (requestHeaders: Headers) => NextResponse | Promise<NextResponse>;

/** A page (and every page under it) that needs a signed-in user, checked by {@link withSession}. */
export interface ProtectedPage {
  /** The page's path: `/dashboard` covers `/dashboard` and `/dashboard/…`, not `/dashboards`; `/` the home page alone. */
  readonly path: string;
  /** Roles that may open it; a signed-in user with another gets a 403. @default any role */
  readonly roles?: readonly string[];
}

/** Options of {@link withSession}. */
export interface SessionOptions {
  /** Builds the response from the request headers to pass on (a proxy of the project's own). @default pass on */
  readonly respond?: Respond;
  /**
   * Pages answered before they render: a signed-out visitor gets a 307 to `/login?next=<page>`, a
   * user without one of the page's `roles` a 403. `requireUser()` in the page stays its check;
   * this gives the answer its real status, which a page that streams (`<Suspense>`, or
   * `cacheComponents`) can no longer set. @default none
   */
  readonly protect?: readonly ProtectedPage[];
}

const passOn: Respond = (requestHeaders) => NextResponse.next({ request: { headers: requestHeaders } });

/** The entry of `protect` that covers `pathname`, if any. */
export function protectedPageOf(protect: readonly ProtectedPage[], pathname: string): ProtectedPage | undefined {
  let path: string;
  try {
    // `/%64ashboard` is `/dashboard` to the router: compare what it routes.
    path = decodeURIComponent(pathname);
  } catch {
    path = pathname;
  }
  return protect.find((page) => {
    const base = page.path.replace(/\/+$/, "");
    // `/` is the home page alone: everything under it would take in the sign-in page too.
    if (base === "") return path === "/";
    return path === base || path.startsWith(`${base}/`);
  });
}

/** The 403 a proxy answers before the page renders, in Next.js's own words for it. */
function forbiddenResponse(): NextResponse {
  const html =
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>403: Forbidden</title></head>' +
    "<body><h1>403</h1><p>This page could not be accessed.</p></body></html>";
  return new NextResponse(html, { status: 403, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

/**
 * The answer for a protected page before it renders: a redirect to sign-in, a 403, or `null` when the
 * visitor may open it (`requestHeaders` carry the renewed cookies, if any).
 */
async function refusal(request: NextRequest, page: ProtectedPage, requestHeaders: Headers): Promise<NextResponse | null> {
  const auth = await authFromEnv();
  const user = await auth.currentUser(requestHeaders);
  if (!user) {
    const path = signInPath(request.nextUrl.pathname + request.nextUrl.search);
    return NextResponse.redirect(new URL(path, request.nextUrl.origin), 307);
  }
  if (page.roles && (user.role === null || !page.roles.includes(user.role))) return forbiddenResponse();
  return null;
}

/**
 * The session part of a project's `proxy.ts`: tells server code the page's path (for
 * `requireUser`'s way back), and when the access cookie has expired while the refresh cookie lives,
 * renews both before the page renders, so the page sees the user and the browser keeps the new
 * cookies. A valid access cookie is checked without reading the database; a refused refresh leaves
 * the request as it was (the page then sees no user). The pages in `protect` are answered first
 * with a real 307 (signed out) or 403 (another role). `respond` builds the response from the
 * request headers to pass on, so the project's own proxy composes with it.
 *
 * @example
 * export function proxy(request: NextRequest) {
 *   return withSession(request, { protect: [{ path: "/dashboard" }, { path: "/reports", roles: ["Admin"] }] });
 * }
 */
export async function withSession(request: NextRequest, options: Respond | SessionOptions = {}): Promise<NextResponse> {
  const { respond = passOn, protect = [] } = typeof options === "function" ? { respond: options } : options;
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(PAGE_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  const auth = await authFromEnv();
  const renewal = await auth.renewSession(request.headers);
  if (renewal) requestHeaders.set("cookie", renewal.cookieHeader);
  const page = protectedPageOf(protect, request.nextUrl.pathname);
  const response = (page && (await refusal(request, page, requestHeaders))) || (await respond(requestHeaders));
  for (const cookie of renewal?.setCookies ?? []) response.headers.append("set-cookie", cookie);
  return response;
}
