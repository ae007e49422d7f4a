import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RunningApp } from "@domain-auth/test-support/app-server";
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";
import { openTab } from "./browser.js";

/** The admins' page's check and content: the same whether it streams or not. */
const ADMINS_ONLY_BODY = `  const admin = await requireUser({ roles: ["Admin"] });
  const mayDeleteUsers = await can(admin, "delete", "User");
  return (
    <main>
      <h1>Administrators only</h1>
      <p>
        Welcome, {admin.email}
        {mayDeleteUsers ? ", who may delete users" : ""}
      </p>
    </main>
  );
}
`;

/**
 * A project's own code that uses `@domain-auth/core/next` (docs/api.md#cookie-sessions), as the docs show it: a
 * page for any signed-in user whose check streams under `<Suspense>` (its redirect then happens in
 * the browser), a page for one role, and a route handler. Under `cacheComponents` the role's page
 * streams too (Next.js then shows its 403 page in place of the content, the status staying 200);
 * without it the check runs before anything is sent, so a wrong role is an HTTP 403.
 */
export function ownFiles(cacheComponents: boolean): Readonly<Record<string, string>> {
  return {
    "dashboard/page.tsx": `import { requireUser } from "@domain-auth/core/next";
import { Suspense } from "react";

export default function DashboardPage() {
  return (
    <main>
      <h1>Dashboard</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <Welcome />
      </Suspense>
    </main>
  );
}

async function Welcome() {
  const user = await requireUser();
  return <p>Signed in as {user.email}</p>;
}
`,
    "admins-only/page.tsx": cacheComponents
      ? `import { can, requireUser } from "@domain-auth/core/next";
import { Suspense } from "react";

export default function AdminsOnlyPage() {
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <AdminsOnly />
    </Suspense>
  );
}

async function AdminsOnly() {
${ADMINS_ONLY_BODY}`
      : `import { can, requireUser } from "@domain-auth/core/next";

export default async function AdminsOnlyPage() {
${ADMINS_ONLY_BODY}`,
    "whoami/route.ts": `import { currentUser } from "@domain-auth/core/next";

export async function GET() {
  const user = await currentUser();
  if (!user) return Response.json({ signedIn: false }, { status: 401 });
  return Response.json({ signedIn: true, email: user.email, role: user.role });
}
`,
  };
}

/**
 * Writes {@link ownFiles} into the project's app folder, `dashboard` in place of its dashboard page
 * when given; returns them by path from the project.
 */
export async function addOwnFiles(
  project: string,
  appDir: string,
  cacheComponents: boolean,
  dashboard?: string,
): Promise<Record<string, string>> {
  const files = { ...ownFiles(cacheComponents), ...(dashboard !== undefined && { "dashboard/page.tsx": dashboard }) };
  for (const [file, content] of Object.entries(files)) {
    await mkdir(join(project, appDir, file, ".."), { recursive: true });
    await writeFile(join(project, appDir, file), content);
  }
  return Object.fromEntries(Object.entries(files).map(([file, content]) => [`${appDir}/${file}`, content]));
}

/** The `Cookie` header a browser would send for what these `Set-Cookie` lines set. */
function cookieHeaderOf(setCookies: readonly string[]): string {
  return setCookies.map((line) => line.split(";")[0]).join("; ");
}

