import { setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab, saveScreenshot, WAIT_MS } from "./support/browser.js";
import { ADMIN, api, countRefreshes, mainNav, profileValue, sessionCookies, signIn, signOut } from "./support/flows.js";

const READER = { email: "rita@example.com", password: "reading all day", name: "Rita Reader" };
const BOB = { email: "bob@example.com", password: "bob's long password", name: "Bob" };
const LAPTOP = "Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0";
const PHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const TABLET = "Mozilla/5.0 (Linux; Android 14; Pixel Tablet) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

/** The access token of the tab's browser (its HttpOnly cookie), which must be there. */
async function accessToken(page: Page): Promise<string> {
  const { token } = await sessionCookies(page);
  if (!token) throw new Error("the browser keeps no access cookie");
  return token;
}

async function meStatus(app: RunningApp, token: string): Promise<number> {
  return (await api(app.url, "/user/me", { token })).status;
}

/** The answers of the API to the tab from now on, in order, as `"<method> <path> <status>"` (`"POST /api/post 401"`). */
function recordAnswers(page: Page): string[] {
  const answers: string[] = [];
  page.on("response", (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith("/api/")) answers.push(`${response.request().method()} ${pathname} ${response.status()}`);
  });
  return answers;
}

/**
 * Until the server refuses `token` (it has expired): polled, as the expiry is the server's to decide.
 * Bounded by the token's own lifetime and the tests' usual wait, not by a guess of the machine's speed.
 */
async function untilRefused(app: RunningApp, token: string): Promise<void> {
  const timeout = Math.max(0, expiryOf(token) - Date.now()) + WAIT_MS;
  await expect.poll(() => meStatus(app, token), { timeout, interval: 200 }).toBe(401);
}

/** When a token expires, in milliseconds since the epoch (its payload read, not verified). */
function expiryOf(token: string): number {
  return (JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as { exp: number }).exp * 1000;
}

/** The item of the signed-in devices list that shows `userAgent`. */
function sessionRow(page: Page, userAgent: string) {
  return page.getByRole("main").getByRole("region", { name: "Signed-in devices" }).getByRole("listitem").filter({ hasText: userAgent });
}

