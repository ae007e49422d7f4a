import { setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab, WAIT_MS } from "./support/browser.js";
import {
  ADMIN,
  api,
  countRefreshes,
  fillAccountForm,
  mainNav,
  profileValue,
  scriptStorage,
  sessionCookies,
  signIn,
  signOut,
} from "./support/flows.js";

/**
 * The pages' cookie sessions (docs/web.md#pages, docs/api.md#cookie-sessions) in Chromium against the production server: no token
 * within reach of the page's scripts, the session shared by the browser's tabs and kept across a
 * restart, the server's render signed in, sign-out everywhere at once, and the proxy's renewal.
 */

const CREDENTIALS = { email: ADMIN.email, password: ADMIN.password };

/** The `Cookie` header of the browser's session cookies, as another program holding their values would send it. */
async function cookieHeader(page: Page): Promise<string> {
  const { token, refreshToken } = await sessionCookies(page);
  return `domain-auth.token=${token}; domain-auth.refresh-token=${refreshToken}`;
}

/** `GET /api/user/me` with a `Cookie` header, from outside the browser. */
async function meWithCookies(app: RunningApp, cookie: string): Promise<number> {
  const response = await fetch(`${app.url}/api/user/me`, { headers: { cookie } });
  await response.body?.cancel();
  return response.status;
}

/** When a token expires, in milliseconds since the epoch (its payload read, not verified). */
function expiryOf(token: string): number {
  return (JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as { exp: number }).exp * 1000;
}

