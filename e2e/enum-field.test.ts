import { readFile } from "node:fs/promises";
import { setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab } from "./support/browser.js";
import { ADMIN, signIn } from "./support/flows.js";

/**
 * An `enum` field in the pages: the admin's record form offers its values in a labelled select
 * (and an empty choice, the field being optional), starting on the default, and what is chosen is
 * what the API stores.
 */

const BLOG = await readFile(new URL("../apps/web/domain.yaml", import.meta.url), "utf8");

describe("an enum field in the admin's forms", () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const domain = BLOG.replace(
      /(\n {6}title: [^\n]*)/,
      "$1\n      status: { type: enum, values: [draft, review, published], default: draft }",
    );
    expect(domain).not.toBe(BLOG);
    [app, browser] = await Promise.all([startApp({ domain }), launchBrowser()]);
    await setUpAdmin(app.url, ADMIN);
    page = await openTab(browser, app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("offers the values, starts on the default, and stores the choice", async () => {
    await signIn(page, ADMIN);
    await page.goto("/admin/records/post");
    const posts = page.getByRole("main").getByRole("region", { name: "Posts", exact: true });
    await posts.getByRole("button", { name: "New Post" }).click();
    const status = posts.getByLabel("Status");
    expect(await status.locator("option").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))).toEqual([
      // Not required: it may be left empty (on create the default applies; on edit it clears).
      "",
      "draft",
      "review",
      "published",
    ]);
    expect(await status.inputValue()).toBe("draft");
    await posts.getByLabel("Title").fill("Choosing");
    await status.selectOption("review");
    await posts.getByRole("button", { name: "Create", exact: true }).click();
    await posts.getByText("Post created.").waitFor();
    const listed = await page.request.get("/api/post");
    expect((await listed.json()).items[0]).toMatchObject({ title: "Choosing", status: "review" });
  });
});
