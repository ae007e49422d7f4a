import { readFile } from "node:fs/promises";
import { setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import type { Browser, CDPSession, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { addAuthenticator, launchBrowser, openTab, saveScreenshot, WAIT_MS, watchPolicy } from "./support/browser.js";
import { ADMIN, fillAccountForm, profileValue, signIn, signOut } from "./support/flows.js";

/**
 * Passkeys in the pages (docs/mfa.md) in Chromium against the production server, with the
 * browser's own WebAuthn and a virtual authenticator of the DevTools protocol standing in for
 * Touch ID or a security key: adding one on /profile, "Sign in with a passkey" on /login, a passkey
 * as the second step after the password, removing it, and a first administrator who must use a
 * second factor enrolling with a passkey at setup. Pages are opened on `localhost`: a relying
 * party is a host name, never an IP address.
 */

const BLOG = await readFile(new URL("../apps/web/domain.yaml", import.meta.url), "utf8");

/** The app's address on `localhost` (the server listens on 127.0.0.1). */
const onLocalhost = (url: string) => url.replace("127.0.0.1", "localhost");

/** The profile's "Passkeys" section. */
function passkeysSection(page: Page): Locator {
  return page.getByRole("main").getByRole("region", { name: "Passkeys", exact: true });
}

/** Adds a passkey named `name` on /profile and waits for the page to say so. */
async function addPasskeyOnProfile(page: Page, name: string): Promise<void> {
  const section = passkeysSection(page);
  await section
    .getByText(/You have no passkeys yet|Added/)
    .first()
    .waitFor();
  await section.getByRole("button", { name: "Add a passkey" }).click();
  await section.getByLabel("Passkey name").fill(name);
  await section.getByRole("button", { name: "Add a passkey" }).click();
  await section
    .getByRole("status")
    .filter({ hasText: `The passkey “${name}” was added` })
    .waitFor();
}

describe("passkeys in the browser", () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let authenticator: { cdp: CDPSession; authenticatorId: string };
  let policyReports: string[] = [];

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(), launchBrowser()]);
    await setUpAdmin(app.url, ADMIN);
    page = await openTab(browser, onLocalhost(app.url));
    policyReports = await watchPolicy(page);
    authenticator = await addAuthenticator(page);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("adds a passkey on /profile: the browser's prompt makes a discoverable credential, the list shows it", async () => {
    await signIn(page, ADMIN);
    const section = passkeysSection(page);
    await section.getByText("You have no passkeys yet.").waitFor();
    await addPasskeyOnProfile(page, "Laptop");
    await section.getByRole("listitem").filter({ hasText: "Laptop" }).waitFor();
    expect(await section.locator('dt:text-is("Last used") + dd').textContent()).toBe("Never");
    const { credentials } = await authenticator.cdp.send("WebAuthn.getCredentials", { authenticatorId: authenticator.authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" });
    await saveScreenshot(page, "passkeys-profile");
    await page.reload();
    await section.getByRole("listitem").filter({ hasText: "Laptop" }).waitFor();
  });

  test("signs in with the passkey alone from /login, and goes on to ?next=", async () => {
    await signOut(page);
    await page.goto("/login?next=%2Fadmin");
    await saveScreenshot(page, "passkeys-login");
    await page.getByRole("main").getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL("**/admin");
    await page.goto("/profile");
    expect(await profileValue(page, ADMIN.email, "Email")).toBe(ADMIN.email);
    expect(await passkeysSection(page).locator('dt:text-is("Last used") + dd').textContent()).not.toBe("Never");
  });

  test("after the password, asks for the passkey as the second step", async () => {
    await signOut(page);
    await page.goto("/login");
    await fillAccountForm(page, { email: ADMIN.email, password: ADMIN.password });
    const main = page.getByRole("main");
    await main.getByRole("button", { name: "Sign in", exact: true }).click();
    await main.getByRole("heading", { name: "Two-step verification" }).waitFor();
    // A passkey is the only factor: no code input is offered.
    expect(await main.getByLabel("Authentication code").count()).toBe(0);
    await saveScreenshot(page, "passkeys-second-step");
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith("/api/user/login/mfa")),
      main.getByRole("button", { name: "Use a passkey" }).click(),
    ]);
    expect(answer.status()).toBe(200);
    await page.waitForURL("**/profile");
  });

  test("removes the passkey: it signs in no more, and the password alone does again", async () => {
    const section = passkeysSection(page);
    await section.getByRole("button", { name: "Remove the passkey Laptop" }).click();
    await section.getByText("You have no passkeys yet.").waitFor();
    await signOut(page);
    const main = page.getByRole("main");
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith("/api/user/login/passkey")),
      main.getByRole("button", { name: "Sign in with a passkey" }).click(),
    ]);
    expect(answer.status()).toBe(401);
    await main.getByRole("alert").filter({ hasText: "The passkey was not accepted" }).waitFor();
    await signIn(page, ADMIN);
    expect(policyReports).toEqual([]);
  });
});

describe("a first administrator who must use a second factor enrols a passkey at setup", () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    const domain = BLOG.replace(/\n {2}endpoints: /, "\n  mfa: { totp: false, required: [Admin] }\n  endpoints: ");
    expect(domain).not.toBe(BLOG);
    [app, browser] = await Promise.all([startApp({ domain }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("setup → a passkey → the profile, signed in; the next sign-in asks for the passkey", async () => {
    const page = await openTab(browser, onLocalhost(app.url));
    await addAuthenticator(page);
    await page.goto("/setup");
    await fillAccountForm(page, { email: ADMIN.email, password: ADMIN.password });
    const main = page.getByRole("main");
    await main.getByRole("button", { name: /Create/ }).click();
    await main.getByRole("heading", { name: "Set up two-step verification" }).waitFor();
    // TOTP is off in this domain: the passkey is the one way offered.
    expect(await main.getByRole("button", { name: "Use an authenticator app instead" }).count()).toBe(0);
    await main.getByRole("button", { name: "Add a passkey" }).click();
    await page.waitForURL("**/profile", { timeout: WAIT_MS });
    expect(await profileValue(page, ADMIN.email, "Role")).toBe("Admin");
    await passkeysSection(page).getByRole("listitem").filter({ hasText: "Passkey" }).waitFor();
    await signOut(page);
    await fillAccountForm(page, { email: ADMIN.email, password: ADMIN.password });
    await main.getByRole("button", { name: "Sign in", exact: true }).click();
    await main.getByRole("button", { name: "Use a passkey" }).click();
    await page.waitForURL("**/profile");
  });
});