describe("sessions: sign-out, signed-in devices, signing a user out everywhere", () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchBrowser()]);
    await setUpAdmin(app.url, ADMIN);
    for (const account of [READER, BOB]) expect((await api(app.url, "/user/register", { body: account })).status).toBe(201);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("signing out ends the session on the server: the old access and refresh tokens are refused", async () => {
    const page = await openTab(browser, app.url);
    await signIn(page, READER);
    const { token, refreshToken } = await sessionCookies(page);
    expect(token && refreshToken).toBeTruthy();
    expect(await meStatus(app, String(token))).toBe(200);

    await signOut(page);
    expect(await sessionCookies(page)).toEqual({ token: null, refreshToken: null });
    expect(await meStatus(app, String(token))).toBe(401);
    const refreshed = await api(app.url, "/user/refresh", { body: { refreshToken } });
    expect(refreshed.status).toBe(401);
    expect(refreshed.body.code).toBe("INVALID_REFRESH_TOKEN");
    await page.context().close();
  });

  test("/profile lists the signed-in devices and signs out another one, then all others", async () => {
    const laptop = await openTab(browser, app.url, { userAgent: LAPTOP });
    const phone = await openTab(browser, app.url, { userAgent: PHONE });
    await signIn(phone, READER);
    await signIn(laptop, READER);

    const devices = laptop.getByRole("main").getByRole("region", { name: "Signed-in devices" });
    await sessionRow(laptop, PHONE).waitFor();
    const laptopRow = sessionRow(laptop, LAPTOP);
    expect(await laptopRow.textContent()).toContain("Firefox on Linux");
    expect(await laptopRow.textContent()).toContain("This device");
    expect(await sessionRow(laptop, PHONE).textContent()).toContain("Safari on iOS");
    expect(await sessionRow(laptop, PHONE).getByText("This device").count()).toBe(0);
    for (const label of ["Signed in", "Last refresh"])
      expect(await laptopRow.locator(`dt:text-is("${label}") + dd`).textContent()).toMatch(/\d/);
    await saveScreenshot(laptop, "profile-sessions");

    const phoneToken = await accessToken(phone);
    expect(await meStatus(app, phoneToken)).toBe(200);
    await sessionRow(laptop, PHONE)
      .getByRole("button", { name: /^Sign out Safari on iOS/ })
      .click();
    await devices.getByText("Safari on iOS has been signed out.").waitFor();
    await sessionRow(laptop, PHONE).waitFor({ state: "detached" });
    expect(await meStatus(app, phoneToken)).toBe(401);
    expect(await meStatus(app, await accessToken(laptop))).toBe(200);

    // The revoked browser's next page knows it from the server: its cookies are no longer accepted.
    const phoneRefreshes = countRefreshes(phone);
    await phone.goto("/profile");
    await phone.getByRole("main").getByText("Your session is no longer valid. Please sign in again.").waitFor();
    expect(phoneRefreshes.count()).toBe(0);

    const tablet = await openTab(browser, app.url, { userAgent: TABLET });
    await signIn(tablet, READER);
    const tabletToken = await accessToken(tablet);
    await laptop.goto("/profile");
    await sessionRow(laptop, TABLET).waitFor();
    await devices.getByRole("button", { name: "Sign out all other devices" }).click();
    await devices.getByText("Every other device has been signed out.").waitFor();
    await sessionRow(laptop, TABLET).waitFor({ state: "detached" });
    expect(await devices.getByRole("button", { name: "Sign out all other devices" }).count()).toBe(0);
    expect(await meStatus(app, tabletToken)).toBe(401);
    expect(await meStatus(app, await accessToken(laptop))).toBe(200);
    expect(await profileValue(laptop, READER.email, "Email")).toBe(READER.email);
    for (const page of [laptop, phone, tablet]) await page.context().close();
  });

  test("the administrator signs a user out everywhere from /admin/users", async () => {
    const [admin, bob, bobElsewhere] = await Promise.all([
      openTab(browser, app.url),
      openTab(browser, app.url, { userAgent: LAPTOP }),
      openTab(browser, app.url, { userAgent: PHONE }),
    ]);
    await signIn(bob, BOB);
    await signIn(bobElsewhere, BOB);
    const bobTokens = [await sessionCookies(bob), await sessionCookies(bobElsewhere)];
    await signIn(admin, ADMIN);
    await admin.goto("/admin/users");
    const users = admin.getByRole("region", { name: "Users" });
    await users.getByRole("button", { name: `Sign out ${BOB.email} everywhere` }).click();
    await users.getByText(`${BOB.email} has been signed out everywhere.`).waitFor();
    await saveScreenshot(admin, "admin-sign-out-everywhere");

    for (const { token, refreshToken } of bobTokens) {
      expect(await meStatus(app, String(token))).toBe(401);
      expect((await api(app.url, "/user/refresh", { body: { refreshToken } })).status).toBe(401);
    }
    expect(await meStatus(app, await accessToken(admin))).toBe(200);
    await bob.goto("/profile");
    await bob.getByRole("main").getByText("Your session is no longer valid. Please sign in again.").waitFor();
    for (const page of [admin, bob, bobElsewhere]) await page.context().close();
  });
});

