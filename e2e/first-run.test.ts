import { describe, expect, test } from "vitest";
import { openTab, saveScreenshot, useServedApp } from "./support/browser.js";
import { ADMIN, api, fieldErrorText, fillAccountForm, mainNav, profileValue, scriptStorage, sessionCookies } from "./support/flows.js";

describe("first run", () => {
  const served = useServedApp();

  test("the server's start line points to /setup", () => {
    expect(served.app.output()).toMatch(/create the first administrator at http:\/\/localhost:\d+\/setup/);
    expect(served.app.output()).not.toContain("SETUP_TOKEN");
  });

  test("every auth page leads to /setup while no user exists; the home page stays and leads there", async () => {
    const page = await openTab(served.browser, served.app.url);
    for (const path of ["/login", "/register", "/profile", "/admin"]) {
      await page.goto(path);
      expect(new URL(page.url()).pathname, path).toBe("/setup");
    }
    await page.goto("/");
    expect(new URL(page.url()).pathname).toBe("/");
    const main = page.getByRole("main");
    await main.getByRole("heading", { name: "blog", level: 1 }).waitFor();
    expect(await main.getByRole("cell", { name: "Post", exact: true }).count()).toBe(1);
    expect(await main.getByText("Editor", { exact: true }).count()).toBe(1);
    expect(await main.getByRole("link", { name: "Browse the API reference" }).getAttribute("href")).toBe("/docs");
    expect(await main.getByRole("link", { name: "Sign in", exact: true }).count()).toBe(0);
    await saveScreenshot(page, "home-setup-open");
    await main.getByRole("link", { name: "Create the first administrator" }).click();
    await page.waitForURL("**/setup");
    await page.context().close();
  });

  test("setup shows the API's field errors inline, then creates the administrator and opens the profile", async () => {
    const page = await openTab(served.browser, served.app.url);
    await page.goto("/setup");
    const main = page.getByRole("main");
    await main.getByRole("heading", { name: "Welcome to blog" }).waitFor();
    expect(await main.getByLabel("Setup token").count()).toBe(0);
    await saveScreenshot(page, "first-run");

    await fillAccountForm(page, { ...ADMIN, password: "short" });
    await main.getByRole("button", { name: "Create administrator" }).click();
    expect(await fieldErrorText(main.getByLabel("Password", { exact: true }))).toMatch(/8/);
    await saveScreenshot(page, "first-run-field-error");

    await fillAccountForm(page, ADMIN);
    await main.getByRole("button", { name: "Create administrator" }).click();
    await page.waitForURL("**/profile");
    expect(await profileValue(page, ADMIN.email, "Role")).toBe("Admin");
    expect(await profileValue(page, ADMIN.email, "Email")).toBe(ADMIN.email);
    expect(await profileValue(page, ADMIN.email, "Name")).toBe(ADMIN.name);
    // The header, hidden while setup was pending, now shows the signed-in links.
    await mainNav(page).getByRole("link", { name: "Admin" }).waitFor();
    await saveScreenshot(page, "profile-admin");

    // Signed in with cookies the page's scripts cannot read: nothing of the session is in their reach.
    expect(await scriptStorage(page)).toEqual({ cookies: "", session: [], local: [] });
    const cookies = await page.context().cookies();
    expect(
      cookies
        .map(({ name, httpOnly, sameSite, path }) => ({ name, httpOnly, sameSite, path }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ).toEqual([
      { name: "domain-auth.refresh-token", httpOnly: true, sameSite: "Lax", path: "/" },
      { name: "domain-auth.token", httpOnly: true, sameSite: "Lax", path: "/" },
    ]);
    const { token } = await sessionCookies(page);
    expect(await page.content()).not.toContain(String(token));
    await page.context().close();
  });

  test("a second visit to /setup says setup is complete and links to sign-in; the API refuses another setup", async () => {
    const page = await openTab(served.browser, served.app.url);
    await page.goto("/setup");
    await page.getByRole("main").getByRole("heading", { name: "Setup is complete" }).waitFor();
    expect(await page.getByRole("main").getByRole("link", { name: "Sign in", exact: true }).getAttribute("href")).toBe("/login");
    await saveScreenshot(page, "setup-complete");
    await page.context().close();

    const again = await api(served.app.url, "/user/setup", { body: { email: "second@example.com", password: "another password" } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("SETUP_COMPLETE");
    expect((await api(served.app.url, "/user/setup")).body).toEqual({ setupRequired: false });
  });

  test("once setup is done the home page no longer leads to /setup but, signed out, to sign-in and registration", async () => {
    const page = await openTab(served.browser, served.app.url);
    await page.goto("/");
    const main = page.getByRole("main");
    await main.getByRole("heading", { name: "blog", level: 1 }).waitFor();
    expect(await page.locator('a[href="/setup"]').count()).toBe(0);
    expect(await main.getByRole("link", { name: "Create the first administrator" }).count()).toBe(0);
    expect(await main.getByRole("link", { name: "Sign in", exact: true }).getAttribute("href")).toBe("/login");
    expect(await main.getByRole("link", { name: "Create an account" }).getAttribute("href")).toBe("/register");
    // The profile is for someone signed in (e2e/pages.test.ts).
    expect(await main.getByRole("link", { name: "Your profile" }).count()).toBe(0);
    await saveScreenshot(page, "home");
    await page.context().close();
  });
});
