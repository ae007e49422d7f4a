import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { setUpAdmin } from "@domain-auth/test-support/accounts";
import { freePort, type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { linkOf, type MailServer, startMailServer } from "@domain-auth/test-support/mail-server";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab, saveScreenshot } from "./support/browser.js";
import { ADMIN, api, fieldErrorText, fillAccountForm, profileCard, profileValue, signIn, signOut } from "./support/flows.js";

/**
 * The profile's own-account forms in Chromium against the production server, on a domain that
 * confirms e-mail addresses (`auth.verifyEmail`, a real SMTP server on 127.0.0.1): a person changes
 * their name, their password (a wrong current one is said beside its input; after the change the old
 * password no longer signs in) and their e-mail (a confirmation link goes to the new address, which
 * then signs in); every password input has a "Show"/"Hide" toggle that axe finds named as it reads.
 */

const SHOTS = "/tmp/profile-shots";
const DOMAIN = readFileSync(new URL("../apps/web/domain.yaml", import.meta.url), "utf8").replace(
  "  type: jwt\n",
  "  type: jwt\n  verifyEmail: true\n",
);
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const RITA = { email: "rita@example.com", password: "reading all day long", name: "Rita Reader" };
const NEW_PASSWORD = "a quieter library at dusk";
const NEW_EMAIL = "rita.writer@example.com";

