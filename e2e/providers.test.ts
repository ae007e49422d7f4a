import { readFile } from "node:fs/promises";
import { setUpAdmin, signUp } from "@domain-auth/test-support/accounts";
import { freePort, type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { type ProviderAccount, startOpenIdProvider, type TestOpenIdProvider } from "@domain-auth/test-support/openid-provider";
import { Secret, TOTP } from "otpauth";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab, saveScreenshot } from "./support/browser.js";
import { profileValue, signIn } from "./support/flows.js";

/**
 * Sign-in with a provider in Chromium against the production server (docs/providers.md): a real
 * OpenID Provider (oidc-provider) on 127.0.0.1 whose own sign-in and consent pages the browser goes
 * through; "Continue with Acme" on /login, and Connected accounts on /profile.
 */

const BLOG = await readFile(new URL("../apps/web/domain.yaml", import.meta.url), "utf8");

/** Goes through the provider's own pages as `account`: its sign-in form, then its consent. */
async function signInAtProvider(page: Page, provider: TestOpenIdProvider, account: string): Promise<void> {
  await page.waitForURL(`${provider.issuer}/interaction/**`);
  await page.locator('input[name="login"]').fill(account);
  await page.locator('input[name="password"]').fill("any password");
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(`${provider.issuer}/interaction/**`);
  await page.locator('button[type="submit"]').first().click();
}

/** The sample app with `acme` at a real OpenID Provider, Chromium beside it, and setup done: read inside tests. */
interface ProviderApp {
  provider: TestOpenIdProvider;
  app: RunningApp;
  browser: Browser;
}

/**
 * Starts the OpenID Provider with `accounts`, then the app (its `auth` block given `extraAuth` lines
 * and `acme`) and Chromium, before the suite; stops them after. The callback URL is APP_URL's: the
 * port is chosen first, so the provider can register it.
 */
function useProviderApp(accounts: Record<string, ProviderAccount>, extraAuth = ""): ProviderApp {
  const served = {} as ProviderApp;
  beforeAll(async () => {
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    served.provider = await startOpenIdProvider({ redirectUris: [`${appUrl}/api/user/oauth/acme/callback`], accounts });
    const domain = BLOG.replace(
      /\nauth:\n {2}type: jwt\n/,
      `\nauth:\n  type: jwt\n${extraAuth}  providers:\n    acme: { type: oidc, issuer: "${served.provider.issuer}", name: Acme }\n`,
    );
    if (domain === BLOG) throw new Error("the sample domain.yaml has no auth block to add a provider to");
    const env = {
      PORT: String(port),
      APP_URL: appUrl,
      AUTH_PROVIDER_ACME_CLIENT_ID: served.provider.clientId,
      AUTH_PROVIDER_ACME_CLIENT_SECRET: served.provider.clientSecret,
    };
    [served.app, served.browser] = await Promise.all([startApp({ domain, env }), launchBrowser()]);
    await setUpAdmin(served.app.url);
  });
  afterAll(async () => {
    await served.browser?.close();
    await served.app?.stop();
    await served.provider?.close();
  });
  return served;
}

describe("sign-in with a provider in the browser", () => {
  const served = useProviderApp({
    alice: { email: "alice@example.com", email_verified: true, name: "Alice Liddell" },
    bob: { email: "bob.elsewhere@example.com", email_verified: true, name: "Bob" },
  });

  test("a new person continues with Acme on /login, goes through its pages, and lands signed in on next", async () => {
    const page = await openTab(served.browser, served.app.url);
    await page.goto("/login?next=%2Fprofile");
    const button = page.getByRole("link", { name: "Continue with Acme" });
    await expect(button.getAttribute("href")).resolves.toBe("/api/user/oauth/acme?next=%2Fprofile");
    await saveScreenshot(page, "login-with-provider");
    await button.click();
    await signInAtProvider(page, served.provider, "alice");
    await page.waitForURL(`${served.app.url}/profile`);
    await expect(profileValue(page, "alice@example.com", "Name")).resolves.toBe("Alice Liddell");
    const accounts = page.getByRole("region", { name: "Connected accounts" });
    await accounts.getByText("alice@example.com · since").waitFor();
    await saveScreenshot(page, "profile-connected-accounts");
    await page.context().close();
  });

  test("a refusal is a sentence on /login, and no session", async () => {
    const page = await openTab(served.browser, served.app.url);
    await page.goto("/login");
    await page.getByRole("link", { name: "Continue with Acme" }).click();
    await page.waitForURL(`${served.provider.issuer}/interaction/**`);
    // Cancelled at the provider: back on /login, told so.
    await page.goto(`${new URL(page.url()).href.replace(/\/$/, "")}/abort`);
    await page.waitForURL(`${served.app.url}/login?error=OAUTH_DENIED`);
    await expect(page.getByText("The sign-in was cancelled at the provider.").count()).resolves.toBe(1);
    const cookies = await page.context().cookies(served.app.url);
    expect(cookies.map((cookie) => cookie.name)).not.toContain("domain-auth.token");
    await page.context().close();
  });

  test("a password user connects Acme from /profile and disconnects it", async () => {
    const account = { email: "bob@example.com", password: "bob's long password" };
    await signUp(served.app.url, account);
    const page = await openTab(served.browser, served.app.url);
    await signIn(page, account);
    const accounts = page.getByRole("region", { name: "Connected accounts" });
    await accounts.getByRole("button", { name: "Connect Acme" }).click();
    await signInAtProvider(page, served.provider, "bob");
    await page.waitForURL(`${served.app.url}/profile?connected=acme`);
    await expect(accounts.getByRole("status").textContent()).resolves.toBe("Your Acme account is connected: you can sign in with it.");
    await accounts.getByText("bob.elsewhere@example.com · since").waitFor();
    await accounts.getByRole("button", { name: "Disconnect Acme" }).click();
    await expect(accounts.getByRole("status").filter({ hasText: "disconnected" }).textContent()).resolves.toBe(
      "Your Acme account was disconnected.",
    );
    await accounts.getByRole("button", { name: "Connect Acme" }).waitFor();
    await page.context().close();
  });
});

describe("a role that must use a second factor, signing in with a provider in the browser", () => {
  const served = useProviderApp(
    { gus: { email: "gus@example.com", email_verified: true, name: "Gus" } },
    "  mfa: { required: [Reader] }\n",
  );

  test("sets up the authenticator on /login (its token in a cookie, never the page), then is signed in", async () => {
    const page = await openTab(served.browser, served.app.url);
    await page.goto("/login");
    await page.getByRole("link", { name: "Continue with Acme" }).click();
    await signInAtProvider(page, served.provider, "gus");
    await page.waitForURL(`${served.app.url}/login?step=enrolment**`);
    expect(page.url()).not.toContain("mfa_");
    const main = page.getByRole("main");
    await main.getByRole("heading", { name: "Set up two-step verification" }).waitFor();
    const secret = (await main.locator('dt:text-is("Setup key") + dd').textContent())?.replace(/\s/g, "") ?? "";
    const code = TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
    await main.getByLabel("Authentication code").fill(code);
    await main.getByRole("button", { name: "Turn on" }).click();
    await main.getByRole("heading", { name: "Two-step verification is on" }).waitFor();
    await main.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(`${served.app.url}/profile`);
    await expect(profileValue(page, "gus@example.com", "Role")).resolves.toBe("Reader");
    await page.context().close();
  });
});
