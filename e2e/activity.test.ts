import { setUpAdmin, signIn as signInByApi, signUp } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { call } from "@domain-auth/test-support/http-client";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab, saveScreenshot, WAIT_MS } from "./support/browser.js";
import { ADMIN, signIn, signOut } from "./support/flows.js";

/**
 * The security events in the pages (docs/events.md) in Chromium against the production server: the
 * "Activity" view of /admin (everyone's events, filtered by user and by type, a page at a time) and
 * "Recent sign-ins" of /profile (the user's sign-ins and the failed attempts against the account);
 * and the admin's record lists, a page at a time after each page's cursor.
 */

const MEMBER = { email: "member@example.com", password: "member password 1" };
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";

/** A token of the administrator, signed in through the API. */
async function adminToken(url: string): Promise<string> {
  return (await signInByApi(url, ADMIN)).token;
}

/** The security events of /admin/activity. */
function activity(page: Page): Locator {
  return page.getByRole("main").getByRole("region", { name: "Security events", exact: true });
}

/** The text of each row of the activity table, once it has loaded. */
async function activityRows(page: Page): Promise<string[]> {
  const table = activity(page).getByRole("table");
  await expect.poll(() => table.getAttribute("aria-busy"), { timeout: WAIT_MS }).toBe("false");
  return table.locator("tbody tr").allInnerTexts();
}

describe("security events in the browser", () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchBrowser()]);
    await setUpAdmin(app.url, ADMIN);
    await signUp(app.url, MEMBER);
    // A failed attempt against the member's account, from another device.
    const refused = await call(app.url, {
      method: "POST",
      path: "/api/user/login",
      body: { email: MEMBER.email, password: "not the password" },
      headers: { "user-agent": FIREFOX },
    });
    expect(refused.status).toBe(401);
    page = await openTab(browser, app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("/profile shows the user's recent sign-ins and the failed attempt against the account", async () => {
    await signIn(page, MEMBER);
    const section = page.getByRole("main").getByRole("region", { name: "Recent sign-ins", exact: true });
    const items = section.getByRole("listitem");
    await expect.poll(() => items.count(), { timeout: WAIT_MS }).toBe(3);
    const failed = items.filter({ hasText: "Failed attempt" });
    expect(await failed.count()).toBe(1);
    expect(await failed.innerText()).toContain("Firefox on Linux");
    expect(await failed.innerText()).toContain("127.0.0.1");
    await saveScreenshot(page, "activity-recent-sign-ins");
    await signOut(page);
  });

  test("/admin/activity lists everyone's events, filtered by user and by type", async () => {
    await signIn(page, ADMIN);
    await page.goto("/admin/activity");
    const rows = await activityRows(page);
    expect(rows[0]).toContain("Signed in");
    expect(rows[0]).toContain(ADMIN.email);
    expect(rows.some((row) => row.includes("Failed sign-in attempt") && row.includes(MEMBER.email))).toBe(true);
    expect(rows.some((row) => row.includes("First administrator created"))).toBe(true);
    expect(rows.some((row) => row.includes("Registered") && row.includes(MEMBER.email))).toBe(true);
    await saveScreenshot(page, "activity-admin");

    await activity(page).getByLabel("User").selectOption({ label: MEMBER.email });
    await expect.poll(async () => (await activityRows(page)).every((row) => row.includes(MEMBER.email)), { timeout: WAIT_MS }).toBe(true);
    await activity(page).getByLabel("Event").selectOption({ label: "Failed sign-in attempt" });
    await expect.poll(async () => (await activityRows(page)).length, { timeout: WAIT_MS }).toBe(1);
    expect((await activityRows(page))[0]).toContain("Firefox on Linux");
  });

  test("pages through more events than one page holds, older and back", async () => {
    for (let attempt = 0; attempt < 22; attempt++) {
      const answer = await call(app.url, {
        method: "POST",
        path: "/api/user/login",
        body: { email: `nobody-${attempt}@example.com`, password: "whatever it is" },
      });
      expect(answer.status).toBe(401);
    }
    await page.goto("/admin/activity");
    await activity(page).getByLabel("Event").selectOption({ label: "Failed sign-in attempt" });
    await expect.poll(async () => (await activityRows(page)).length, { timeout: WAIT_MS }).toBe(20);
    const first = await activityRows(page);
    expect(first[0]).toContain("nobody-21@example.com");
    await activity(page).getByRole("button", { name: "Older" }).click();
    await expect.poll(async () => (await activityRows(page)).length, { timeout: WAIT_MS }).toBe(3);
    const second = await activityRows(page);
    expect(second.some((row) => row.includes(MEMBER.email))).toBe(true);
    expect(await activity(page).getByRole("button", { name: "Older" }).isDisabled()).toBe(true);
    await activity(page).getByRole("button", { name: "Newer" }).click();
    await expect.poll(async () => (await activityRows(page))[0], { timeout: WAIT_MS }).toBe(first[0]);
  });

  test("/admin/records/post pages a record list after each page's cursor: next, the last page, and back", async () => {
    const token = await adminToken(app.url);
    for (let index = 0; index < 23; index++) {
      const created = await call(app.url, { method: "POST", path: "/api/post", token, body: { title: `Post ${index}` } });
      expect(created.status).toBe(201);
    }
    await page.goto("/admin/records/post");
    const posts = page.getByRole("main").getByRole("region", { name: "Posts", exact: true });
    const pager = posts.getByRole("navigation", { name: "Post pages" });
    await pager.getByText("1–20 of 23").waitFor();
    await pager.getByRole("button", { name: "Next" }).click();
    await pager.getByText("21–23 of 23").waitFor();
    expect(await posts.getByRole("row").filter({ hasText: "Post 22" }).count()).toBe(1);
    expect(await pager.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
    await pager.getByRole("button", { name: "Previous" }).click();
    await pager.getByText("1–20 of 23").waitFor();
  });
});
