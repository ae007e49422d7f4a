import { setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab, saveScreenshot } from "./support/browser.js";
import {
  ADMIN,
  fieldErrorText,
  fillAccountForm,
  mainNav,
  profileValue,
  scriptStorage,
  sessionCookies,
  signIn,
  signOut,
} from "./support/flows.js";

const READER = { email: "rita@example.com", password: "reading all day", name: "Rita Reader" };

describe("register, sign in and sign out", () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchBrowser()]);
    await setUpAdmin(app.url, ADMIN);
    page = await openTab(browser, app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("signed out, the auth pages' header links to sign-in and registration", async () => {
    await page.goto("/profile");
    await page.getByRole("main").getByText("You are not signed in.").waitFor();
    const nav = mainNav(page);
    expect(await nav.getByRole("link", { name: "Sign in", exact: true }).getAttribute("href")).toBe("/login");
    expect(await nav.getByRole("link", { name: "Register" }).getAttribute("href")).toBe("/register");
    await saveScreenshot(page, "signed-out");
  });

  test("registering shows the API's field errors inline", async () => {
    await page.goto("/register");
    await fillAccountForm(page, { ...READER, email: "not-an-email@", password: "short" });
    const main = page.getByRole("main");
    const email = main.getByLabel("Email");
    const password = main.getByLabel("Password", { exact: true });
    await email.evaluate((input: HTMLInputElement) => {
      input.type = "text";
    });
    await main.getByRole("button", { name: "Create account" }).click();
    await fieldErrorText(password);
    expect(await email.getAttribute("aria-invalid")).toBe("true");
    expect(await password.getAttribute("aria-invalid")).toBe("true");
    const describedBy = await password.getAttribute("aria-describedby");
    expect(describedBy).toBeTruthy();
    expect(await page.locator(`[id="${describedBy?.split(" ").at(-1)}"]`).textContent()).toMatch(/^Password .*8.*\.$/);
    expect(await main.getByRole("alert").textContent()).toBe("Please correct the fields marked below.");
    await saveScreenshot(page, "register-field-errors");
    // An input's error goes once its value is no longer the one refused; the sentence above goes with the last.
    await email.fill(READER.email);
    await expect.poll(() => email.getAttribute("aria-invalid")).toBeNull();
    expect(await password.getAttribute("aria-invalid")).toBe("true");
    await password.fill(READER.password);
    await expect.poll(() => main.getByRole("alert").count()).toBe(0);
  });

  test("a registered user lands on their profile with the default role", async () => {
    await page.goto("/register");
    await fillAccountForm(page, READER);
    await page.getByRole("main").getByRole("button", { name: "Create account" }).click();
    await page.waitForURL("**/profile");
    expect(await profileValue(page, READER.email, "Role")).toBe("Reader");
    expect(await profileValue(page, READER.email, "Name")).toBe(READER.name);
    expect(await mainNav(page).getByRole("link", { name: "Admin" }).count()).toBe(0);
    await saveScreenshot(page, "profile-reader");
  });

  test("registering the same email again says it is taken", async () => {
    const other = await openTab(browser, app.url);
    await other.goto("/register");
    await fillAccountForm(other, { ...READER, email: " RITA@example.com " });
    await other.getByRole("main").getByRole("button", { name: "Create account" }).click();
    expect(await other.getByRole("main").getByRole("alert").textContent()).toMatch(/./);
    expect(new URL(other.url()).pathname).toBe("/register");
    await other.context().close();
  });

  test("signing out clears the session cookies; the profile then asks to sign in", async () => {
    await signOut(page);
    expect(await sessionCookies(page)).toEqual({ token: null, refreshToken: null });
    await page.goto("/profile");
    await page.getByRole("main").getByText("You are not signed in.").waitFor();
  });

  test("a wrong password shows an error and keeps the visitor signed out", async () => {
    await page.goto("/login");
    await fillAccountForm(page, { email: READER.email, password: "not the password" });
    await page.getByRole("main").getByRole("button", { name: "Sign in", exact: true }).click();
    expect(await page.getByRole("main").getByRole("alert").textContent()).toBeTruthy();
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await sessionCookies(page)).toEqual({ token: null, refreshToken: null });
    await saveScreenshot(page, "login-wrong-password");
  });

  test("signing in opens the profile; the session is in HttpOnly cookies that no script of the page sees", async () => {
    await signIn(page, READER);
    expect(await scriptStorage(page)).toEqual({ cookies: "", session: [], local: [] });
    const { token, refreshToken } = await sessionCookies(page);
    expect(token && refreshToken).toBeTruthy();
    expect(await profileValue(page, READER.email, "Email")).toBe(READER.email);
    expect(await profileValue(page, READER.email, "Role")).toBe("Reader");
    await mainNav(page).getByText(READER.email).waitFor();
  });
});
