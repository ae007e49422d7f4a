import { freePort, type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { ensureCacheComponentsBuilt } from "@domain-auth/test-support/app-variants";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openTab, saveScreenshot } from "./support/browser.js";
import { ADMIN, fillAccountForm, profileValue, signIn, signOut } from "./support/flows.js";

/** What Chromium reports about the page's Content-Security-Policy. */
function watchPolicy(page: Page): string[] {
  const reports: string[] = [];
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) reports.push(message.text());
  });
  return reports;
}

// The same pages in a project with `cacheComponents` and `partialPrefetching` on, as the newest
// create-next-app writes them: they build, render per request with their nonce, and sign in.
describe("with cacheComponents on", () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    const folder = ensureCacheComponentsBuilt();
    // An SMTP_URL (never reached here) so the e-mail pages exist too, and so an APP_URL: the server's
    // own origin, the only one its cookie sign-ins accept.
    const port = await freePort();
    const env = { SMTP_URL: "smtp://127.0.0.1:9", APP_URL: `http://127.0.0.1:${port}`, PORT: String(port) };
    [app, browser] = await Promise.all([startApp({ app: folder, env }), launchBrowser()]);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test("every auth page carries a fresh nonce that all its scripts carry; the home page gets no nonce policy", async () => {
    for (const path of [
      "/setup",
      "/login",
      "/register",
      "/profile",
      "/admin",
      "/forgot-password",
      "/reset-password?token=t&invite=1",
      "/verify-email",
      "/docs",
    ]) {
      const response = await fetch(`${app.url}${path}`);
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
      expect(nonce, path).toBeTruthy();
      const scripts = (await response.text()).match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const script of scripts) expect(script, path).toContain(`nonce="${nonce}"`);
    }
    const home = await fetch(`${app.url}/`);
    expect(home.status).toBe(200);
    // The sample's own next.config gives its pages frame-ancestors only: nothing that would stop their scripts.
    expect(home.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
    await home.body?.cancel();
  });

  test("setup → profile → sign out → sign in → profile → API reference in Chromium, with no policy violation", async () => {
    const page = await openTab(browser, app.url);
    const reports = watchPolicy(page);
    // Sign-in first, as a visitor would: it leads to /setup, and the router must not take the way back there after sign-out.
    await page.goto("/login");
    await page.waitForURL("**/setup");
    await page.getByRole("main").getByRole("heading", { name: "Welcome to blog" }).waitFor();
    await fillAccountForm(page, ADMIN);
    await page.getByRole("main").getByRole("button", { name: "Create administrator" }).click();
    await page.waitForURL("**/profile");
    expect(await profileValue(page, ADMIN.email, "Role")).toBe("Admin");
    await saveScreenshot(page, "cache-components-profile");

    await signOut(page);
    await signIn(page, ADMIN);
    expect(await profileValue(page, ADMIN.email, "Email")).toBe(ADMIN.email);
    await page.goto("/docs");
    await page.locator('.opblock-tag[data-tag="Post"]').waitFor();
    expect(reports).toEqual([]);
    await page.context().close();
  });
});