/** A cookie sign-in over HTTP, as the app's own pages make it (same origin). */
async function cookieSignIn(app: RunningApp, email: string, password: string): Promise<string> {
  const answer = await fetch(`${app.url}/api/user/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url },
    body: JSON.stringify({ email, password, transport: "cookie" }),
  });
  expect(answer.status).toBe(200);
  return cookieHeaderOf(answer.headers.getSetCookie());
}

/** The cookies of a page's context as a `Cookie` header. */
async function cookieHeaderOfContext(page: Page): Promise<string> {
  return cookieHeaderOf((await page.context().cookies()).map((cookie) => `${cookie.name}=${cookie.value}`));
}

/** How the project's own pages answer a visitor who may not see them. */
export interface OwnPagesShape {
  /** The admins' page checks the role inside a stream: Next.js's 403 page under a 200. */
  readonly streamsRoleCheck: boolean;
  /** `proxy.ts` lists `/dashboard` and `/admins-only` (Admin): a real 307 or 403 before they render. */
  readonly proxyProtects: boolean;
}

/** The path and query a redirect answer leads to. */
function redirectTarget(response: Response, base: string): string {
  const url = new URL(response.headers.get("location") ?? "", base);
  return url.pathname + url.search;
}

/**
 * The project's own code at work in Chromium and over HTTP: a signed-out visitor of `/dashboard`
 * goes to sign-in and back; nothing token-like is readable by the page's scripts; a second tab and
 * a restarted browser are signed in; the server-rendered HTML and the route handler know the user;
 * a Reader gets 403 on the admins' page; cross-site cookie sign-in and logout are 403; after
 * sign-out the old cookies are 401.
 */
export async function expectOwnPagesWork(
  browser: Browser,
  app: RunningApp,
  admin: { email: string; password: string },
  { streamsRoleCheck, proxyProtects }: OwnPagesShape,
): Promise<void> {
  if (proxyProtects) {
    // As curl sees it: a redirect before anything renders, the page's query kept for the way back.
    const signedOut = await fetch(`${app.url}/dashboard?tab=2`, { redirect: "manual" });
    expect(signedOut.status, await signedOut.text()).toBe(307);
    expect(redirectTarget(signedOut, app.url)).toBe(`/login?next=${encodeURIComponent("/dashboard?tab=2")}`);
    const below = await fetch(`${app.url}/admins-only/x`, { redirect: "manual" });
    expect(below.status).toBe(307);
    expect(redirectTarget(below, app.url)).toBe(`/login?next=${encodeURIComponent("/admins-only/x")}`);
  }
  const page = await openTab(browser, app.url);
  await page.goto("/dashboard");
  await page.waitForURL("**/login?next=%2Fdashboard");
  await page.getByRole("main").getByLabel("Email").fill(admin.email);
  await page.getByRole("main").getByLabel("Password").fill(admin.password);
  await page.getByRole("main").getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL("**/dashboard");
  await expect.poll(() => page.getByText(`Signed in as ${admin.email}`).count()).toBe(1);

  const readable = await page.evaluate(() => ({
    cookie: document.cookie,
    session: Object.keys(sessionStorage).length,
    local: Object.keys(localStorage).length,
  }));
  expect(readable).toEqual({ cookie: "", session: 0, local: 0 });
  const access = (await page.context().cookies()).find((cookie) => cookie.name.endsWith("domain-auth.token"));
  expect(access).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
  expect(await page.content()).not.toContain(access?.value);

  const second = await page.context().newPage();
  await second.goto(`${app.url}/dashboard`);
  await expect.poll(() => second.getByText(`Signed in as ${admin.email}`).count()).toBe(1);
  const restarted = await browser.newContext({ baseURL: app.url, storageState: await page.context().storageState() });
  const afterRestart = await restarted.newPage();
  await afterRestart.goto("/dashboard");
  await expect.poll(() => afterRestart.getByText(`Signed in as ${admin.email}`).count()).toBe(1);
  await restarted.close();

  const jar = await cookieHeaderOfContext(page);
  const dashboard = await fetch(`${app.url}/dashboard`, { headers: { cookie: jar }, redirect: "manual" });
  expect(dashboard.status).toBe(200);
  expect(await dashboard.text()).toContain(admin.email);
  expect(await (await fetch(`${app.url}/whoami`, { headers: { cookie: jar } })).json()).toEqual({
    signedIn: true,
    email: admin.email,
    role: "Admin",
  });
  expect((await fetch(`${app.url}/whoami`)).status).toBe(401);
  const allowed = await fetch(`${app.url}/admins-only`, { headers: { cookie: jar } });
  const welcome = await allowed.text();
  expect(allowed.status, welcome.slice(0, 500)).toBe(200);
  expect(welcome).toContain("who may delete users");

  const reader = { email: "reader@example.com", password: "a reader's passphrase" };
  const registered = await fetch(`${app.url}/api/user/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(reader),
  });
  expect(registered.status).toBe(201);
  const readerJar = await cookieSignIn(app, reader.email, reader.password);
  const refused = await fetch(`${app.url}/admins-only`, { headers: { cookie: readerJar } });
  const refusal = await refused.text();
  // Streamed (cacheComponents): Next.js's 403 page in place of the content, under a 200 and noindex;
  // listed in proxy.ts, a 403 before anything renders.
  expect(refused.status, refusal.slice(0, 500)).toBe(streamsRoleCheck && !proxyProtects ? 200 : 403);
  if (proxyProtects) {
    const readerDashboard = await fetch(`${app.url}/dashboard`, { headers: { cookie: readerJar }, redirect: "manual" });
    expect(readerDashboard.status).toBe(200);
    expect(await readerDashboard.text()).toContain(reader.email);
  }
  // The 403 page: the proxy's (listed in proxy.ts), or the app/forbidden.tsx the wizard scaffolds
  // (forbidden() in the page); both say it in these words.
  expect(refusal).toContain("This page could not be accessed.");
  expect(refusal).not.toContain("Administrators only");

  const crossSite = { "content-type": "application/json", origin: "https://evil.example", cookie: jar };
  const logout = await fetch(`${app.url}/api/user/logout`, { method: "POST", headers: crossSite });
  expect(logout.status).toBe(403);
  expect((await logout.json()).code).toBe("FORBIDDEN_ORIGIN");
  const login = await fetch(`${app.url}/api/user/login`, {
    method: "POST",
    headers: crossSite,
    body: JSON.stringify({ ...admin, transport: "cookie" }),
  });
  expect(login.status).toBe(403);
  expect(login.headers.getSetCookie()).toEqual([]);

  expect((await fetch(`${app.url}/api/user/me`, { headers: { cookie: jar } })).status).toBe(200);
  await page.goto("/profile");
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL((url) => url.pathname === "/login");
  expect((await fetch(`${app.url}/api/user/me`, { headers: { cookie: jar } })).status).toBe(401);
  expect((await fetch(`${app.url}/whoami`, { headers: { cookie: jar } })).status).toBe(401);
  await second.goto(`${app.url}/dashboard`);
  await second.waitForURL("**/login?next=%2Fdashboard");
  await page.context().close();
}

