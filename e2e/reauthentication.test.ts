import { setUpAdmin, signUp } from "@domain-auth/test-support/accounts";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { addAuthenticator, openTab, saveScreenshot, useServedApp, WAIT_MS, watchPolicy } from "./support/browser.js";
import { ADMIN, signIn } from "./support/flows.js";

/**
 * Sensitive actions in the pages (docs/security.md#sensitive-actions) in Chromium against the
 * production server, started with `AUTH_REAUTH_WINDOW=0` so that every session counts as one that
 * signed in long ago: adding a passkey, setting up an authenticator app and creating an API key each
 * ask for the password first, refuse a wrong one, and go through with the right one.
 */

/** The app's address on `localhost`: a passkey's relying party is a host name. */
const onLocalhost = (url: string) => url.replace("127.0.0.1", "localhost");

describe("a stale session in the browser", () => {
  const served = useServedApp({ env: { AUTH_REAUTH_WINDOW: "0" } });
  let page: Page;
  let policyReports: string[] = [];

  beforeAll(async () => {
    await setUpAdmin(served.app.url, ADMIN);
    page = await openTab(served.browser, onLocalhost(served.app.url));
    policyReports = await watchPolicy(page);
    await addAuthenticator(page);
    await signIn(page, ADMIN);
  });

  test("sets up an authenticator app only after the password", async () => {
    const section = page.getByRole("main").getByRole("region", { name: "Two-step verification", exact: true });
    await section.getByRole("button", { name: "Turn on two-step verification" }).click();
    await section.getByText("To set up an authenticator app, confirm it is you").waitFor();
    await section.getByLabel("Current password").fill(ADMIN.password);
    await section.getByRole("button", { name: "Confirm" }).click();
    await section.getByRole("img", { name: "QR code of the new secret, for your authenticator app" }).waitFor();
    await section.getByRole("button", { name: "Cancel" }).click();
  });

  test("adds a passkey only after the password: a wrong one is refused beside its input", async () => {
    const section = page.getByRole("main").getByRole("region", { name: "Passkeys", exact: true });
    await section.getByText("You have no passkeys yet.").waitFor();
    await section.getByRole("button", { name: "Add a passkey" }).click();
    await section.getByLabel("Passkey name").fill("Laptop");
    await section.getByRole("button", { name: "Add a passkey" }).click();
    await section.getByText("To add a passkey, confirm it is you").waitFor();
    expect(await section.getByRole("listitem").count()).toBe(0);
    await section.getByLabel("Current password").fill("not my password");
    await section.getByRole("button", { name: "Confirm" }).click();
    await section.getByText("is wrong").waitFor();
    await saveScreenshot(page, "reauth-passkey");
    await section.getByLabel("Current password").fill(ADMIN.password);
    await section.getByRole("button", { name: "Confirm" }).click();
    await section.getByRole("status").filter({ hasText: "The passkey “Laptop” was added" }).waitFor();
    await section.getByRole("listitem").filter({ hasText: "Laptop" }).waitFor();
  });

  test("gives another user the administrator role only after the password", async () => {
    const bob = await signUp(served.app.url, { email: "bob@example.com" });
    await page.goto("/admin/users");
    const users = page.getByRole("region", { name: "Users" });
    await users.getByLabel(`Role of ${bob.email}`, { exact: true }).selectOption("Admin");
    await users.getByRole("button", { name: `Change role of ${bob.email}` }).click();
    await users.getByText("To give this role, confirm it is you").waitFor();
    await users.getByLabel("Current password").fill(ADMIN.password);
    await users.getByRole("button", { name: "Confirm" }).click();
    await users
      .getByRole("status")
      .filter({ hasText: `${bob.email} now has the role Admin.` })
      .waitFor();
    // The list read again shows the role given.
    await expect.poll(() => users.getByLabel(`Role of ${bob.email}`, { exact: true }).inputValue(), { timeout: WAIT_MS }).toBe("Admin");
    await page.goto("/profile");
  });

  test("creates an API key only after the password", async () => {
    const section = page.getByRole("main").getByRole("region", { name: "API keys", exact: true });
    await section.getByRole("button", { name: "Create an API key" }).click();
    await section.getByLabel("Key name").fill("Nightly export");
    await section.getByRole("button", { name: "Create key" }).click();
    await section.getByText("To create an API key, confirm it is you").waitFor();
    await section.getByLabel("Current password").fill(ADMIN.password);
    await section.getByRole("button", { name: "Confirm" }).click();
    const shown = section.getByTestId("new-api-key");
    await shown.waitFor();
    expect(await shown.textContent()).toMatch(/^da_/);
    expect(policyReports).toEqual([]);
  });
});