describe("sessions: the access token is refreshed while the tab is open", () => {
  const TTL_SECONDS = 4;
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

  test("the page keeps working past the first token's expiry without signing in again", async () => {
    const page = await openTab(browser, app.url);
    const refreshes = countRefreshes(page);
    await signIn(page, ADMIN);
    const first = await accessToken(page);
    const firstExpiry = expiryOf(first);

    // The tab renews the session ahead of the expiry (new cookies): wait for that, then for the server to refuse the first token.
    await expect.poll(() => accessToken(page), { timeout: TTL_SECONDS * 1000 + WAIT_MS }).not.toBe(first);
    expect(refreshes.count()).toBeGreaterThanOrEqual(1);
    await untilRefused(app, first);
    // The browser holds a newer token, good past the first one's expiry.
    expect(expiryOf(await accessToken(page))).toBeGreaterThan(firstExpiry);

    // Still signed in: the admin page loads its users with the renewed cookie.
    await mainNav(page).getByRole("link", { name: "Admin" }).click();
    await page.waitForURL("**/admin");
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Users" }).click();
    await page.getByRole("region", { name: "Users" }).getByLabel(`Role of ${ADMIN.email}`, { exact: true }).waitFor();
    await page.goto("/profile");
    expect(await profileValue(page, ADMIN.email, "Email")).toBe(ADMIN.email);
    expect(await page.getByRole("main").getByText("Please sign in again.").count()).toBe(0);
    await page.context().close();
  });

  test("a page opened after the token expired while no auth page was open is rendered signed in: the proxy renewed it", async () => {
    const page = await openTab(browser, app.url);
    await signIn(page, ADMIN);
    await page.goto("/");
    // The token as the project's own home page leaves it: that page keeps nothing alive.
    const expired = await accessToken(page);
    await untilRefused(app, expired);

    const answers = recordAnswers(page);
    const response = await page.goto("/profile");
    expect(await response?.text()).toContain(ADMIN.email);
    expect(await profileValue(page, ADMIN.email, "Email")).toBe(ADMIN.email);
    expect(answers.filter((answer) => answer.includes("/refresh"))).toEqual([]);
    expect(await accessToken(page)).not.toBe(expired);
    await page.context().close();
  });
});

describe("sessions: a call refused for a cookie the tab believed good", () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchBrowser()]);
    await setUpAdmin(app.url, ADMIN);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("triggers exactly one refresh, and the call is sent again", async () => {
    const page = await openTab(browser, app.url);
    await signIn(page, ADMIN);
    await page.goto("/admin/records/post");
    const posts = page.getByRole("region", { name: "Posts", exact: true });
    await posts.getByText("No Post records yet.").waitFor();
    // Only API calls from here, before the cookie is replaced: a page request (a prefetch) would have the proxy renew the session first.
    await page.route(
      (url) => !url.pathname.startsWith("/api/"),
      (route) => route.abort(),
    );
    // The access cookie replaced by one with an expiry an hour away and so a broken signature: the tab
    // has no reason to renew it, the server refuses it.
    const [header, payload, signature] = (await accessToken(page)).split(".");
    const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString()) as { exp: number };
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 3600 })).toString("base64url")}.${signature}`;
    const cookie = (await page.context().cookies()).find((candidate) => candidate.name === "domain-auth.token");
    if (!cookie) throw new Error("no access cookie");
    // Set by URL, host-only like the server's, so it takes the place of that cookie.
    const { name, expires, httpOnly, sameSite } = cookie;
    await page.context().addCookies([{ name, value: forged, url: app.url, expires, httpOnly, sameSite }]);
    expect(await accessToken(page)).toBe(forged);
    expect(await meStatus(app, forged)).toBe(401);

    const answers = recordAnswers(page);
    await posts.getByRole("button", { name: "New Post" }).click();
    await posts.getByLabel("Title").fill("Sent twice");
    await posts.getByRole("button", { name: "Create", exact: true }).click();
    await posts.getByText("Post created.").waitFor();
    // Refused; sent again under the refresh lock (another tab might have refreshed); one refresh; sent once more.
    expect(answers.filter((answer) => answer.startsWith("POST "))).toEqual([
      "POST /api/post 401",
      "POST /api/post 401",
      "POST /api/user/refresh 200",
      "POST /api/post 201",
    ]);
    expect(await accessToken(page)).not.toBe(forged);
    expect((await api(app.url, "/post")).body.total).toBe(1);
    await page.context().close();
  });
});
