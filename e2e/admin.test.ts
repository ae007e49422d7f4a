import { addUser, type SignedIn, setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { auditPage } from "./support/audit.js";
import { launchBrowser, openTab, saveScreenshot, WAIT_MS } from "./support/browser.js";
import { ADMIN, api, mainNav, signIn } from "./support/flows.js";

/**
 * The admin in Chromium on a production build: a page per section beside a navigation of those the
 * caller may open; every page within the viewport at 390 and 1280 px and free of serious or critical
 * axe-core findings; records searched, sorted and paged over 1,000 of them; references by label; a
 * 200-character value that keeps the layout; an Editor who creates a post from their own records page.
 */

const BOB = { email: "bob@example.com", password: "bob's long password", name: "Bob" };
const LONG_TITLE = `Zebras ${"and a very long title that goes on ".repeat(6)}`.slice(0, 200);
const RECORDS = 1_000;

/** The main part of the page (the admin's page beside its navigation). */
function main(page: Page): Locator {
  return page.getByRole("main");
}

/** The admin's navigation. */
function adminNav(page: Page): Locator {
  return page.getByRole("navigation", { name: "Admin" });
}

/** The text of the records table's pager ("21–40 of 1002"). */
function pagerText(page: Page): Locator {
  return main(page).getByRole("navigation", { name: "Post pages" }).locator("span");
}

/** The names of the records on show, in order: each row's header cell. */
async function rowNames(page: Page): Promise<string[]> {
  return main(page).locator("tbody th[scope=row]").allTextContents();
}

/** Creates posts through the API, `concurrency` at a time. */
async function seedPosts(url: string, token: string, titles: readonly string[], concurrency = 20): Promise<void> {
  for (let start = 0; start < titles.length; start += concurrency) {
    const batch = titles.slice(start, start + concurrency);
    const answers = await Promise.all(batch.map((title) => api(url, "/post", { method: "POST", token, body: { title } })));
    for (const answer of answers) expect(answer.status).toBe(201);
  }
}

describe("admin", () => {
  let app: RunningApp;
  let browser: Browser;
  let admin: Page;
  let administrator: SignedIn;
  let bob: SignedIn;
  let longPost: string;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchBrowser()]);
    administrator = await setUpAdmin(app.url, ADMIN);
    bob = await addUser(app.url, administrator, BOB);
    const created = await api(app.url, "/post", { method: "POST", token: administrator.token, body: { title: LONG_TITLE, body: "Long." } });
    longPost = String((created.body.item as { id: string }).id);
    admin = await openTab(browser, app.url);
    await signIn(admin, ADMIN);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("a signed-out visitor is asked to sign in on every admin page", async () => {
    const visitor = await openTab(browser, app.url);
    for (const path of ["/admin", "/admin/users", "/admin/records/post"]) {
      await visitor.goto(path);
      await main(visitor).getByText("You are not signed in.").waitFor();
    }
    await visitor.context().close();
  });

  test("a Reader, who may change no record, has no admin: no link, and its pages are not allowed", async () => {
    const reader = await openTab(browser, app.url);
    await signIn(reader, BOB);
    expect(await mainNav(reader).getByRole("link", { name: "Admin" }).count()).toBe(0);
    for (const path of ["/admin", "/admin/users", "/admin/records/post"]) {
      await reader.goto(path);
      await main(reader).getByRole("heading", { name: "Not allowed" }).waitFor();
    }
    expect(await main(reader).getByRole("table").count()).toBe(0);
    await reader.context().close();
  });

  test("the administrator's navigation: a page per section, in the domain's order", async () => {
    await mainNav(admin).getByRole("link", { name: "Admin" }).click();
    await admin.waitForURL("**/admin");
    const links = adminNav(admin).getByRole("link");
    expect(await links.allTextContents()).toEqual(["Overview", "Users", "Posts", "API keys", "Activity"]);
    expect(await adminNav(admin).getByRole("link", { name: "Overview" }).getAttribute("aria-current")).toBe("page");
    await adminNav(admin).getByRole("link", { name: "Posts" }).click();
    await admin.waitForURL("**/admin/records/post");
    await main(admin).getByRole("heading", { name: "Posts", level: 1 }).waitFor();
    expect(await adminNav(admin).getByRole("link", { name: "Posts" }).getAttribute("aria-current")).toBe("page");
    expect(await admin.title()).toBe("Posts · blog");
  });

  test("a 200-character title keeps the table in its frame, and shows whole on hover and on the record's page", async () => {
    await admin.setViewportSize({ width: 1280, height: 800 });
    await admin.goto("/admin/records/post");
    const row = main(admin).getByRole("row").filter({ hasText: "Zebras" });
    await row.waitFor();
    const name = row.getByRole("link", { name: LONG_TITLE });
    expect(await name.getAttribute("title")).toBe(LONG_TITLE);
    // The row's actions stay on screen beside it.
    const remove = row.getByRole("button", { name: `Delete ${LONG_TITLE}` });
    const box = await remove.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(1280);
    await name.click();
    await admin.waitForURL(`**/admin/records/post/${longPost}`);
    expect(await main(admin).getByRole("heading", { level: 1 }).textContent()).toBe(LONG_TITLE);
  });

  test("a reference shows by its label, linked: a post's author by e-mail, to the user's page", async () => {
    await admin.goto(`/admin/records/post/${longPost}`);
    const author = main(admin).locator("dt:text-is('Author') + dd").getByRole("link", { name: ADMIN.email });
    await author.waitFor();
    expect(await author.getAttribute("href")).toBe(`/admin/users/${administrator.id}`);
    await admin.goto("/admin/records/post");
    const row = main(admin).getByRole("row").filter({ hasText: "Zebras" });
    await row.getByRole("link", { name: ADMIN.email }).waitFor();
  });

  test("the activity chart is drawn from the real sign-ins and failed attempts, with a table beside it", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const refused = await api(app.url, "/user/login", { body: { email: BOB.email, password: "not bob's password at all" } });
      expect(refused.status).toBe(401);
    }
    const answer = await api(app.url, "/user/events/summary?window=24h", { token: administrator.token });
    expect(answer.status).toBe(200);
    const buckets = answer.body.buckets as { signIns: number; failures: number }[];
    const signIns = buckets.reduce((sum, bucket) => sum + bucket.signIns, 0);
    const failures = buckets.reduce((sum, bucket) => sum + bucket.failures, 0);
    expect(failures).toBeGreaterThanOrEqual(3);
    expect(signIns).toBeGreaterThanOrEqual(3);

    await admin.goto("/admin/activity");
    const chart = main(admin).getByRole("img", { name: /^Sign-ins and failed attempts per hour/ });
    await chart.waitFor();
    expect(await chart.locator("desc").textContent()).toContain(`${signIns} sign-ins and ${failures} failed attempts over`);
    await main(admin).getByText("Show as table").click();
    const table = main(admin).getByRole("table", { name: /^Sign-ins and failed attempts per hour/ });
    expect(await table.locator("tbody tr").count()).toBe(24);
    const cells = await table
      .locator("tbody tr")
      .evaluateAll((rows) =>
        rows.map((row) => Array.from(row.querySelectorAll("td")).map((cell) => Number(cell.textContent?.replace(/\D/g, "")))),
      );
    expect(cells.reduce((sum, [ins = 0]) => sum + ins, 0)).toBe(signIns);
    expect(cells.reduce((sum, [, failed = 0]) => sum + failed, 0)).toBe(failures);
    const addresses = main(admin).getByRole("table", { name: /most failed sign-in attempts/ });
    expect(Number(await addresses.locator("tbody tr td").first().textContent())).toBe(failures);

    await main(admin).getByRole("button", { name: "7 days" }).click();
    await main(admin)
      .getByRole("img", { name: /^Sign-ins and failed attempts per day/ })
      .waitFor();
    await expect.poll(() => main(admin).locator("details table tbody tr").count(), { timeout: WAIT_MS }).toBe(7);
  });

  test("every admin page fits a phone's width and a desktop's, and axe-core finds nothing serious, light and dark", async () => {
    const pages: [path: string, name: string, ready: (page: Page) => Promise<unknown>][] = [
      ["/admin", "admin-overview", (page) => main(page).locator(".da-overview-count").first().filter({ hasNotText: "…" }).waitFor()],
      ["/admin/users", "admin-users", (page) => main(page).getByRole("link", { name: BOB.email }).waitFor()],
      [`/admin/users/${bob.id}`, "admin-user", (page) => main(page).getByRole("heading", { name: BOB.email, level: 1 }).waitFor()],
      ["/admin/records/post", "admin-posts", (page) => main(page).getByRole("row").filter({ hasText: "Zebras" }).waitFor()],
      [
        `/admin/records/post/${longPost}`,
        "admin-post",
        (page) => main(page).getByRole("heading", { level: 1, name: LONG_TITLE }).waitFor(),
      ],
      ["/admin/api-keys", "admin-api-keys", (page) => main(page).getByRole("heading", { name: "API keys", level: 1 }).waitFor()],
      ["/admin/activity", "admin-activity", (page) => main(page).getByRole("heading", { name: "Activity", level: 1 }).waitFor()],
    ];
    for (const scheme of ["light", "dark"] as const) {
      await admin.emulateMedia({ colorScheme: scheme });
      for (const [path, name, ready] of pages) {
        await admin.goto(path);
        for (const audit of await auditPage(admin, `${name}-${scheme}`, () => ready(admin))) {
          expect(audit.overflow, `${path} at ${audit.width} px, ${scheme}`).toBeLessThanOrEqual(0);
          expect(audit.violations, `${path} at ${audit.width} px, ${scheme}`).toEqual([]);
        }
      }
    }
    await admin.emulateMedia({ colorScheme: "light" });
    await admin.setViewportSize({ width: 1100, height: 760 });
  });

  test("an Editor creates a post from their own records page, and changes only their own", async () => {
    const changed = await api(app.url, `/user/${bob.id}`, { method: "PATCH", token: administrator.token, body: { role: "Editor" } });
    expect(changed.status).toBe(200);
    const editor = await openTab(browser, app.url);
    await signIn(editor, BOB);
    await mainNav(editor).getByRole("link", { name: "Admin" }).click();
    await editor.waitForURL("**/admin");
    expect(await adminNav(editor).getByRole("link").allTextContents()).toEqual(["Overview", "Posts"]);
    await adminNav(editor).getByRole("link", { name: "Posts" }).click();
    const posts = main(editor);
    await posts.getByRole("button", { name: "New Post" }).click();
    await posts.getByLabel("Title").fill("Bob's first post");
    await posts.getByLabel("Body").fill("Written by an Editor.");
    await posts.getByRole("button", { name: "Create", exact: true }).click();
    await posts.getByText("Post created.").waitFor();
    const own = posts.getByRole("row").filter({ hasText: "Bob's first post" });
    await own.getByRole("link", { name: BOB.email }).or(own.getByText(BOB.email)).first().waitFor();
    expect(await own.getByRole("button", { name: "Edit Bob's first post" }).count()).toBe(1);
    // Only the Admin role deletes posts; the administrator's post is not Bob's to edit.
    expect(await own.getByRole("button", { name: /^Delete/ }).count()).toBe(0);
    const others = posts.getByRole("row").filter({ hasText: "Zebras" });
    expect(await others.getByRole("button").count()).toBe(0);
    await saveScreenshot(editor, "admin-editor-posts");
    const list = await api(app.url, "/post?q=Bob%27s%20first");
    expect((list.body.items as { author: string }[]).map((item) => item.author)).toEqual([bob.id]);
    await editor.goto("/admin/users");
    await main(editor).getByRole("heading", { name: "Not allowed" }).waitFor();
    await editor.context().close();
  });

  test("search, sort and paging over 1,000 records", { timeout: 120_000 }, async () => {
    const titles = Array.from({ length: RECORDS }, (_, index) => `Entry ${String(index + 1).padStart(4, "0")}`);
    await seedPosts(app.url, administrator.token, titles);
    const total = RECORDS + 2;
    await admin.goto("/admin/records/post");
    await pagerText(admin)
      .filter({ hasText: `1–20 of ${total}` })
      .waitFor();
    await main(admin).getByRole("button", { name: "Next" }).click();
    await pagerText(admin)
      .filter({ hasText: `21–40 of ${total}` })
      .waitFor();

    const search = main(admin).getByRole("searchbox", { name: "Search Post records" });
    await search.fill("entry 0777");
    await expect.poll(() => rowNames(admin), { timeout: WAIT_MS }).toEqual(["Entry 0777"]);

    await search.fill("Entry 09");
    await pagerText(admin).filter({ hasText: "1–20 of 100" }).waitFor();
    for (let page = 2; page <= 5; page += 1) await main(admin).getByRole("button", { name: "Next" }).click();
    await pagerText(admin).filter({ hasText: "81–100 of 100" }).waitFor();
    await expect.poll(() => rowNames(admin), { timeout: WAIT_MS }).toEqual(titles.slice(979, 999));
    expect(await main(admin).getByRole("button", { name: "Next" }).isDisabled()).toBe(true);

    await search.fill("");
    const title = main(admin).getByRole("columnheader", { name: "Title" });
    await title.getByRole("button").click();
    await expect.poll(() => title.getAttribute("aria-sort"), { timeout: WAIT_MS }).toBe("ascending");
    await expect.poll(async () => (await rowNames(admin))[0], { timeout: WAIT_MS }).toBe("Bob's first post");
    await title.getByRole("button").click();
    await expect.poll(() => title.getAttribute("aria-sort"), { timeout: WAIT_MS }).toBe("descending");
    await expect
      .poll(async () => (await rowNames(admin)).slice(0, 3), { timeout: WAIT_MS })
      .toEqual([LONG_TITLE, "Entry 1000", "Entry 0999"]);
    await main(admin).getByRole("button", { name: "Next" }).click();
    await expect.poll(async () => (await rowNames(admin))[0], { timeout: WAIT_MS }).toBe("Entry 0981");
  });
});