/** When the access token of a `Cookie` header expires (ms), from its payload's `exp`; `null` without one. */
function accessTokenExpiry(cookieHeader: string): number | null {
  const token = /(?:^|; )(?:__Host-)?domain-auth\.token=([^;]+)/.exec(cookieHeader)?.[1];
  const payload = token?.split(".")[1];
  if (!payload) return null;
  const { exp } = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { exp?: number };
  return typeof exp === "number" ? exp * 1000 : null;
}

/**
 * Past the access token's lifetime (`AUTH_TOKEN_TTL` of the server `app`), a reload of the
 * project's own page still shows the user: the proxy renewed both cookies before it rendered.
 */
export async function expectRenewalPastTokenLifetime(
  browser: Browser,
  app: RunningApp,
  admin: { email: string; password: string },
  ttlSeconds: number,
): Promise<void> {
  const setup = await fetch(`${app.url}/api/user/setup`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url },
    body: JSON.stringify({ ...admin, transport: "cookie" }),
  });
  expect(setup.status).toBe(201);
  const signedInAt = Date.now();
  const page = await openTab(browser, app.url);
  await page.context().addCookies(
    setup.headers.getSetCookie().map((line) => {
      const [name = "", value = ""] = (line.split(";")[0] ?? "").split("=");
      return { name, value, url: app.url, httpOnly: true, sameSite: "Lax" as const };
    }),
  );
  await page.goto("/dashboard");
  await expect.poll(() => page.getByText(`Signed in as ${admin.email}`).count()).toBe(1);
  const first = await cookieHeaderOfContext(page);
  // A deadline, not a guess: the access token these cookies hold (the sign-in's, or one the proxy
  // renewed if loading the page outlasted it) has expired once its own `exp` has passed.
  const expiresAt = accessTokenExpiry(first) ?? signedInAt + ttlSeconds * 1000;
  const left = expiresAt + 1000 - Date.now();
  if (left > 0) await page.waitForTimeout(left);
  expect((await fetch(`${app.url}/api/user/me`, { headers: { cookie: first.replace(/[^;]*refresh-token=[^;]*;? ?/, "") } })).status).toBe(
    401,
  );
  await page.reload();
  await expect.poll(() => page.getByText(`Signed in as ${admin.email}`).count()).toBe(1);
  expect(await cookieHeaderOfContext(page)).not.toBe(first);
  await page.context().close();
}
