import { randomBytes } from "node:crypto";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { createPostgresDatabase } from "@domain-auth/test-support/databases";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab } from "./support/browser.js";
import { ADMIN, api, fillAccountForm, profileValue, sessionCookies, signIn, signOut } from "./support/flows.js";

describe("two instances on one PostgreSQL database behave as one", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let first: RunningApp;
  let second: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const env = { DATABASE_URL: database.url, AUTH_SECRET: randomBytes(32).toString("base64url") };
    [first, second, browser] = await Promise.all([startApp({ env }), startApp({ env }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([first?.stop(), second?.stop()]);
    await database?.drop();
  });

  test("setup on one instance completes it on the other, and a sign-in on the other works", async () => {
    const page = await openTab(browser, first.url);
    await page.goto("/setup");
    await fillAccountForm(page, ADMIN);
    await page.getByRole("main").getByRole("button", { name: "Create administrator" }).click();
    await page.waitForURL("**/profile");

    const other = await openTab(browser, second.url);
    await other.goto("/setup");
    await other.getByRole("main").getByRole("heading", { name: "Setup is complete" }).waitFor();
    await signIn(other, ADMIN);
    expect(await profileValue(other, ADMIN.email, "Role")).toBe("Admin");
  });

  test("signing out in a tab of one instance ends the session on the other at once", async () => {
    const page = await openTab(browser, first.url);
    await signIn(page, ADMIN);
    const { token, refreshToken } = await sessionCookies(page);
    expect((await api(second.url, "/user/me", { token: String(token) })).status).toBe(200);
    await signOut(page);
    expect((await api(second.url, "/user/me", { token: String(token) })).status).toBe(401);
    expect((await api(second.url, "/user/refresh", { body: { refreshToken } })).status).toBe(401);
    await page.context().close();
  });

  test("a token from one instance is accepted by the other, and failed sign-ins count across both", async () => {
    const login = (app: RunningApp, password: string) => api(app.url, "/user/login", { body: { email: ADMIN.email, password } });
    const { body } = await login(first, ADMIN.password);
    expect((await api(second.url, "/user/me", { token: String(body.token) })).status).toBe(200);

    const statuses = [];
    for (const app of [first, second, first, second, first]) statuses.push((await login(app, "wrong password")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect((await login(second, ADMIN.password)).status).toBe(429);
  });
});