/** Screenshots of the page at a phone's width and a desktop's, under /tmp/profile-shots/; the phone's must not scroll sideways. */
async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} at ${width} px`).toBeLessThanOrEqual(0);
  }
}

/** The axe rules that the toggle and the forms' names concern, run on the page as it is. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string }[] }> } }).axe;
    const rules = ["label-content-name-mismatch", "button-name", "label", "aria-allowed-attr", "aria-valid-attr-value", "duplicate-id"];
    const result = await axe.run(document, { runOnly: { type: "rule", values: rules } });
    return result.violations.map((violation) => violation.id);
  });
}

/** Whether the element has the focus (polled: the focus moves once the form has rendered). */
function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === document.activeElement);
}

/** The profile's "Email and password" section. */
function credentials(page: Page): Locator {
  return page.getByRole("main").getByRole("region", { name: "Email and password", exact: true });
}

/** Opens one of the section's forms by its button, and returns the form (named by its heading). */
async function openForm(page: Page, button: string, heading: string): Promise<Locator> {
  await credentials(page).getByRole("button", { name: button, exact: true }).click();
  const form = credentials(page).getByRole("form", { name: heading });
  await form.waitFor();
  return form;
}

describe("the profile changes what its owner expects", () => {
  let appUrl: string;
  let app: RunningApp;
  let mail: MailServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mail = await startMailServer();
    const port = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    [app, browser] = await Promise.all([
      startApp({ domain: DOMAIN, env: { SMTP_URL: mail.url, APP_URL: appUrl, PORT: String(port) } }),
      launchBrowser(),
    ]);
    const admin = await setUpAdmin(app.url, ADMIN);
    // Created by the administrator with a password: an address that counts as confirmed, as `verifyEmail` needs to sign in.
    expect((await api(app.url, "/user", { method: "POST", body: RITA, token: admin.token })).status).toBe(201);
    page = await openTab(browser, app.url);
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, RITA);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await mail?.close();
  });

  test("a person changes their name; it is saved for the next visit", async () => {
    const card = profileCard(page, RITA.email);
    await card.getByRole("button", { name: "Edit details" }).click();
    const form = card.getByRole("form", { name: "Edit your details" });
    const name = form.getByLabel("Name");
    expect(await name.inputValue()).toBe(RITA.name);
    await expect.poll(() => isFocused(name)).toBe(true);
    await shoot(page, "profile-edit-details");
    await name.fill("Rita Writer");
    await form.getByRole("button", { name: "Save details" }).click();
    await card.getByRole("status").filter({ hasText: "Your details have been saved." }).waitFor();
    expect(await profileValue(page, RITA.email, "Name")).toBe("Rita Writer");
    await expect.poll(() => isFocused(card.getByRole("button", { name: "Edit details" }))).toBe(true);
    await page.reload();
    expect(await profileValue(page, RITA.email, "Name")).toBe("Rita Writer");
  });

  test("the show-password toggle reveals the password and hides it again, named as it reads", async () => {
    const form = await openForm(page, "Change password", "Change your password");
    const current = form.getByLabel("Current password");
    await current.fill("a secret to peek at");
    const toggle = form.getByRole("button", { name: "Show", exact: true }).first();
    expect([await current.getAttribute("type"), await toggle.getAttribute("aria-pressed")]).toEqual(["password", "false"]);
    await toggle.click();
    const hide = form.getByRole("button", { name: "Hide", exact: true });
    expect([await current.getAttribute("type"), await hide.getAttribute("aria-pressed")]).toEqual(["text", "true"]);
    expect(await current.inputValue()).toBe("a secret to peek at");
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, "profile-password-shown");
    await hide.click();
    expect(await current.getAttribute("type")).toBe("password");
    expect(await form.getByRole("button", { name: "Show", exact: true }).count()).toBe(2);
    await form.getByRole("button", { name: "Cancel" }).click();
  });

  test("a wrong current password is said in one sentence beside it, gone once it is changed", async () => {
    const form = await openForm(page, "Change password", "Change your password");
    const current = form.getByLabel("Current password");
    await current.fill("not my password");
    await form.getByLabel("New password").fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    expect(await fieldErrorText(current)).toBe("Current password is wrong.");
    expect(await form.getByRole("alert").textContent()).toBe("Please correct the fields marked below.");
    await expect.poll(() => isFocused(current)).toBe(true);
    await shoot(page, "profile-wrong-password");
    await current.fill(RITA.password.slice(0, 3));
    expect(await current.getAttribute("aria-invalid")).toBeNull();
    expect(await form.getByRole("alert").count()).toBe(0);
    await form.getByRole("button", { name: "Cancel" }).click();
  });

  test("a person changes their password: still signed in here, then only the new one signs in", async () => {
    const form = await openForm(page, "Change password", "Change your password");
    await form.getByLabel("Current password").fill(RITA.password);
    await form.getByLabel("New password").fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    await credentials(page).getByRole("status").filter({ hasText: "Your password has been changed." }).waitFor();
    await page.reload();
    expect(await profileValue(page, RITA.email, "Email")).toBe(RITA.email);

    await signOut(page);
    await fillAccountForm(page, { email: RITA.email, password: RITA.password });
    await page.getByRole("main").getByRole("button", { name: "Sign in", exact: true }).click();
    expect(await page.getByRole("main").getByRole("alert").textContent()).toBeTruthy();
    expect(new URL(page.url()).pathname).toBe("/login");
    const password = page.getByLabel("Password", { exact: true });
    await page.getByRole("main").getByRole("button", { name: "Show", exact: true }).click();
    expect(await password.getAttribute("type")).toBe("text");
    expect(await axeViolations(page)).toEqual([]);
    await signIn(page, { ...RITA, password: NEW_PASSWORD });
  });

  test("a person changes their e-mail: a confirmation link goes to the new address, which then signs in", async () => {
    const form = await openForm(page, "Change email", "Change your email");
    await form.getByLabel("New email").fill(NEW_EMAIL);
    await form.getByLabel("Current password").fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Change email" }).click();
    await credentials(page)
      .getByRole("status")
      .filter({ hasText: `We sent a confirmation link to ${NEW_EMAIL}` })
      .waitFor();
    await profileCard(page, NEW_EMAIL).getByText(`follow the link we sent to ${NEW_EMAIL}`).waitFor();
    expect(linkOf(await mail.waitFor(NEW_EMAIL)).pathname).toBe("/verify-email");
    await shoot(page, "profile-email-changed");

    await signOut(page);
    await signIn(page, { email: NEW_EMAIL, password: NEW_PASSWORD });
    expect(await profileValue(page, NEW_EMAIL, "Name")).toBe("Rita Writer");
    await saveScreenshot(page, "profile-edit");
  });
});
