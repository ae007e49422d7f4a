import { readFileSync } from "node:fs";
import { setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab, saveScreenshot } from "./support/browser.js";
import { ADMIN, api, mainNav, profileCard, profileValue, scriptStorage, sessionCookies, signIn, signOut } from "./support/flows.js";

const BLOG = readFileSync(new URL("../apps/web/domain.yaml", import.meta.url), "utf8");

/** The blog example with other `auth.endpoints`. */
function blogWithEndpoints(endpoints: string): string {
  const changed = BLOG.replace(/endpoints: \{[^}]*\}/, `endpoints: { ${endpoints} }`);
  if (changed === BLOG) throw new Error("the sample domain.yaml has no endpoints line to change");
  return changed;
}

const OPEN_NOTES = `name: notes
entities:
  Note:
    fields:
      title: { type: string, required: true }
      done: { type: boolean, default: false }
auth:
  type: none
`;

async function status(app: RunningApp, path: string): Promise<number> {
  return (await fetch(`${app.url}${path}`, { redirect: "manual" })).status;
}

describe("pages follow the domain's auth block", () => {
  let browser: Browser;
  let app: RunningApp | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterEach(async () => {
    await app?.stop();
    app = undefined;
  });

  afterAll(async () => {
    await browser?.close();
  });

  test("register disabled: /register is 404 and never linked; me disabled: the profile comes from the token", async () => {
    app = await startApp({ domain: blogWithEndpoints("register: false, me: false") });
    await setUpAdmin(app.url, ADMIN);
    expect(await status(app, "/register")).toBe(404);

    const page = await openTab(browser, app.url);
    // Counted once the links are there: the project's home page renders its own, the auth pages'
    // header renders the signed-out links once the page knows the tab has no session.
    const ready = {
      "/": page.getByRole("main").getByRole("link", { name: "Sign in", exact: true }),
      "/login": mainNav(page).getByRole("link", { name: "Sign in", exact: true }),
    };
    for (const [path, signInLink] of Object.entries(ready)) {
      await page.goto(path);
      await signInLink.waitFor();
      expect(await page.locator('a[href="/register"]').count(), path).toBe(0);
    }
    await signIn(page, ADMIN);
    expect(await profileValue(page, ADMIN.email, "Email")).toBe(ADMIN.email);
    expect(await profileValue(page, ADMIN.email, "Role")).toBe("Admin");
    await profileCard(page, ADMIN.email).getByText("Shown from your sign-in token.").waitFor();
    await saveScreenshot(page, "profile-from-token");
  });

  test("logout, refresh and sessions disabled: the pages neither call nor show them", async () => {
    app = await startApp({ domain: blogWithEndpoints("logout: false, refresh: false, sessions: false") });
    await setUpAdmin(app.url, ADMIN);
    const page = await openTab(browser, app.url);
    const calls: string[] = [];
    page.on("request", (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith("/api/")) calls.push(`${request.method()} ${pathname}`);
    });
    await signIn(page, ADMIN);
    expect(await profileValue(page, ADMIN.email, "Email")).toBe(ADMIN.email);
    const { token, refreshToken } = await sessionCookies(page);
    expect(token).toBeTruthy();
    expect(refreshToken).toBeNull();
    expect(await scriptStorage(page)).toEqual({ cookies: "", session: [], local: [] });
    expect(await page.getByRole("main").getByRole("region", { name: "Signed-in devices" }).count()).toBe(0);

    await page.goto("/admin/users");
    const users = page.getByRole("region", { name: "Users" });
    await users.getByLabel(`Role of ${ADMIN.email}`, { exact: true }).waitFor();
    expect(await users.getByRole("button", { name: /everywhere/ }).count()).toBe(0);
    await signOut(page);
    expect(await sessionCookies(page)).toEqual({ token: null, refreshToken: null });
    expect(calls.filter((call) => /\/(logout|refresh|sessions)\b/.test(call))).toEqual([]);
    await page.goto("/profile");
    await page.getByRole("main").getByText("You are not signed in.").waitFor();
    // Without logout the browser can only drop its cookies: the server still accepts the token until it expires.
    expect((await api(app.url, "/user/me", { token: String(token) })).status).toBe(200);
  });

  test("setup disabled: /setup is 404 and no page leads there, even with no user", async () => {
    app = await startApp({ domain: blogWithEndpoints("setup: false") });
    expect(app.output()).toMatch(/ready at http:\/\/localhost:\d+\//);
    expect(await status(app, "/setup")).toBe(404);
    for (const path of ["/", "/login", "/register", "/profile", "/admin"]) expect(await status(app, path), path).toBe(200);
    const page = await openTab(browser, app.url);
    await page.goto("/");
    expect(await page.locator('a[href="/setup"]').count()).toBe(0);
  });

  test("auth none: every auth page is 404 and the admin lists the entities openly", async () => {
    app = await startApp({ domain: OPEN_NOTES });
    for (const path of ["/setup", "/login", "/register", "/profile"]) expect(await status(app, path), path).toBe(404);
    // The admin's pages about users exist only with users.
    for (const path of [
      "/admin/users",
      "/admin/users/x",
      "/admin/api-keys",
      "/admin/activity",
      "/admin/organizations",
      "/admin/records/nothing",
    ])
      expect(await status(app, path), path).toBe(404);
    for (const path of ["/admin", "/admin/records/note"]) expect(await status(app, path), path).toBe(200);

    const page = await openTab(browser, app.url);
    await page.goto("/admin");
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Notes" }).click();
    await page.waitForURL("**/admin/records/note");
    const notes = page.getByRole("region", { name: "Notes", exact: true });
    await notes.getByText("No Note records yet.").waitFor();
    await notes.getByRole("button", { name: "New Note" }).click();
    await notes.getByLabel("Title").fill("Buy milk");
    await notes.getByRole("button", { name: "Create", exact: true }).click();
    await notes.getByRole("row").filter({ hasText: "Buy milk" }).waitFor();
    await saveScreenshot(page, "records-open");
    expect(await page.context().cookies()).toEqual([]);
  });
});