describe("cookie sessions in the browser", () => {
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchBrowser()]);
    await setUpAdmin(app.url, ADMIN);
    page = await openTab(browser, app.url);
    context = page.context();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("after sign-in no token is within a script's reach: not in document.cookie, web storage or the page's HTML", async () => {
    await signIn(page, ADMIN);
    const { token, refreshToken } = await sessionCookies(page);
    expect(token && refreshToken).toBeTruthy();
    const cookies = await context.cookies();
    expect(cookies.every((cookie) => cookie.httpOnly && cookie.sameSite === "Lax")).toBe(true);
    expect(await scriptStorage(page)).toEqual({ cookies: "", session: [], local: [] });
    const html = await page.content();
    const served = await (await page.request.get("/profile")).text();
    for (const text of [html, served]) {
      expect(text).not.toContain(String(token));
      expect(text).not.toContain(String(refreshToken));
      expect(text).not.toContain(String(token).split(".")[1]);
    }
  });

  test("a second tab of the browser opens /profile signed in", async () => {
    const second = await context.newPage();
    await second.goto("/profile");
    expect(await profileValue(second, ADMIN.email, "Email")).toBe(ADMIN.email);
    await mainNav(second).getByText(ADMIN.email).waitFor();
    await second.close();
  });

  test("a restarted browser (its saved state in a new context) is still signed in: the cookies outlive the session", async () => {
    const cookies = await context.cookies();
    // Persistent cookies (an expiry, not a session cookie): a browser keeps them across a restart.
    expect(cookies.map((cookie) => cookie.expires > Date.now() / 1000)).toEqual([true, true]);
    const restarted = await browser.newContext({ baseURL: app.url, storageState: await context.storageState() });
    restarted.setDefaultTimeout(WAIT_MS);
    const tab = await restarted.newPage();
    await tab.goto("/profile");
    expect(await profileValue(tab, ADMIN.email, "Role")).toBe("Admin");
    await restarted.close();
  });

  test("the server renders /profile with the user for a request carrying the cookies, and signed out without them", async () => {
    const withBrowserCookies = await page.request.get("/profile");
    expect(withBrowserCookies.status()).toBe(200);
    expect(await withBrowserCookies.text()).toContain(ADMIN.email);
    const withCookieHeader = await fetch(`${app.url}/profile`, { headers: { cookie: await cookieHeader(page) } });
    expect(await withCookieHeader.text()).toContain(ADMIN.email);
    const anonymous = await (await fetch(`${app.url}/profile`)).text();
    expect(anonymous).not.toContain(ADMIN.email);
    expect(anonymous).toContain("You are not signed in.");
  });

  test("a logout from another site is refused 403 FORBIDDEN_ORIGIN and ends nothing", async () => {
    const cookie = await cookieHeader(page);
    const response = await fetch(`${app.url}/api/user/logout`, {
      method: "POST",
      headers: { cookie, origin: "https://evil.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { code: string }).code).toBe("FORBIDDEN_ORIGIN");
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await meWithCookies(app, cookie)).toBe(200);
  });

  test("signing out in one tab: the other shows it at once, its next page is signed out, and the old cookies are refused", async () => {
    const other = await context.newPage();
    await other.goto("/profile");
    await mainNav(other).getByText(ADMIN.email).waitFor();
    const old = await cookieHeader(page);
    expect(await meWithCookies(app, old)).toBe(200);

    await page.goto("/profile");
    await signOut(page);
    // Told by the first tab, without a request of its own.
    await mainNav(other).getByRole("link", { name: "Sign in", exact: true }).waitFor();
    await other.getByRole("main").getByText("You are not signed in.").waitFor();
    await other.goto("/admin");
    await other.getByRole("main").getByText("You are not signed in.").waitFor();
    expect(await sessionCookies(other)).toEqual({ token: null, refreshToken: null });
    expect(await meWithCookies(app, old)).toBe(401);
    await other.close();
  });

  test("/login?next= comes back to the page after sign-in; a next off this origin opens the profile", async () => {
    await page.goto("/admin");
    const notice = page.getByRole("main").getByRole("status");
    await notice.getByText("You are not signed in.").waitFor();
    expect(await notice.getByRole("link", { name: "Sign in", exact: true }).getAttribute("href")).toBe("/login?next=%2Fadmin");
    await notice.getByRole("link", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("next") === "/admin");
    await fillAccountForm(page, CREDENTIALS);
    await page.getByRole("main").getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL("**/admin");
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Users" }).waitFor();
    await signOut(page);

    await page.goto("/login?next=%2F%2Fevil.example");
    await fillAccountForm(page, CREDENTIALS);
    await page.getByRole("main").getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${app.url}/profile`);
  });
});

describe("cookie sessions with a short-lived access token", () => {
  const TTL_SECONDS = 2;
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp({ env: { AUTH_TOKEN_TTL: String(TTL_SECONDS) } }), launchBrowser()]);
    await setUpAdmin(app.url, ADMIN);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("a reload after the access token expired still shows the user: the proxy renewed the cookies first", async () => {
    const page = await openTab(browser, app.url);
    await signIn(page, ADMIN);
    // The project's own home page keeps nothing alive: the token expires while it is open.
    await page.goto("/");
    await mainNav(page).getByText(ADMIN.email).waitFor();
    const expired = String((await sessionCookies(page)).token);
    const expiry = expiryOf(expired);
    await expect.poll(() => Date.now() > expiry, { timeout: TTL_SECONDS * 1000 + WAIT_MS, interval: 100 }).toBe(true);
    expect((await api(app.url, "/user/me", { token: expired })).status).toBe(401);

    const refreshes = countRefreshes(page);
    const response = await page.reload();
    expect(await response?.text()).toContain(ADMIN.email);
    await mainNav(page).getByText(ADMIN.email).waitFor();
    const renewed = String((await sessionCookies(page)).token);
    expect(renewed).not.toBe(expired);
    expect(expiryOf(renewed)).toBeGreaterThan(expiry);
    // Renewed by the server before the page rendered, not by a request of the page. (No further page
    // is opened: with a 2-second access token, a render slower than that on a loaded machine would
    // find the token the proxy had just accepted expired.)
    expect(refreshes.count()).toBe(0);
    await page.context().close();
  });
});
