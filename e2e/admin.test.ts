import { setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab, saveScreenshot } from "./support/browser.js";
import { ADMIN, api, mainNav, profileValue, signIn } from "./support/flows.js";

const BOB = { email: "bob@example.com", password: "bob's long password", name: "Bob" };

describe("admin page", () => {
  let app: RunningApp;
  let browser: Browser;
  let admin: Page;
  let bob: Page;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchBrowser()]);
    await setUpAdmin(app.url, ADMIN);
    expect((await api(app.url, "/user/register", { body: BOB })).status).toBe(201);
    [admin, bob] = await Promise.all([openTab(browser, app.url), openTab(browser, app.url)]);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("a user without the setup role sees that the page is not allowed, and gets no user list", async () => {
    await signIn(bob, BOB);
    await bob.goto("/admin");
    const main = bob.getByRole("main");
    await main.getByRole("heading", { name: "Not allowed" }).waitFor();
    expect(await main.getByRole("heading", { name: "Users" }).count()).toBe(0);
    await saveScreenshot(bob, "admin-not-allowed");
  });

  test("a signed-out visitor is asked to sign in", async () => {
    const visitor = await openTab(browser, app.url);
    await visitor.goto("/admin");
    await visitor.getByRole("main").getByText("You are not signed in.").waitFor();
    await visitor.context().close();
  });

  test("the administrator lists users and changes a role", async () => {
    await signIn(admin, ADMIN);
    await mainNav(admin).getByRole("link", { name: "Admin" }).click();
    await admin.waitForURL("**/admin");
    const users = admin.getByRole("region", { name: "Users" });
    const role = users.getByLabel(`Role of ${BOB.email}`, { exact: true });
    expect(await role.inputValue()).toBe("Reader");
    expect(await users.getByLabel(`Role of ${ADMIN.email}`, { exact: true }).inputValue()).toBe("Admin");
    await saveScreenshot(admin, "admin");

    await role.selectOption("Editor");
    await users.getByRole("button", { name: `Change role of ${BOB.email}` }).click();
    await users.getByText(`${BOB.email} now has the role Editor.`).waitFor();
    expect(await users.getByLabel(`Role of ${BOB.email}`, { exact: true }).inputValue()).toBe("Editor");
  });

  test("the role change ends the user's old session, and their next sign-in carries the new role", async () => {
    await bob.goto("/profile");
    await bob.getByRole("main").getByText("Your session is no longer valid. Please sign in again.").waitFor();
    await signIn(bob, BOB);
    expect(await profileValue(bob, BOB.email, "Role")).toBe("Editor");
    await bob.goto("/admin");
    await bob.getByRole("main").getByRole("heading", { name: "Not allowed" }).waitFor();
  });

  test("the last administrator cannot be demoted", async () => {
    const users = admin.getByRole("region", { name: "Users" });
    await users.getByLabel(`Role of ${ADMIN.email}`, { exact: true }).selectOption("Reader");
    await users.getByRole("button", { name: `Change role of ${ADMIN.email}` }).click();
    await users.getByRole("alert").waitFor();
    expect(await users.getByLabel(`Role of ${ADMIN.email}`, { exact: true }).inputValue()).toBe("Admin");
  });

  test("the administrator creates, edits and deletes a record of an entity", async () => {
    const posts = admin.getByRole("region", { name: "Post", exact: true });
    await posts.getByRole("button", { name: "New Post" }).click();
    await posts.getByLabel("Title").fill("Hello, world");
    await posts.getByLabel("Body").fill("The first post.");
    await posts.getByLabel("Published").check();
    await saveScreenshot(admin, "admin-new-post");
    await posts.getByRole("button", { name: "Create" }).click();
    await posts.getByText("Post created.").waitFor();
    const row = posts.getByRole("row").filter({ hasText: "Hello, world" });
    expect(await row.textContent()).toContain("Yes");

    await row.getByRole("button", { name: "Edit" }).click();
    await posts.getByLabel("Title").fill("Hello again");
    await posts.getByRole("button", { name: "Save" }).click();
    await posts.getByText("Post saved.").waitFor();
    await posts.getByRole("row").filter({ hasText: "Hello again" }).waitFor();

    const list = await api(app.url, "/post");
    expect(list.body.total).toBe(1);

    const edited = posts.getByRole("row").filter({ hasText: "Hello again" });
    await edited.getByRole("button", { name: "Delete" }).click();
    await edited.getByRole("button", { name: "Confirm delete" }).click();
    await posts.getByText("Post deleted.").waitFor();
    await posts.getByText("No Post records yet.").waitFor();
    expect((await api(app.url, "/post")).body.total).toBe(0);
  });
});
