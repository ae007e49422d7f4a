import { setUpAdmin, signUp } from "@domain-auth/test-support/accounts";
import { freePort, type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { linkOf, type MailServer, startMailServer } from "@domain-auth/test-support/mail-server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab, saveScreenshot } from "./support/browser.js";
import { ADMIN, api, profileCard, profileValue, signIn } from "./support/flows.js";

/**
 * The e-mail pages in a real browser against the production server sending to a real SMTP server
 * on 127.0.0.1: "Forgot password?" to signed in with the new password, an invitation, and
 * confirming an address from the profile, each following the link read from the captured mail.
 */

describe("account recovery by e-mail", () => {
  /** The public origin the links point at: the server's own, as the cookie sign-in after a reset accepts only it. */
  let appUrl: string;
  let app: RunningApp;
  let mail: MailServer;
  let browser: Browser;

  /** Opens a mailed link's page on the running app. */
  async function follow(page: Page, to: string, count = 1): Promise<void> {
    const link = linkOf(await mail.waitFor(to, { count }));
    expect(link.origin).toBe(appUrl);
    await page.goto(`${link.pathname}${link.search}`);
  }

  beforeAll(async () => {
    mail = await startMailServer();
    const port = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    [app, browser] = await Promise.all([
      startApp({ env: { SMTP_URL: mail.url, APP_URL: appUrl, PORT: String(port), MAIL_FROM: "no-reply@app.example.com" } }),
      launchBrowser(),
    ]);
    await setUpAdmin(app.url, ADMIN);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await mail?.close();
  });

  test("the e-mail pages carry the security headers: a nonce policy, and no referrer, as their links hold tokens", async () => {
    for (const path of ["/forgot-password", "/reset-password?token=t", "/verify-email?token=t"]) {
      const response = await fetch(`${app.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-security-policy"), path).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
      expect(response.headers.get("referrer-policy"), path).toBe("no-referrer");
      await response.body?.cancel();
    }
  });

  test("from “Forgot password?” on the sign-in page to signed in with the new password", async () => {
    const user = { email: "forgetful@example.com", password: "the password I forgot" };
    await signUp(app.url, user);
    const page = await openTab(browser, app.url);
    await page.goto("/login");
    const main = page.getByRole("main");
    await main.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL("**/forgot-password");
    await main.getByLabel("Email").filter({ visible: true }).fill(user.email);
    await main.getByRole("button", { name: "Send the link" }).click();
    expect(await main.getByRole("status").textContent()).toMatch(/If forgetful@example.com has an account, a link .* 30 minutes/);
    await saveScreenshot(page, "forgot-password-sent");

    await follow(page, user.email);
    await main.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await main.getByLabel("New password").fill("my brand new password");
    await main.getByRole("button", { name: "Change my password and sign in" }).click();
    await page.waitForURL("**/profile");
    expect(await profileValue(page, user.email, "Email")).toBe(user.email);
    await page.context().close();

    expect((await api(app.url, "/user/login", { method: "POST", body: user })).status).toBe(401);
    const renewed = await api(app.url, "/user/login", { method: "POST", body: { ...user, password: "my brand new password" } });
    expect(renewed.status).toBe(200);
  });

  test("an administrator invites a user, who chooses a password from the link and is signed in", async () => {
    const page = await openTab(browser, app.url);
    await signIn(page, ADMIN);
    await page.goto("/admin/users");
    const invite = page.getByRole("region", { name: "Invite user" });
    await invite.getByLabel("Email to invite").fill("invitee@example.com");
    await invite.getByRole("button", { name: "Send invitation" }).click();
    await invite.getByText("invitee@example.com is invited").waitFor();
    await page.getByRole("region", { name: "Users" }).getByRole("rowheader", { name: "invitee@example.com", exact: true }).waitFor();
    await page.context().close();

    const invited = await openTab(browser, app.url);
    await follow(invited, "invitee@example.com");
    const form = invited.getByRole("main");
    await form.getByRole("heading", { name: "Choose your password" }).waitFor();
    await saveScreenshot(invited, "invitation-choose-password");
    await form.getByLabel("Your password").fill("invitee chose this");
    await form.getByRole("button", { name: "Set my password and sign in" }).click();
    await invited.waitForURL("**/profile");
    expect(await profileValue(invited, "invitee@example.com", "Email")).toBe("invitee@example.com");
    await invited.context().close();
  });

  test("the profile says while the email is unconfirmed and sends a link on request, which confirms it", async () => {
    const user = { email: "unconfirmed@example.com", password: "unconfirmed password" };
    await signUp(app.url, user);
    const page = await openTab(browser, app.url);
    await signIn(page, user);
    const card = profileCard(page, user.email);
    await card.getByText("Your email address is not confirmed.").waitFor();
    // auth.verifyEmail is off: registering sent nothing, so the page speaks of no link sent.
    expect(await card.getByText("follow the link we sent").count()).toBe(0);
    expect(mail.to(user.email)).toEqual([]);
    await card.getByRole("button", { name: "Send me a confirmation link" }).click();
    await card.getByText("a new link is on its way").waitFor();

    await follow(page, user.email);
    const main = page.getByRole("main");
    await main.getByRole("button", { name: "Confirm my email address" }).click();
    await main.getByText("unconfirmed@example.com is confirmed.").waitFor();
    await page.goto("/profile");
    await card.getByRole("heading", { name: user.email }).waitFor();
    expect(await card.getByText("Your email address is not confirmed").count()).toBe(0);
    await page.context().close();
  });

  test("a used link says so and offers a new one", async () => {
    const page = await openTab(browser, app.url);
    await follow(page, "forgetful@example.com");
    const main = page.getByRole("main");
    await main.getByLabel("New password").fill("trying the link again");
    await main.getByRole("button", { name: "Change my password and sign in" }).click();
    await main.getByText("This link is invalid, already used").waitFor();
    expect(await main.getByRole("link", { name: "Ask for a new link" }).getAttribute("href")).toBe("/forgot-password");
    await page.context().close();
  });
});

describe("without SMTP_URL in production", () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp();
    await setUpAdmin(app.url, ADMIN);
  });
  afterAll(async () => {
    await app?.stop();
  });

  test("says so at start; the e-mail pages are 404 and the sign-in page has no “Forgot password?”", async () => {
    expect(app.output()).toMatch(/SMTP_URL is not set, so no e-mail is sent/);
    for (const path of ["/forgot-password", "/reset-password?token=x", "/verify-email?token=x"]) {
      expect((await fetch(`${app.url}${path}`)).status, path).toBe(404);
    }
    const login = await (await fetch(`${app.url}/login`)).text();
    expect(login).toContain("Sign in");
    expect(login).not.toContain("Forgot password?");
    expect((await api(app.url, "/user/forgot-password", { method: "POST", body: { email: "a@example.com" } })).status).toBe(404);
  });
});
